"""The message catalogue: one id per sentence parlbot says, and ``say`` to word it. No Discord here.

Renderers, domain errors and cogs never spell a sentence out; they name it (``Msg.NO_MATCH``) and give
its fields, which the text places with ``str.format`` (``say(Msg.NO_MATCH, what="quote", query=q)``).
English (``bot.messages.en``) is the only language for now; another language is another catalogue
keyed by the same ids, not a hunt through the code.

What is not here, on purpose:
- command and option descriptions (the ``description=`` of ``app_commands`` decorators): they are
  Discord's own localizable command metadata, translated by an ``app_commands.Translator`` later;
- output of the command line (``bot.cli``, ``bot.loopback``): it is for the bot's host, not members;
- the data itself (titles, quotes, summaries) and the dataset's vocabularies (``db.models``' enum
  values such as ``named`` or ``unanimous_consent``, shown as words);
- ``bot.curation.forms`` and ``cogs.curation``, which move here once their rewrite has landed.

Fields are named for what they hold (``{kind}``, ``{key}``, ``{suggestion}`` for a number); a field
holding a capitalized word starts the English sentence (``"{kind} `{key}` changed after..."``).
"""

from __future__ import annotations

from enum import StrEnum, unique


@unique
class Msg(StrEnum):
    """A sentence (or label) parlbot says; the value is its stable id, ``area.name``."""

    # -- errors (bot.client.tree) ---------------------------------------------------------------------
    APOLOGY = "error.apology"
    CHECK_FAILED = "error.check-failed"
    NOT_UNDERSTOOD = "error.not-understood"

    # -- shared by every area --------------------------------------------------------------------------
    PREVIOUS = "pages.previous"
    NEXT = "pages.next"
    PAGE = "pages.page"
    AND_MORE = "list.and-more"
    CANCEL = "button.cancel"

    # -- what entries are called -----------------------------------------------------------------------
    KIND_INCIDENT = "kind.incident"
    KIND_PERSON = "kind.person"
    KIND_PARTY = "kind.party"
    KIND_SOURCE = "kind.source"
    KIND_CHAMBER = "kind.chamber"
    AN_INCIDENT = "kind.incident.indefinite"
    A_PERSON = "kind.person.indefinite"
    A_PARTY = "kind.party.indefinite"
    A_SOURCE = "kind.source.indefinite"
    A_CHAMBER = "kind.chamber.indefinite"
    PART_PARTICIPANT = "part.participant"
    PART_PARTICIPANTS = "part.participant.plural"
    PART_QUOTE = "part.quote"
    PART_QUOTES = "part.quote.plural"
    PART_RULING = "part.ruling"
    PART_RULINGS = "part.ruling.plural"
    PART_MOTION = "part.motion"
    PART_MOTIONS = "part.motion.plural"
    PART_POSITION = "part.position"
    PART_POSITIONS = "part.position.plural"
    STATUS_PENDING = "status.pending"
    STATUS_APPROVED = "status.approved"
    STATUS_REJECTED = "status.rejected"
    STATUS_STALE = "status.stale"

    # -- answers (bot.answers.render) ------------------------------------------------------------------
    UNOFFICIAL = "answer.unofficial"
    ATTRIBUTION_RECORDED = "attribution.recorded"
    ATTRIBUTION_SELF_ACKNOWLEDGED = "attribution.self-acknowledged"
    ATTRIBUTION_NEWS_REPORTED = "attribution.news-reported"
    ATTRIBUTION_INFERRED = "attribution.inferred"
    STANCE_YES = "stance.yes"
    STANCE_NO = "stance.no"
    STANCE_ABSTAIN = "stance.abstain"
    STANCE_ABSENT = "stance.absent"
    STANCE_PAIRED = "stance.paired"
    STANCE_CONSENT = "stance.consent"
    STANCE_OBJECT = "stance.object"
    STANCE_UNKNOWN = "stance.unknown"
    DELIVERY_TRANSLATED = "delivery.translated"
    DELIVERY_REPORTED = "delivery.reported"
    NO_LINK = "answer.no-link"
    MOVED_BY = "answer.moved-by"
    PROCEDURE = "answer.procedure"
    WITH_SOURCE = "answer.with-source"
    PEOPLE_INVOLVED = "answer.people-involved"
    MOTION = "answer.motion"
    WHO_OBJECTED_OR_VOTED = "answer.who-objected-or-voted"
    KEY_QUOTES = "answer.key-quotes"
    RULING = "answer.ruling"
    SOURCES = "answer.sources"
    ALL_QUOTES = "answer.all-quotes"
    ALL_SOURCES = "answer.all-sources"
    WHO_OBJECTED = "answer.who-objected"
    WHO_OBJECTED_TITLE = "answer.who-objected-title"
    NO_MOTION = "answer.no-motion"
    POSITIONS = "answer.positions"
    NO_POSITIONS = "answer.no-positions"
    SHOW_INCIDENT = "answer.show-incident"
    SAID_TO = "answer.said-to"
    CONTEXT = "answer.context"
    INCIDENT = "answer.incident"
    SOURCE = "answer.source"
    RULING_TITLE = "answer.ruling-title"
    PARTY = "answer.party"
    ALSO_KNOWN_AS = "answer.also-known-as"
    APPEARS_IN = "answer.appears-in"
    APPEARANCE = "answer.appearance"
    NO_INCIDENTS = "answer.no-incidents"
    QUOTES = "answer.quotes"
    QUOTES_TITLE = "answer.quotes-title"
    SOURCES_TITLE = "answer.sources-title"
    SOURCES_DIFFER = "answer.sources-differ"

    # -- looking things up (bot.answers.render, bot.library, cogs.common, cogs.search) ----------------
    EMPTY_QUERY = "lookup.empty-query"
    DID_YOU_MEAN = "lookup.did-you-mean"
    NO_MATCH = "lookup.no-match"
    NO_MATCH_SUGGESTIONS = "lookup.no-match-suggestions"
    NO_MATCH_TIP = "lookup.no-match-tip"
    TOPIC_INCIDENT = "lookup.topic.incident"
    TOPIC_WHO_OBJECTED = "lookup.topic.who-objected"
    TOPIC_QUOTE = "lookup.topic.quote"
    TOPIC_RULING = "lookup.topic.ruling"
    TOPIC_PERSON = "lookup.topic.person"
    BUTTON_GONE = "lookup.button-gone"
    INCIDENT_GONE = "lookup.incident-gone"
    NO_RULING = "lookup.no-ruling"
    QUOTE_GONE = "lookup.quote-gone"
    PERSON_GONE = "lookup.person-gone"
    BAD_REFERENCE = "lookup.bad-reference"
    SEARCH_TITLE = "search.title"
    NO_RESULTS = "search.no-results"
    SEARCH_NOT_YOURS = "search.not-yours"
    HELP_TITLE = "help.title"
    HELP_INTRO = "help.intro"

    # -- who may change entries (cogs.checks) ----------------------------------------------------------
    NOT_IN_A_SERVER = "check.not-in-a-server"
    NOT_A_MODERATOR = "check.not-a-moderator"
    NOT_A_MANAGER = "check.not-a-manager"

    # -- changing one entry (bot.curation.entries) -----------------------------------------------------
    CANNOT_SAVE = "entry.cannot-save"
    CANNOT_SAVE_MANY = "entry.cannot-save-many"
    NOT_A_DATE = "entry.not-a-date"
    SOURCE_REQUIRED = "entry.source-required"
    TOO_LONG = "entry.too-long"
    TOO_MANY = "entry.too-many"
    REQUIRED = "entry.required"
    EMPTY = "entry.empty"
    NOT_A_URL = "entry.not-a-url"
    NOT_A_SLUG = "entry.not-a-slug"
    NOT_ONE_OF = "entry.not-one-of"
    NOT_A_FIELD = "entry.not-a-field"
    INVALID = "entry.invalid"
    NO_SUCH_PART = "entry.no-such-part"
    MOTION_OF = "entry.motion-of"
    PART_UNCHANGED = "entry.part-unchanged"
    HAS_ALIAS = "entry.has-alias"
    NO_ALIAS = "entry.no-alias"
    ALIAS_UNCHANGED = "entry.alias-unchanged"

    # -- the write path (bot.curation.changes) ---------------------------------------------------------
    ENTRY_MISSING = "curation.entry-missing"
    SHARED_READ_ONLY = "curation.shared-read-only"
    CHANGED_MEANWHILE = "curation.changed-meanwhile"
    ALREADY_EXISTS = "curation.already-exists"
    NOTHING_TO_EDIT = "curation.nothing-to-edit"
    SLUG_FIXED = "curation.slug-fixed"
    UNCHANGED = "curation.unchanged"
    STILL_REFERRED_TO = "curation.still-referred-to"
    NOTHING_TO_REMOVE = "curation.nothing-to-remove"
    NOT_REMOVED = "curation.not-removed"
    NOTHING_TO_UNDO = "curation.nothing-to-undo"
    NO_SUCH_CHANGE = "curation.no-such-change"
    ALREADY_UNDONE = "curation.already-undone"
    CHANGED_SINCE_CHANGE = "curation.changed-since-change"
    NO_SUCH_SUGGESTION = "curation.no-such-suggestion"
    ALREADY_DECIDED = "curation.already-decided"
    CHANGED_SINCE_SUGGESTION = "curation.changed-since-suggestion"
    PROPOSES_NOTHING = "curation.proposes-nothing"
    STALE_REASON = "curation.stale-reason"
    REMOVED_SUMMARY = "audit.removed"
    RESTORED_SUMMARY = "audit.restored"
    UNDID_SUMMARY = "audit.undid"
    IMPORTED_SUMMARY = "audit.imported"

    # -- moderators' replies (bot.curation.replies) ----------------------------------------------------
    CURATION_FOOTER = "curation.footer"
    DONE = "curation.done"
    UNDO_HINT = "curation.undo-hint"
    NOTHING_SAVED = "curation.nothing-saved"
    YOUR_TEXT = "curation.your-text"
    REMOVAL_CONFIRM = "removal.confirm"
    REMOVAL_EXPIRED = "removal.expired"
    REMOVAL_CANCELLED = "removal.cancelled"
    SUGGESTED = "suggestion.thanks"
    OUTCOME = "suggestion.outcome"
    HISTORY_TITLE = "history.title"
    HISTORY_HINT = "history.hint"
    NO_CHANGES = "history.empty"
    UNDONE_BY = "history.undone-by"
    MODERATORS_MANAGE_SERVER = "config.manage-server"
    MODERATORS_ROLE = "config.role"
    CONFIG_HINT = "config.hint"

    # -- the review queue (bot.curation.review_replies, cogs.review) -----------------------------------
    REVIEW_FOOTER = "review.footer"
    REVIEW_EMPTY = "review.empty"
    REVIEW_POSITION = "review.position"
    REVIEW_ADD_TITLE = "review.title.add"
    REVIEW_CHANGE_TITLE = "review.title.change"
    SUGGESTED_BY = "review.suggested-by"
    WHAT_WOULD_CHANGE = "review.what-would-change"
    NOTHING_ANY_MORE = "review.nothing-any-more"
    ITEM = "review.item"
    ITEMS = "review.items"
    SOME_CHANGED = "review.some-changed"
    CLEARED = "review.cleared"
    NOT_A_REVIEWER = "review.not-a-reviewer"
    NO_LONGER_WAITING = "review.no-longer-waiting"
    NOT_APPLIED = "review.not-applied"
    APPROVED = "review.approved"
    REJECTED = "review.rejected"
    APPROVE = "review.approve"
    REJECT = "review.reject"
    REJECT_TITLE = "review.reject-title"
    REJECT_REASON = "review.reject-reason"

    # -- import and export (bot.curation.transfer, bot.curation.transfer_replies, cogs.transfer) -------
    NOT_TEXT = "import.not-text"
    NOT_JSON = "import.not-json"
    NOT_A_DATASET = "import.not-a-dataset"
    WHOLE_FILE = "import.whole-file"
    TWICE = "import.twice"
    DUPLICATE_URL = "import.duplicate-url"
    REFUSED_ONE = "import.refused.one"
    REFUSED_MANY = "import.refused.many"
    IMPORT_FOOTER = "import.footer"
    DRY_RUN = "import.dry-run"
    REJECTED_ENTRIES = "import.rejected-entries"
    FIX_AND_RETRY = "import.fix-and-retry"
    NOTHING_TO_IMPORT = "import.nothing-to-import"
    CONFIRM_IMPORT_ONE = "import.confirm.one"
    CONFIRM_IMPORT_MANY = "import.confirm.many"
    IMPORTING = "import.progress"
    IMPORTED = "import.done"
    IMPORT_DONE = "import.done-title"
    IMPORT_FAILED = "import.failed"
    IMPORT_CANCELLED = "import.cancelled"
    IMPORT_EXPIRED = "import.expired"
    IMPORT_NOT_YOURS = "import.not-yours"
    IMPORT = "import.import"
    FILE_TOO_BIG = "import.file-too-big"
    EXPORT_NOTE = "export.note"
    EXPORT_TOO_BIG = "export.too-big"


def say(msg: Msg, /, **fields: object) -> str:
    """The English text of ``msg`` with its ``{fields}`` filled in (``str.format``)."""
    from bot.messages.en import ENGLISH  # en.py keys its texts by Msg, so it imports this module

    return ENGLISH[msg].format(**fields)
