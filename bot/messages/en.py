"""parlbot's words in English: the text of every ``Msg``, with its ``{fields}`` (``str.format``).

Discord markdown (``**bold**``, ``code``) and mentions (``<@&{role}>``) are part of a text; literal
braces would be doubled. ``tests/test_messages.py`` checks that every id has a text here and that every
text's fields are well formed.
"""

from __future__ import annotations

from bot.messages.ids import Msg

ENGLISH: dict[Msg, str] = {
    # -- errors ---------------------------------------------------------------------------------------
    Msg.APOLOGY: (
        "Sorry, something went wrong while answering that. It has been logged; please try again later."
    ),
    Msg.CHECK_FAILED: "You cannot use this command here.",
    Msg.NOT_UNDERSTOOD: "I could not understand {value!r} for that option.",
    # -- shared ---------------------------------------------------------------------------------------
    Msg.PREVIOUS: "◀ Previous",
    Msg.NEXT: "Next ▶",
    Msg.PAGE: "page {page}/{pages}",
    Msg.AND_MORE: "… and {count} more",
    Msg.CANCEL: "Cancel",
    # -- what entries are called ----------------------------------------------------------------------
    Msg.KIND_INCIDENT: "incident",
    Msg.KIND_PERSON: "person",
    Msg.KIND_PARTY: "party",
    Msg.KIND_SOURCE: "source",
    Msg.KIND_CHAMBER: "chamber",
    Msg.AN_INCIDENT: "an incident",
    Msg.A_PERSON: "a person",
    Msg.A_PARTY: "a party",
    Msg.A_SOURCE: "a source",
    Msg.A_CHAMBER: "a chamber",
    Msg.PART_PARTICIPANT: "participant",
    Msg.PART_PARTICIPANTS: "participants",
    Msg.PART_QUOTE: "quote",
    Msg.PART_QUOTES: "quotes",
    Msg.PART_RULING: "ruling",
    Msg.PART_RULINGS: "rulings",
    Msg.PART_MOTION: "motion",
    Msg.PART_MOTIONS: "motions",
    Msg.PART_POSITION: "position",
    Msg.PART_POSITIONS: "positions",
    Msg.PART_ALIAS: "alias",
    Msg.STATUS_PENDING: "pending",
    Msg.STATUS_APPROVED: "approved",
    Msg.STATUS_REJECTED: "rejected",
    Msg.STATUS_STALE: "stale",
    # -- answers --------------------------------------------------------------------------------------
    Msg.UNOFFICIAL: "Unofficial summary from cited sources · parlbot",
    Msg.ATTRIBUTION_RECORDED: "in the official record",
    Msg.ATTRIBUTION_SELF_ACKNOWLEDGED: "acknowledged by the member",
    Msg.ATTRIBUTION_NEWS_REPORTED: "reported by news",
    Msg.ATTRIBUTION_INFERRED: "inferred, not stated outright by a source",
    Msg.STANCE_YES: "voted yes",
    Msg.STANCE_NO: "voted no",
    Msg.STANCE_ABSTAIN: "abstained",
    Msg.STANCE_ABSENT: "was absent",
    Msg.STANCE_PAIRED: "was paired",
    Msg.STANCE_CONSENT: "consented",
    Msg.STANCE_OBJECT: "objected",
    Msg.STANCE_UNKNOWN: "position unknown",
    Msg.DELIVERY_TRANSLATED: "Said in {language}; English as printed by {publisher}.",
    Msg.DELIVERY_REPORTED: "As reported by {publisher}; other reports may word it differently.",
    Msg.MOVED_BY: "Moved by: {who}",
    Msg.PROCEDURE: "Procedure: {procedure} · Result: {result}",
    Msg.WITH_SOURCE: "{text}\nSource: {source}",
    Msg.PEOPLE_INVOLVED: "People involved",
    Msg.MOTION: "Motion",
    Msg.WHO_OBJECTED_OR_VOTED: "Who objected or voted",
    Msg.KEY_QUOTES: "Key quotes",
    Msg.RULING: "Ruling",
    Msg.SOURCES: "Sources",
    Msg.ALL_QUOTES: "All {count} quotes",
    Msg.ALL_SOURCES: "All {count} sources",
    Msg.WHO_OBJECTED: "Who objected?",
    Msg.WHO_OBJECTED_TITLE: "Who objected: {title}",
    Msg.NO_MOTION: "No motion is recorded for this incident, so there is no objection to report.",
    Msg.POSITIONS: "Positions",
    Msg.NO_POSITIONS: "No one's position is named in the sources.",
    Msg.SHOW_INCIDENT: "Show the incident",
    Msg.SAID_TO: "Said to",
    Msg.CONTEXT: "Context",
    Msg.INCIDENT: "Incident",
    Msg.SOURCE: "Source",
    Msg.RULING_TITLE: "Ruling: {title}",
    Msg.PARTY: "Party: {party}",
    Msg.ALSO_KNOWN_AS: "Also known as: {aliases}",
    Msg.APPEARS_IN: "Appears in",
    Msg.APPEARANCE: "{incident} — as {role}",
    Msg.NO_INCIDENTS: "No incidents.",
    Msg.QUOTES: "Quotes",
    Msg.QUOTES_TITLE: "Quotes: {title}",
    Msg.SOURCES_TITLE: "Sources: {title}",
    Msg.SOURCES_DIFFER: "Where sources differ",
    Msg.DELIVERY_TRANSLATED_UNNAMED: "English as printed by {publisher}.",
    Msg.NEWS_REPORT: "News report",
    Msg.A_NEWS_REPORT: "a news report",
    Msg.ORIGINAL: "As said, in {language}",
    Msg.ORIGINAL_WORDS: "“{text}” (as said, in {language})",
    Msg.RULED: "{who} ruled: {outcome}",
    Msg.RULED_ON: "{who} ruled on {subject}: {outcome}",
    Msg.OUTCOME_CALLED_TO_ORDER: "called to order",
    Msg.OUTCOME_WARNED: "warned",
    Msg.OUTCOME_ASKED_TO_WITHDRAW: "asked to withdraw",
    Msg.OUTCOME_WORDS_WITHDRAWN: "words withdrawn",
    Msg.OUTCOME_APOLOGY_ACCEPTED: "apology accepted",
    Msg.OUTCOME_ORDERED_TO_LEAVE_SITTING: "ordered to leave for the rest of the sitting",
    Msg.OUTCOME_ORDERED_TO_LEAVE_PERIOD: "ordered to leave for a period",
    Msg.OUTCOME_NAMED: "named",
    Msg.OUTCOME_SUSPENDED_BY_HOUSE: "suspended by the House",
    Msg.OUTCOME_PRIVILEGE_FOUND: "prima facie question of privilege found",
    Msg.OUTCOME_PRIVILEGE_NOT_FOUND: "no prima facie question of privilege",
    Msg.OUTCOME_SITTING_SUSPENDED: "sitting suspended",
    Msg.OUTCOME_NO_SANCTION: "no sanction",
    Msg.ROLES: "Roles the sources give",
    Msg.RULINGS_ON_THEM: "(ruled on: {outcomes})",
    Msg.QUOTE_NOTES: "How the quotes reached us",
    Msg.RULING_GONE: "That ruling is no longer in the database.",
    Msg.SAID_BY: "Said by",
    # -- looking things up ----------------------------------------------------------------------------
    Msg.EMPTY_QUERY: "Please type something to look for, or pick one of the suggestions.",
    Msg.DID_YOU_MEAN: "I found more than one close match for “{query}”. Did you mean:\n{choices}",
    Msg.NO_MATCH: "I could not find any {what} matching “{query}”.",
    Msg.NO_MATCH_SUGGESTIONS: "Some entries you could try:\n{suggestions}",
    Msg.NO_MATCH_TIP: "Tip: start typing and pick from the suggestions, or try `/search`.",
    Msg.TOPIC_INCIDENT: "incident",
    Msg.TOPIC_WHO_OBJECTED: "incident or motion",
    Msg.TOPIC_QUOTE: "quote",
    Msg.TOPIC_RULING: "ruling",
    Msg.TOPIC_PERSON: "person",
    Msg.BUTTON_GONE: "That button no longer does anything; please ask again.",
    Msg.INCIDENT_GONE: "The incident `{slug}` is no longer in the database.",
    Msg.NO_RULING: "No ruling is recorded for “{title}”.",
    Msg.QUOTE_GONE: "That quote is no longer in the database.",
    Msg.PERSON_GONE: "The person `{slug}` is no longer in the database.",
    Msg.ENTRY_AMBIGUOUS: "“{text}” could be several entries: {candidates}. Pick one of the suggestions.",
    Msg.ENTRY_UNKNOWN: "No incident, person or party here matches “{text}”; pick one of the suggestions.",
    Msg.BAD_REFERENCE: "That entry reference is not valid.",
    Msg.SEARCH_TITLE: "Search: {query}",
    Msg.NO_RESULTS: "No results.",
    Msg.SEARCH_NOT_YOURS: "Only the person who searched can turn these pages; try `/search` yourself.",
    Msg.HELP_TITLE: "parlbot help",
    Msg.HELP_INTRO: (
        "Ask about parliamentary incidents: ejections, unparliamentary language, Speaker's rulings, "
        "motions and who objected. Every `query` option suggests entries as you type; typos and "
        "half-typed names are fine."
    ),
    Msg.HELP_MODERATORS_TITLE: "For moderators",
    Msg.HELP_MODERATORS_INTRO: (
        "Changes land in this server only, are recorded with who made them, and can be undone "
        "(`/history`, `/undo`)."
    ),
    Msg.SEARCH_FILTER_EMPTY: "`{value}:` needs a value: `chamber:uk`, `year:2010-2016` or `kind:ruling`.",
    Msg.SEARCH_BAD_YEAR: (
        "I cannot read “{value}” as a year. Write a year or a range: `year:2016`, `year:2010-2016` "
        "or `year:2010..2016`."
    ),
    Msg.SEARCH_BAD_KIND: "There is no kind “{value}”. Kinds you can filter by: {allowed}.",
    Msg.SEARCH_UNKNOWN_CHAMBER: "I know no chamber called “{value}”. Chambers you can filter by: {allowed}.",
    Msg.RULING_CHOICE: "{ruled_by}: {outcome}",
    Msg.RULING_CHOICE_ON: "{ruled_by} on {subject}: {outcome}",
    # -- who may change entries -----------------------------------------------------------------------
    Msg.NOT_IN_A_SERVER: "Changes to parlbot's entries are made in a server, not in direct messages.",
    Msg.NOT_A_MODERATOR: (
        "Only this server's parlbot moderators can change entries, so nothing was changed. "
        "You can propose a change with `/suggest` or `/suggest-edit`."
    ),
    Msg.NOT_A_MODERATOR_TO_READ: "Only this server's parlbot moderators can use this command.",
    Msg.ROLE_NOT_HELD: (
        "You don't hold the role {role}. Once it is the moderator role, only its members can change "
        "entries here, and you won't be one of them (Manage Server can still change this setting). "
        "Set it anyway?"
    ),
    Msg.ROLE_SET_ANYWAY: "Set it anyway",
    Msg.ROLE_NOT_YOURS: "Only the member who ran this /config can confirm it.",
    Msg.ROLE_CANCELLED: "Cancelled: the moderator role is unchanged.",
    Msg.ROLE_EXPIRED: "This confirmation expired, so the moderator role is unchanged.",
    Msg.REMOVED_TITLE: "Removed here",
    Msg.REMOVED_LINE: "{kind} `{key}` — removed {when}",
    Msg.REMOVED_HINT: "/restore target: brings one back",
    Msg.NOTHING_REMOVED: "Nothing is removed in this server.",
    Msg.REMOVED_NOT_YOURS: "Only the moderator who asked can turn these pages; try `/removed` yourself.",
    Msg.NOT_A_MANAGER: "Only members with Manage Server can change parlbot's settings here.",
    # -- changing one entry ---------------------------------------------------------------------------
    Msg.CANNOT_SAVE: "That change can't be saved: {problem}",
    Msg.CANNOT_SAVE_MANY: "That change can't be saved:\n{problems}",
    Msg.NOT_A_DATE: (
        "{path}: {value!r} is not a date; please write it as YYYY-MM-DD (for example 2020-06-17)."
    ),
    Msg.SOURCE_REQUIRED: "{path} needs a source ({sources}).",
    Msg.TOO_LONG: "{path} is {length} characters long; the limit is {limit}.",
    Msg.TOO_MANY: "too many",
    Msg.REQUIRED: "{path} is required.",
    Msg.EMPTY: "{path} cannot be empty.",
    Msg.NOT_A_URL: "{path} must be a web address starting with http:// or https://.",
    Msg.NOT_A_SLUG: "{path} must be lower-case words joined by hyphens, like `{example}` (got {value!r}).",
    Msg.NOT_ONE_OF: "{path} must be one of {expected} (got {value!r}).",
    Msg.NOT_A_FIELD: "{path} is not a field of this entry.",
    Msg.INVALID: "{path}: {problem}.",
    Msg.NO_SUCH_PART: "There is no {part} {index} in {owner}: it has {count} {parts} (numbered from 0).",
    Msg.MOTION_OF: "motion {motion} of `{slug}`",
    Msg.PART_UNCHANGED: "Nothing to change: {part} {index} of {owner} already says that.",
    Msg.HAS_ALIAS: "`{slug}` already has the alias “{alias}”.",
    Msg.NO_ALIAS: "`{slug}` has no alias “{alias}”.",
    Msg.ALIAS_UNCHANGED: "Nothing to change: the alias is already “{alias}”.",
    # -- the write path -------------------------------------------------------------------------------
    Msg.ENTRY_MISSING: "That entry is not in the database here.",
    Msg.SHARED_READ_ONLY: "The shared dataset can't be changed from here; changes are made in a server.",
    Msg.CHANGED_MEANWHILE: (
        "Someone changed {kind} `{key}` while you were working on it, so your change was not saved."
        " Please open it again and redo your change."
    ),
    Msg.ALREADY_EXISTS: "There is already {a_kind} `{key}` here; edit it instead, or choose another slug.",
    Msg.NOTHING_TO_EDIT: "There is no {kind} `{key}` here to edit.",
    Msg.SLUG_FIXED: "The slug of {kind} `{key}` can't change; add a new {kind} instead.",
    Msg.UNCHANGED: "Nothing to change: {kind} `{key}` already says that.",
    Msg.STILL_REFERRED_TO: "Other entries in this server still refer to {kind} `{key}`; change those first.",
    Msg.NOTHING_TO_REMOVE: "There is no {kind} `{key}` here to remove.",
    Msg.NOT_REMOVED: "{kind} `{key}` is not removed here, so there is nothing to restore.",
    Msg.NOTHING_TO_UNDO: "You have no change here left to undo.",
    Msg.NO_SUCH_CHANGE: "There is no change #{change} in this server.",
    Msg.ALREADY_UNDONE: "Change #{change} was already undone (by change #{undo}).",
    Msg.CHANGED_SINCE_CHANGE: (
        "{kind} `{key}` changed after change #{change}; undo the later changes first (see its history)."
    ),
    Msg.NO_SUCH_SUGGESTION: "There is no suggestion #{suggestion} in this server.",
    Msg.ALREADY_DECIDED: "Suggestion #{suggestion} was already decided ({status}).",
    Msg.CHANGED_SINCE_SUGGESTION: (
        "{kind} `{key}` changed after suggestion #{suggestion} was made, so it can't be applied as it is."
    ),
    Msg.PROPOSES_NOTHING: "Suggestion #{suggestion} proposes nothing.",
    Msg.STALE_REASON: "the entry changed after the suggestion was made",
    Msg.REMOVED_SUMMARY: "removed {kind} {key}",
    Msg.RESTORED_SUMMARY: "restored {kind} {key}",
    Msg.UNDID_SUMMARY: "undid #{change}: {summary}",
    Msg.IMPORTED_SUMMARY: "imported {kind} {key}",
    # -- the moderators' forms ------------------------------------------------------------------------
    Msg.NOT_AN_ENTRY: "“{text}” is not an entry; pick one of the suggestions.",
    Msg.NUMBER_NEEDED: "Please give the number of the {part} (start typing to see them).",
    Msg.NONE_YET: "`{owner}` has no {part} yet.",
    Msg.NO_SUCH_NUMBER: "`{owner}` has no {part} {number}: pick a number from 1 to {count}.",
    Msg.ENTRY_GONE: "That entry is no longer in the database here.",
    Msg.NO_CHANGE_GIVEN: "Nothing to change: give at least one option to change.",
    Msg.NOT_HERE: "There is no {kind} {key} here.",
    Msg.NO_INCIDENT: "There is no incident `{slug}` here.",
    Msg.NEW_WORDING_NEEDED: "Please give the alias's new wording (the `new` option).",
    Msg.NO_SUGGESTED_REMOVALS: "Removals can't be suggested; please ask a moderator.",
    Msg.IN_A_SERVER: "Entries are changed in a server, not in direct messages.",
    Msg.OPENS_A_FORM: "{description} (left out: a form opens)",
    Msg.PART_BY: "a {part} by {who}",
    Msg.PART_AS: "{who} as a {part}",
    Msg.A_PART: "a {part}",
    Msg.ADDED_TO: "{added} to {owner}",
    Msg.PART_OF: "{part} {number} of {owner}",
    Msg.ALIAS_OF: "alias “{alias}” of {of}",
    Msg.MOTION_LABEL: "Motion: {text}",
    Msg.ADDED_SUMMARY: "added {what}",
    Msg.EDITED_SUMMARY: "edited {what}: {fields}",
    Msg.REMOVED_PART_SUMMARY: "removed {what}",
    Msg.ALIAS_ADDED_SUMMARY: "added alias “{alias}” to {of}",
    Msg.ALIAS_RENAMED_SUMMARY: "renamed alias “{alias}” of {of} to “{new}”",
    Msg.ALIAS_REMOVED_SUMMARY: "removed alias “{alias}” from {of}",
    Msg.ADD_TITLE: "Add {subject}",
    Msg.EDIT_TITLE: "Change {subject}",
    Msg.SUGGEST_TITLE: "Suggest {subject}",
    Msg.SUGGEST_EDIT_TITLE: "Suggest a correction to {subject}",
    Msg.LABEL_ABBREVIATION: "Abbreviation",
    Msg.LABEL_ABBREVIATION_FR: "Abbreviation fr",
    Msg.LABEL_CONTEXT: "Context",
    Msg.LABEL_COUNTRY: "Country",
    Msg.LABEL_DETAIL: "Detail",
    Msg.LABEL_LABEL: "Label",
    Msg.LABEL_LICENCE: "Licence",
    Msg.LABEL_MOVED_BY_LABEL: "Moved by label",
    Msg.LABEL_NAME: "Name",
    Msg.LABEL_NAME_FR: "Name fr",
    Msg.LABEL_NOTES: "Notes",
    Msg.LABEL_PARTY_LABEL: "Party label",
    Msg.LABEL_PUBLISHER: "Publisher",
    Msg.LABEL_RESULT_DETAIL: "Result detail",
    Msg.LABEL_ROLE: "Role",
    Msg.LABEL_RULED_BY_LABEL: "Ruled by label",
    Msg.LABEL_SAID_TO: "Said to",
    Msg.LABEL_SPEAKER_LABEL: "Speaker label",
    Msg.LABEL_SUMMARY: "Summary",
    Msg.LABEL_TEXT: "Text",
    Msg.LABEL_TITLE: "Title",
    Msg.LABEL_URL: "Url",
    Msg.REFERENCE_AMBIGUOUS: (
        "`{option}`: “{text}” could be more than one {kind}. Did you mean:\n{choices}\n"
        "Type its slug (shown after each), or pick one of the suggestions."
    ),
    Msg.REFERENCE_UNKNOWN: "`{option}`: no {kind} here matches “{text}”; pick one of the suggestions.",
    Msg.REFERENCE_UNKNOWN_SUGGESTING: (
        "`{option}`: no {kind} here matches “{text}”. Some you could mean:\n{choices}\n"
        "Type its slug (shown after each), or pick one of the suggestions."
    ),
    Msg.PLACE: "{part} {number}",
    Msg.PLACE_NAMED: "{part} {number} ({label})",
    Msg.PLACE_IN: "{place} of {owner}",
    Msg.FIELD_OF: "`{field}` of {place}",
    Msg.THIS_ENTRY: "this entry",
    Msg.ONE_OF_SOURCES: "one of the incident's sources: {keys}",
    Msg.ANY_SOURCE: "the key of one of the incident's sources",
    Msg.PROBLEM_AT: "{place}: {problem}",
    # -- moderators' replies --------------------------------------------------------------------------
    Msg.CURATION_FOOTER: "parlbot curation",
    Msg.DONE: "{summary} (change #{change}).",
    Msg.UNDO_HINT: "`/undo` reverts it.",
    Msg.NOTHING_SAVED: "Nothing was saved.",
    Msg.YOUR_TEXT: "Your text, so that you can copy it:",
    Msg.REMOVAL_CONFIRM: (
        "Remove {what}?\nIt disappears from every answer in this server; `/undo` or"
        " `/history` can bring it back. This question expires in a minute."
    ),
    Msg.REMOVAL_EXPIRED: "This confirmation expired, so nothing was removed.",
    Msg.REMOVAL_CANCELLED: "Cancelled: nothing was removed.",
    Msg.REMOVE: "Remove",
    Msg.REMOVAL_NOT_YOURS: "Only the moderator who asked for this removal can confirm or cancel it.",
    Msg.SUGGESTED: (
        "Thank you! Suggestion #{suggestion} ({summary}) is waiting for a"
        " moderator's review; nothing changes until one approves it."
    ),
    Msg.OUTCOME: "Your suggestion #{suggestion} ({summary}) was {status}{reason}.",
    Msg.HISTORY_TITLE: "History: {target}",
    Msg.HISTORY_HINT: "/undo entry:N",
    Msg.NO_CHANGES: "No changes recorded.",
    Msg.UNDONE_BY: "undone by #{change}",
    Msg.HISTORY_NOT_YOURS: "Only the moderator who asked can turn these pages; try `/history` yourself.",
    Msg.MODERATORS_MANAGE_SERVER: (
        "Members with **Manage Server** are parlbot's moderators (no moderator role is set)."
    ),
    Msg.MODERATORS_ROLE: "Members with the <@&{role}> role are parlbot's moderators.",
    Msg.CONFIG_HINT: (
        "Members with Manage Server can always change this with `/config moderator-role`;"
        " everyone else can `/suggest` entries and `/suggest-edit` corrections."
    ),
    Msg.CHANGE_PART: "{part} {number}",
    Msg.CHANGE_PART_ADDED: "{part} {number} (new)",
    Msg.CHANGE_PART_REMOVED: "{part} {number} (removed)",
    Msg.CHANGE_CONTINUED: "{title}, continued",
    Msg.CHANGE_LEGEND: "~~Struck-through~~ words are removed, __underlined__ words added.",
    Msg.CHANGE_NOT_SHOWN: "Not shown here",
    Msg.CHANGE_IN_FILE: (
        "{items} of this change did not fit in this message; the whole change, before and after,"
        " is in the attached file."
    ),
    Msg.CHANGE_NOTHING: "No field changes.",
    Msg.CHANGE_TITLE: "Change #{change}: {summary}",
    Msg.CHANGE_BY: "By",
    Msg.CHANGE_WHEN: "When",
    Msg.CREDIT_SUGGESTED: "suggested by {author}, approved by {moderator}",
    Msg.HISTORY_OPEN: "Open a change to see it before and after",
    Msg.HISTORY_CHANGE_GONE: "Change #{change} is not in this server's history.",
    Msg.HISTORY_TARGET_UNKNOWN: (
        "Nothing here is called “{text}”: name an incident, person or party, or give a source key"
        " or chamber slug (type to see suggestions)."
    ),
    # -- the review queue -----------------------------------------------------------------------------
    Msg.REVIEW_FOOTER: "parlbot review",
    Msg.REVIEW_EMPTY: "No suggestions are waiting for review here.",
    Msg.REVIEW_POSITION: "{position} of {total} waiting",
    Msg.REVIEW_ADD_TITLE: "Suggestion #{suggestion}: add {kind} {key}",
    Msg.REVIEW_CHANGE_TITLE: "Suggestion #{suggestion}: change {kind} {key}",
    Msg.SUGGESTED_BY: "Suggested by",
    Msg.WHAT_WOULD_CHANGE: "What would change",
    Msg.NOTHING_ANY_MORE: "Nothing any more.",
    Msg.ITEM: "{count} item",
    Msg.ITEMS: "{count} items",
    Msg.CLEARED: "(cleared)",
    Msg.NOT_A_REVIEWER: "Only this server's parlbot moderators can approve or reject suggestions.",
    Msg.NO_LONGER_WAITING: "{problem} It is no longer waiting for review.",
    Msg.NOT_APPLIED: "Suggestion #{suggestion} was not applied: {problem}",
    Msg.APPROVED: "Approved suggestion #{suggestion} (change #{change}).",
    Msg.REJECTED: "Rejected suggestion #{suggestion}.",
    Msg.APPROVE: "Approve",
    Msg.REJECT: "Reject",
    Msg.REJECT_TITLE: "Reject the suggestion",
    Msg.REJECT_REASON: "Why? (the member who suggested it is told)",
    Msg.FULL_CHANGE: "Full change",
    Msg.CHANGE_BEHIND_BUTTON: (
        "{items} of this change did not fit in this message; press **Full change** for the whole"
        " change, before and after, as a file."
    ),
    # -- import and export ----------------------------------------------------------------------------
    Msg.NOT_TEXT: "{name} is not a text file (UTF-8 JSON expected).",
    Msg.NOT_JSON: "{name} is not valid JSON: {error}.",
    Msg.NOT_A_DATASET: "That is not a parlbot dataset (format parlbot-dataset, version 1): {problems}.",
    Msg.WHOLE_FILE: "the file",
    Msg.TWICE: "{at}: the file has this {kind} twice ({key!r})",
    Msg.DUPLICATE_URL: "{at}.url: another source in the file has the url {url!r}",
    Msg.REFUSED_ONE: "Nothing was imported: {count} entry was rejected.\n{reasons}",
    Msg.REFUSED_MANY: "Nothing was imported: {count} entries were rejected.\n{reasons}",
    Msg.IMPORT_FOOTER: "parlbot import",
    Msg.DRY_RUN: "Import {filename}: dry run",
    Msg.REJECTED_ENTRIES: "Rejected (so nothing can be imported)",
    Msg.FIX_AND_RETRY: "Nothing was written. Fix the rejected entries and run `/import` again.",
    Msg.NOTHING_TO_IMPORT: "Nothing to import: this server already has every entry exactly so.",
    Msg.CONFIRM_IMPORT_ONE: (
        "Import {count} entry into this server? It is all or nothing, and each entry is recorded in"
        " `/history`. This question expires in five minutes."
    ),
    Msg.CONFIRM_IMPORT_MANY: (
        "Import {count} entries into this server? It is all or nothing, and each entry is recorded in"
        " `/history`. This question expires in five minutes."
    ),
    Msg.IMPORTING: "Importing… `[{bar}]` {done}/{total}",
    Msg.IMPORTED: "Imported: {summary}. Each entry is recorded in `/history` as an import.",
    Msg.IMPORT_DONE: "Import done",
    Msg.IMPORT_FAILED: "Nothing was imported (all or nothing): {problem}",
    Msg.IMPORT_CANCELLED: "Import cancelled: nothing was written.",
    Msg.IMPORT_EXPIRED: "This import expired, so nothing was written; run `/import` again.",
    Msg.IMPORT_NOT_YOURS: "Only the moderator who ran this /import can confirm or cancel it.",
    Msg.IMPORT: "Import",
    Msg.FILE_TOO_BIG: (
        "{filename} is {megabytes:.1f} MB; /import takes dataset files up to {limit} MB. Ask the bot's"
        " host to run `parlbot db import FILE --guild {guild}` for a bigger one."
    ),
    Msg.EXPORT_NOTE: (
        "This server's parlbot entries, with the shared entries they refer to ({incidents} incidents,"
        " {people} people, {parties} parties, {sources} sources, {chambers} chambers), in the dataset"
        " format. `/import` takes this file back, here or in another server."
    ),
    Msg.EXPORT_TOO_BIG: (
        "This server's entries are too big to attach here; ask the bot's host to run"
        " `parlbot db export FILE --guild {guild}`."
    ),
}
