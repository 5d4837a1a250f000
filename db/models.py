"""SQLModel tables for parliamentary incidents.

The shapes borrow from Popolo: a person holds a role *at the time* of an incident (a participant row,
not a column on the person), a position's voter may be a person or a party, and chair offices are
recorded with each source's own wording. Every incident, quote, ruling, motion and position cites a
``Source``.

``guild_id`` scopes a row: ``SHARED_GUILD`` (0) is the shipped dataset that every guild reads, any
other value is a guild's own entry. Zero rather than NULL keeps ``UNIQUE(guild_id, slug)`` meaningful
on PostgreSQL, where NULLs never collide. Child rows (quotes, rulings, ...) inherit their incident's
scope.

Top-level rows (chamber, party, person, source, incident, term) are curated (docs/CURATION.md): a guild's row
with a shared row's slug shadows it in that guild, ``removed_at`` removes a row softly (a guild row
with ``removed_at`` set over a shared slug is a *tombstone*), and ``revision`` counts writes so that a
change based on an old revision is refused. ``GuildConfig``, ``AuditEntry`` and ``Suggestion`` record
who may curate, what was changed and what was proposed.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Enum, ForeignKey, Index, UniqueConstraint, false
from sqlmodel import Field, SQLModel

SHARED_GUILD = 0

# Column widths: shared by the models, the dataset validator and (later) Discord modals' max_length.
SLUG_MAX = 64
NAME_MAX = 200
TITLE_MAX = 256
LABEL_MAX = 300
URL_MAX = 500
TEXT_MAX = 4000
LANGUAGE_MAX = 64
QUESTION_MAX = 1000  # a quiz question's prompt
CHOICE_MAX = 80  # a quiz choice: a button's label
LOCALE_MAX = 8  # a reply language: "en", "fr"
COLLECTION_NAME_MAX = 60


class IncidentKind(StrEnum):
    """What an incident is chiefly about (DOMAIN.md's incident vocabulary)."""

    UNANIMOUS_CONSENT = "unanimous_consent"
    UNPARLIAMENTARY_LANGUAGE = "unparliamentary_language"
    REFUSAL_TO_WITHDRAW = "refusal_to_withdraw"
    NAMING = "naming"
    SUSPENSION = "suspension"
    DISORDER = "disorder"
    MACE = "mace"
    POINT_OF_ORDER = "point_of_order"
    PRIVILEGE = "privilege"
    SPEAKERS_RULING = "speakers_ruling"
    SITTING_SUSPENDED = "sitting_suspended"


class Procedure(StrEnum):
    """How a motion was brought (Popolo ``requirement``/classification, simplified)."""

    UNANIMOUS_CONSENT = "unanimous_consent"
    LEAVE = "leave"
    SUSPENSION_OF_STANDING_ORDERS = "suspension_of_standing_orders"
    CLOSURE = "closure"
    ORDER_OF_THE_HOUSE = "order_of_the_house"
    ORDINARY = "ordinary"


class MotionResult(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    NOT_MOVED = "not_moved"
    WITHDRAWN = "withdrawn"
    DEFERRED = "deferred"
    UNKNOWN = "unknown"


class Stance(StrEnum):
    """A position on a motion; consent/object are for unanimous-consent requests."""

    YES = "yes"
    NO = "no"
    ABSTAIN = "abstain"
    ABSENT = "absent"
    PAIRED = "paired"
    CONSENT = "consent"
    OBJECT = "object"
    UNKNOWN = "unknown"


class Attribution(StrEnum):
    """How a position is known (DOMAIN.md: Hansard rarely names who said "No")."""

    RECORDED = "recorded"
    SELF_ACKNOWLEDGED = "self_acknowledged"
    NEWS_REPORTED = "news_reported"
    INFERRED = "inferred"


class Delivery(StrEnum):
    """How a quote's wording reached us."""

    VERBATIM = "verbatim"  # the speaker's words as the source prints them
    TRANSLATED = "translated"  # the publisher's rendering of words said in another language
    REPORTED = "reported"  # wording that differs between outlets, or an unofficial transcript


class RulingOutcome(StrEnum):
    """DOMAIN.md's ruling outcomes."""

    CALLED_TO_ORDER = "called_to_order"
    WARNED = "warned"
    ASKED_TO_WITHDRAW = "asked_to_withdraw"
    WORDS_WITHDRAWN = "words_withdrawn"
    APOLOGY_ACCEPTED = "apology_accepted"
    ORDERED_TO_LEAVE_SITTING = "ordered_to_leave_sitting"
    ORDERED_TO_LEAVE_PERIOD = "ordered_to_leave_period"
    NAMED = "named"
    SUSPENDED_BY_HOUSE = "suspended_by_house"
    PRIVILEGE_FOUND = "privilege_found"
    PRIVILEGE_NOT_FOUND = "privilege_not_found"
    SITTING_SUSPENDED = "sitting_suspended"
    NO_SANCTION = "no_sanction"


VOCABULARY_MAX = 32


def _vocabulary(enum: type[StrEnum]) -> Column[str]:
    """A vocabulary column storing the member's value as plain text.

    Plain VARCHAR (no native PostgreSQL ENUM, no CHECK) keeps raw SQL readable and lets a vocabulary
    grow without a migration; SQLAlchemy still validates values on the way in and out.
    """
    return Column(
        Enum(
            enum,
            native_enum=False,
            create_constraint=False,
            length=VOCABULARY_MAX,
            values_callable=lambda members: [m.value for m in members],
            validate_strings=True,
        ),
        nullable=False,
    )


def _guild_column() -> Column[int]:
    return Column(BigInteger, nullable=False, index=True, default=SHARED_GUILD, server_default="0")


def _json_list() -> Column[list[str]]:
    return Column(JSON, nullable=False, default=list)


def _discord_id(*, nullable: bool = False) -> Column[int]:
    """A Discord snowflake (64 bits)."""
    return Column(BigInteger, nullable=nullable)


def _json_state() -> Column[dict[str, Any]]:
    """An entry's state (``bot.curation.EntryState``) as JSON, or NULL for "no row of its own"."""
    return Column(JSON, nullable=True)


class Chamber(SQLModel, table=True):
    """A legislative chamber (Popolo Organization, classification "chamber")."""

    __table_args__ = (UniqueConstraint("guild_id", "slug"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(default=SHARED_GUILD, sa_column=_guild_column())
    slug: str = Field(max_length=SLUG_MAX)
    name: str = Field(max_length=NAME_MAX)
    name_fr: str | None = Field(default=None, max_length=NAME_MAX)
    legislature: str = Field(max_length=NAME_MAX)
    country: str = Field(max_length=NAME_MAX)
    removed_at: dt.datetime | None = None
    revision: int = Field(default=1, sa_column_kwargs={"server_default": "1"})


class Party(SQLModel, table=True):
    """A political party with both languages' names and abbreviations (openparliament-style)."""

    __table_args__ = (UniqueConstraint("guild_id", "slug"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(default=SHARED_GUILD, sa_column=_guild_column())
    slug: str = Field(max_length=SLUG_MAX)
    name: str = Field(max_length=NAME_MAX)
    name_fr: str | None = Field(default=None, max_length=NAME_MAX)
    abbreviation: str | None = Field(default=None, max_length=32)
    abbreviation_fr: str | None = Field(default=None, max_length=32)
    country: str = Field(max_length=NAME_MAX)
    aliases: list[str] = Field(default_factory=list, sa_column=_json_list())
    removed_at: dt.datetime | None = None
    revision: int = Field(default=1, sa_column_kwargs={"server_default": "1"})


class Person(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("guild_id", "slug"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(default=SHARED_GUILD, sa_column=_guild_column())
    slug: str = Field(max_length=SLUG_MAX)
    name: str = Field(max_length=NAME_MAX)
    aliases: list[str] = Field(default_factory=list, sa_column=_json_list())
    party_id: int | None = Field(default=None, foreign_key="party.id", index=True)
    removed_at: dt.datetime | None = None
    revision: int = Field(default=1, sa_column_kwargs={"server_default": "1"})


class Source(SQLModel, table=True):
    """A page the dataset cites. ``url`` is None only for a stored excerpt whose address is unknown, and
    ``publisher`` only when the stored copy does not name one; ``note`` is provenance for moderators
    and ``/sources``, never part of how a member sees the source."""

    __table_args__ = (UniqueConstraint("guild_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(default=SHARED_GUILD, sa_column=_guild_column())
    key: str = Field(max_length=SLUG_MAX)
    url: str | None = Field(default=None, max_length=URL_MAX)
    title: str | None = Field(default=None, max_length=LABEL_MAX)
    publisher: str | None = Field(default=None, max_length=NAME_MAX)
    published: dt.date | None = None
    licence: str | None = Field(default=None, max_length=NAME_MAX)
    excerpt: str | None = Field(default=None, max_length=NAME_MAX)
    note: str | None = Field(default=None, max_length=TEXT_MAX)
    removed_at: dt.datetime | None = None
    revision: int = Field(default=1, sa_column_kwargs={"server_default": "1"})


class Incident(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("guild_id", "slug"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(default=SHARED_GUILD, sa_column=_guild_column())
    slug: str = Field(max_length=SLUG_MAX)
    title: str = Field(max_length=TITLE_MAX)
    date: dt.date
    chamber_id: int = Field(foreign_key="chamber.id", index=True)
    kind: IncidentKind = Field(sa_column=_vocabulary(IncidentKind))
    summary: str = Field(max_length=TEXT_MAX)
    notes: str | None = Field(default=None, max_length=TEXT_MAX)
    aliases: list[str] = Field(default_factory=list, sa_column=_json_list())
    removed_at: dt.datetime | None = None
    revision: int = Field(default=1, sa_column_kwargs={"server_default": "1"})
    # French: our own words in French (docs/DATASET.md); None where only the English exists.
    title_fr: str | None = Field(default=None, max_length=TITLE_MAX)
    summary_fr: str | None = Field(default=None, max_length=TEXT_MAX)


class IncidentSource(SQLModel, table=True):
    """The sources an incident cites, in order; ``rank`` 0 is the main page."""

    incident_id: int = Field(foreign_key="incident.id", primary_key=True)
    source_id: int = Field(foreign_key="source.id", primary_key=True, index=True)
    rank: int = 0


class Participant(SQLModel, table=True):
    """A person's part in an incident, with role and party as the source words them at the time."""

    id: int | None = Field(default=None, primary_key=True)
    incident_id: int = Field(foreign_key="incident.id", index=True)
    person_id: int = Field(foreign_key="person.id", index=True)
    party_id: int | None = Field(default=None, foreign_key="party.id", index=True)
    role: str = Field(max_length=LABEL_MAX)
    party_label: str | None = Field(default=None, max_length=LABEL_MAX)
    rank: int = 0


class Motion(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    incident_id: int = Field(foreign_key="incident.id", index=True)
    text: str = Field(max_length=TEXT_MAX)
    moved_by_id: int | None = Field(default=None, foreign_key="person.id", index=True)
    moved_by_label: str | None = Field(default=None, max_length=LABEL_MAX)
    procedure: Procedure = Field(sa_column=_vocabulary(Procedure))
    result: MotionResult = Field(sa_column=_vocabulary(MotionResult))
    result_detail: str | None = Field(default=None, max_length=TEXT_MAX)
    source_id: int = Field(foreign_key="source.id", index=True)


class Position(SQLModel, table=True):
    """Who said yes/no/objected to a motion: a person, a party, or only a description of them."""

    id: int | None = Field(default=None, primary_key=True)
    motion_id: int = Field(foreign_key="motion.id", index=True)
    person_id: int | None = Field(default=None, foreign_key="person.id", index=True)
    party_id: int | None = Field(default=None, foreign_key="party.id", index=True)
    label: str = Field(max_length=LABEL_MAX)
    stance: Stance = Field(sa_column=_vocabulary(Stance))
    attribution: Attribution = Field(sa_column=_vocabulary(Attribution))
    detail: str | None = Field(default=None, max_length=TEXT_MAX)
    source_id: int = Field(foreign_key="source.id", index=True)


class Quote(SQLModel, table=True):
    """Words said in an incident. ``text`` is English (a publisher's rendering when ``delivery`` is
    translated); ``original_text`` is the words as said, in ``original_language``, where a source prints
    them. ``context`` is for members; ``note`` (how the wording reached us) is for moderators and
    ``/sources``. ``speaker_inferred`` marks a speaker the source does not name beside the words (the
    note says how they are known)."""

    id: int | None = Field(default=None, primary_key=True)
    incident_id: int = Field(foreign_key="incident.id", index=True)
    person_id: int | None = Field(default=None, foreign_key="person.id", index=True)
    speaker_label: str = Field(max_length=LABEL_MAX)
    text: str = Field(max_length=TEXT_MAX)
    said_to: str | None = Field(default=None, max_length=LABEL_MAX)
    context: str | None = Field(default=None, max_length=TEXT_MAX)
    delivery: Delivery = Field(default=Delivery.VERBATIM, sa_column=_vocabulary(Delivery))
    original_text: str | None = Field(default=None, max_length=TEXT_MAX)
    original_language: str | None = Field(default=None, max_length=LANGUAGE_MAX)
    note: str | None = Field(default=None, max_length=TEXT_MAX)
    speaker_inferred: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    source_id: int = Field(foreign_key="source.id", index=True)
    rank: int = 0


class Ruling(SQLModel, table=True):
    """A chair's ruling: who ruled (``ruled_by``), on whom (``subject``, a person or only a label) and
    with what sanction (``outcome``)."""

    id: int | None = Field(default=None, primary_key=True)
    incident_id: int = Field(foreign_key="incident.id", index=True)
    ruled_by_id: int | None = Field(default=None, foreign_key="person.id", index=True)
    ruled_by_label: str = Field(max_length=LABEL_MAX)
    role: str | None = Field(default=None, max_length=LABEL_MAX)
    subject_id: int | None = Field(default=None, foreign_key="person.id", index=True)
    subject_label: str | None = Field(default=None, max_length=LABEL_MAX)
    outcome: RulingOutcome = Field(sa_column=_vocabulary(RulingOutcome))
    summary: str = Field(max_length=TEXT_MAX)
    source_id: int = Field(foreign_key="source.id", index=True)
    rank: int = 0
    summary_fr: str | None = Field(default=None, max_length=TEXT_MAX)  # ``summary`` in our own French


class DatasetVersion(SQLModel, table=True):
    """Which version of the shipped dataset a database was seeded with (one row per seeded scope)."""

    guild_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    version: str = Field(max_length=64)
    loaded_at: dt.datetime


class EntityKind(StrEnum):
    """The kinds of top-level dataset entry that curation writes, one entry at a time."""

    INCIDENT = "incident"
    PERSON = "person"
    PARTY = "party"
    SOURCE = "source"
    CHAMBER = "chamber"
    QUESTION = "question"  # a guild's own quiz question (bot.quiz)
    TERM = "term"  # a glossary term (bot.lessons)


class AuditAction(StrEnum):
    ADD = "add"
    EDIT = "edit"
    REMOVE = "remove"
    RESTORE = "restore"
    UNDO = "undo"
    IMPORT = "import"
    APPROVE = "approve"


class SuggestionStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    STALE = "stale"  # the entry changed after the suggestion was made


class GuildConfig(SQLModel, table=True):
    """A guild's curation settings; without a row, Manage Server is the moderator right."""

    guild_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    moderator_role_id: int | None = Field(default=None, sa_column=_discord_id(nullable=True))
    updated_by: int = Field(sa_column=_discord_id())
    updated_at: dt.datetime
    # Classrooms (bot.classroom.settings): a separate teacher role (None: the moderators teach),
    # whether lookups answer privately, and the language for members whose locale is neither en nor fr.
    teacher_role_id: int | None = Field(default=None, sa_column=_discord_id(nullable=True))
    ephemeral: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    language: str | None = Field(default=None, max_length=LOCALE_MAX)


class Suggestion(SQLModel, table=True):
    """A change proposed by a member, waiting for a moderator; ``base`` is the state it was made on."""

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False, index=True))
    author_id: int = Field(sa_column=_discord_id())
    created_at: dt.datetime
    kind: EntityKind = Field(sa_column=_vocabulary(EntityKind))
    key: str = Field(max_length=SLUG_MAX)
    action: AuditAction = Field(sa_column=_vocabulary(AuditAction))
    summary: str = Field(max_length=LABEL_MAX)
    base: dict[str, Any] | None = Field(default=None, sa_column=_json_state())
    proposal: dict[str, Any] | None = Field(default=None, sa_column=_json_state())
    status: SuggestionStatus = Field(
        default=SuggestionStatus.PENDING, sa_column=_vocabulary(SuggestionStatus)
    )
    reviewer_id: int | None = Field(default=None, sa_column=_discord_id(nullable=True))
    decided_at: dt.datetime | None = None
    reason: str | None = Field(default=None, max_length=LABEL_MAX)
    notified_at: dt.datetime | None = None


class AuditEntry(SQLModel, table=True):
    """One write to one entry in one guild, with the entry's state before and after it."""

    # A member's latest changes in a guild (a bare /undo) without reading the guild's whole log.
    __table_args__ = (Index("ix_auditentry_guild_actor", "guild_id", "actor_id", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False, index=True))
    actor_id: int = Field(sa_column=_discord_id())
    created_at: dt.datetime
    action: AuditAction = Field(sa_column=_vocabulary(AuditAction))
    kind: EntityKind = Field(sa_column=_vocabulary(EntityKind))
    key: str = Field(max_length=SLUG_MAX)
    summary: str = Field(max_length=LABEL_MAX)
    before: dict[str, Any] | None = Field(default=None, sa_column=_json_state())
    after: dict[str, Any] | None = Field(default=None, sa_column=_json_state())
    undoes_id: int | None = Field(default=None, sa_column=Column(ForeignKey("auditentry.id"), nullable=True))
    undone_by_id: int | None = Field(
        default=None, sa_column=Column(ForeignKey("auditentry.id"), nullable=True)
    )
    suggestion_id: int | None = Field(default=None, foreign_key="suggestion.id")


# -- classrooms (bot.classroom) -------------------------------------------------------------------------


class ChannelConfig(SQLModel, table=True):
    """A channel's own setting, overriding its guild's: whether lookups answer privately there."""

    guild_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    channel_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    ephemeral: bool
    updated_by: int = Field(sa_column=_discord_id())
    updated_at: dt.datetime


class Collection(SQLModel, table=True):
    """A teacher's named set of incidents (a unit of the course), one guild's. ``key`` is the name
    folded (``bot.classroom.collections.name_key``), so names are unique per guild whatever their case."""

    __table_args__ = (UniqueConstraint("guild_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False, index=True))
    name: str = Field(max_length=COLLECTION_NAME_MAX)
    key: str = Field(max_length=COLLECTION_NAME_MAX)
    created_by: int = Field(sa_column=_discord_id())
    created_at: dt.datetime


class CollectionItem(SQLModel, table=True):
    """An incident in a collection, by slug: read in the guild's view, so it is the guild's own copy
    once the guild edits a shared incident, and absent while the incident is removed there."""

    collection_id: int = Field(
        sa_column=Column(ForeignKey("collection.id", ondelete="CASCADE"), primary_key=True)
    )
    incident_slug: str = Field(max_length=SLUG_MAX, primary_key=True)
    rank: int = 0
    added_by: int = Field(sa_column=_discord_id())
    added_at: dt.datetime


# -- quizzes (bot.quiz) -------------------------------------------------------------------------------


class QuizStatus(StrEnum):
    OPEN = "open"
    ENDED = "ended"


def _json_object() -> Column[dict[str, Any]]:
    return Column(JSON, nullable=False, default=dict)


class Quiz(SQLModel, table=True):
    """A quiz in one channel. ``live_channel_id`` is the channel while the quiz is open and NULL once it
    ends: its unique constraint is what keeps a channel to one open quiz (NULLs never collide)."""

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False, index=True))
    channel_id: int = Field(sa_column=_discord_id())
    live_channel_id: int | None = Field(
        default=None, sa_column=Column(BigInteger, nullable=True, unique=True)
    )
    started_by: int = Field(sa_column=_discord_id())
    status: QuizStatus = Field(default=QuizStatus.OPEN, sa_column=_vocabulary(QuizStatus))
    settings: dict[str, Any] = Field(default_factory=dict, sa_column=_json_object())
    current: int = 0  # the number of the question asked last (0: none yet)
    created_at: dt.datetime
    ended_at: dt.datetime | None = None


class QuizQuestion(SQLModel, table=True):
    """One question of a quiz, written when the quiz starts; ``opened_at`` is set when it is asked and
    ``closed_at`` when it closes (and is scored, once)."""

    __table_args__ = (UniqueConstraint("quiz_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    quiz_id: int = Field(foreign_key="quiz.id", index=True)
    number: int
    kind: str = Field(max_length=VOCABULARY_MAX)
    prompt: str = Field(max_length=TEXT_MAX)
    choices: list[str] = Field(default_factory=list, sa_column=_json_list())
    answer: int
    source: str = Field(max_length=TEXT_MAX)
    message_id: int | None = Field(default=None, sa_column=_discord_id(nullable=True))
    opened_at: dt.datetime | None = None
    closes_at: dt.datetime | None = None
    closed_at: dt.datetime | None = None


class QuizAnswer(SQLModel, table=True):
    """A member's answer to a question: one per member, changed in place until the question closes."""

    __table_args__ = (UniqueConstraint("question_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    question_id: int = Field(foreign_key="quizquestion.id", index=True)
    user_id: int = Field(sa_column=_discord_id())
    display_name: str = Field(max_length=NAME_MAX)
    choice: int
    answered_at: dt.datetime


class QuizScore(SQLModel, table=True):
    """A member's running quiz totals in a guild."""

    guild_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    user_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    display_name: str = Field(max_length=NAME_MAX)
    points: int = 0
    answered: int = 0


class CustomQuestion(SQLModel, table=True):
    """A quiz question a teacher wrote for their guild (``/quiz add``): a curated entry like the others
    (``EntityKind.QUESTION``), audited and undoable, joining the questions generated for that guild."""

    __table_args__ = (UniqueConstraint("guild_id", "slug"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(default=SHARED_GUILD, sa_column=_guild_column())
    slug: str = Field(max_length=SLUG_MAX)
    prompt: str = Field(max_length=QUESTION_MAX)
    answer: str = Field(max_length=CHOICE_MAX)
    wrong: list[str] = Field(default_factory=list, sa_column=_json_list())
    source_id: int = Field(foreign_key="source.id", index=True)
    removed_at: dt.datetime | None = None
    revision: int = Field(default=1, sa_column_kwargs={"server_default": "1"})


# -- glossary (bot.lessons) -------------------------------------------------------------------------------


class Term(SQLModel, table=True):
    """A procedural term of the glossary ("naming"), defined in our own words from the source it cites.

    ``incidents`` holds the slugs of the incidents it is linked with, resolved in the reader's guild
    view when read (like any slug), so a guild's copy of an incident is the one its terms link to and a
    removed incident simply drops out of what members see.
    """

    __table_args__ = (UniqueConstraint("guild_id", "slug"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(default=SHARED_GUILD, sa_column=_guild_column())
    slug: str = Field(max_length=SLUG_MAX)
    name: str = Field(max_length=NAME_MAX)
    name_fr: str | None = Field(default=None, max_length=NAME_MAX)
    definition: str = Field(max_length=TEXT_MAX)
    definition_fr: str | None = Field(default=None, max_length=TEXT_MAX)
    aliases: list[str] = Field(default_factory=list, sa_column=_json_list())
    source_id: int = Field(foreign_key="source.id", index=True)
    incidents: list[str] = Field(default_factory=list, sa_column=_json_list())
    removed_at: dt.datetime | None = None
    revision: int = Field(default=1, sa_column_kwargs={"server_default": "1"})


# -- the change log (bot.change_feed) ---------------------------------------------------------------------


class EntryChange(SQLModel, table=True):
    """One write to one curated entry, recorded in the write's own transaction.

    ``id`` is the change counter: every process serving the database re-indexes the entries of the
    changes past the last one it saw (told by PostgreSQL ``NOTIFY``, and after each reconnect).
    Rows older than a day are pruned.
    """

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    kind: EntityKind = Field(sa_column=_vocabulary(EntityKind))
    key: str = Field(max_length=SLUG_MAX)
    at: dt.datetime = Field(index=True)
