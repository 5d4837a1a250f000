"""Curation: how moderators change the database (docs/CURATION.md). No Discord here.

Every write replaces, adds or removes one top-level dataset entry (``db.dataset.Entry``) in one
guild's scope, through ``apply`` (and ``remove``/``restore``/``undo``, which share its writing code).
Changing a shared entry writes a guild copy with the same slug that shadows it in that guild only;
removing one writes a removed guild copy (a tombstone). Each write bumps the row's ``revision`` and
records an ``AuditEntry`` holding the guild's own state of the entry before and after.

The state of an entry in a guild (``EntryState``) is ``{"entry": <dataset entry JSON>, "removed":
bool}``, or ``None`` when the guild has no row of its own for it.

Every function takes the session keyword-only and never commits: ``bot.library.Library`` runs one
use case per transaction, commits, then updates the search index. Errors are ``bot.errors``'
``InvalidInput``, ``NotFound``, ``Conflict`` and ``Forbidden``, each with a message for the person who
asked. Typical use, adding a quote::

    apply(session, actor=Actor(guild_id, user_id), kind=EntityKind.INCIDENT, key="singh-2020",
          change=existing(IncidentEntry, lambda entry: entries.add_quote(entry, quote_fields)),
          summary="added a quote by Jagmeet Singh")
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar, cast

from sqlalchemy import ColumnElement, CursorResult, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel, col, func, select
from sqlmodel.sql.expression import SelectOfScalar

from bot import inputs
from bot.curation.entries import invalid, validated
from bot.curation.problems import people_names, reference
from bot.errors import Conflict, Forbidden, InvalidInput, NotFound
from bot.limits import clip
from bot.messages.catalogue import Msg, say
from db.cleaning import is_id
from db.dataset.reader import StoredRow, read_stored, stored_entry
from db.dataset.rows import EntryRow, GuildView, own_row, removed_rows, slug_of, slug_taken
from db.dataset.schema import (
    ChamberEntry,
    Entry,
    IncidentEntry,
    PartyEntry,
    PersonEntry,
    QuestionEntry,
    SourceEntry,
    TermEntry,
    entry_problems,
    referenced,
)
from db.dataset.writer import KindCounts, ScopeWriter, delete_row
from db.models import (
    LABEL_MAX,
    SHARED_GUILD,
    AuditAction,
    AuditEntry,
    Chamber,
    CustomQuestion,
    EntityKind,
    GuildConfig,
    Incident,
    Party,
    Person,
    Source,
    Suggestion,
    SuggestionStatus,
    Term,
)

__all__ = [
    "EVERY_KIND",
    "HISTORY_MAX",
    "Actor",
    "AuditAction",
    "AuditEntry",
    "Change",
    "EntityKind",
    "EntryState",
    "Suggestion",
    "apply",
    "approve",
    "current_revision",
    "current_state",
    "entry_state",
    "existing",
    "history",
    "kind_name",
    "mark_notified",
    "mark_stale",
    "pending",
    "reject",
    "remove",
    "restore",
    "set_moderator_role",
    "status_name",
    "suggest",
    "undo",
    "unnotified_outcomes",
    "visible_entry",
]

HISTORY_MAX = 50

TABLES: dict[EntityKind, type[EntryRow]] = {
    EntityKind.INCIDENT: Incident,
    EntityKind.PERSON: Person,
    EntityKind.PARTY: Party,
    EntityKind.SOURCE: Source,
    EntityKind.CHAMBER: Chamber,
    EntityKind.QUESTION: CustomQuestion,
    EntityKind.TERM: Term,
}
MODELS: dict[EntityKind, type[Entry]] = {
    EntityKind.INCIDENT: IncidentEntry,
    EntityKind.PERSON: PersonEntry,
    EntityKind.PARTY: PartyEntry,
    EntityKind.SOURCE: SourceEntry,
    EntityKind.CHAMBER: ChamberEntry,
    EntityKind.QUESTION: QuestionEntry,
    EntityKind.TERM: TermEntry,
}
# What each kind of entry is called, alone and with its indefinite article.
KIND_NAMES: dict[EntityKind, tuple[Msg, Msg]] = {
    EntityKind.INCIDENT: (Msg.KIND_INCIDENT, Msg.AN_INCIDENT),
    EntityKind.PERSON: (Msg.KIND_PERSON, Msg.A_PERSON),
    EntityKind.PARTY: (Msg.KIND_PARTY, Msg.A_PARTY),
    EntityKind.SOURCE: (Msg.KIND_SOURCE, Msg.A_SOURCE),
    EntityKind.CHAMBER: (Msg.KIND_CHAMBER, Msg.A_CHAMBER),
    EntityKind.QUESTION: (Msg.KIND_QUESTION, Msg.A_QUESTION),
    EntityKind.TERM: (Msg.KIND_TERM, Msg.A_TERM),
}
STATUS_NAMES: dict[SuggestionStatus, Msg] = {
    SuggestionStatus.PENDING: Msg.STATUS_PENDING,
    SuggestionStatus.APPROVED: Msg.STATUS_APPROVED,
    SuggestionStatus.REJECTED: Msg.STATUS_REJECTED,
    SuggestionStatus.STALE: Msg.STATUS_STALE,
}


def kind_name(kind: EntityKind, *, article: bool = False, capital: bool = False) -> str:
    """``kind`` in words: "incident", with ``article`` "an incident", with ``capital`` "Incident"."""
    name = say(KIND_NAMES[kind][1 if article else 0])
    return name.capitalize() if capital else name


def status_name(status: SuggestionStatus) -> str:
    """A suggestion's status in words ("approved")."""
    return say(STATUS_NAMES[status])


class EntryState(TypedDict):
    """A guild's own row of an entry: its dataset JSON and whether it is removed."""

    entry: dict[str, Any]
    removed: bool


@dataclass(frozen=True, slots=True)
class Actor:
    """Who makes a change, and in which guild (the scope every write lands in)."""

    guild_id: int
    user_id: int


Change = Callable[[Entry | None], Entry]
"""Takes the entry the guild currently sees (None when there is none) and returns the new entry."""

_EntryT = TypeVar(
    "_EntryT", ChamberEntry, PartyEntry, PersonEntry, SourceEntry, IncidentEntry, QuestionEntry, TermEntry
)


def existing(model: type[_EntryT], change: Callable[[_EntryT], Entry]) -> Change:
    """A ``Change`` for an entry that must already exist, e.g. ``existing(IncidentEntry, add_quote...)``."""

    def run(entry: Entry | None) -> Entry:
        if not isinstance(entry, model):
            raise NotFound(Msg.ENTRY_MISSING)
        return change(entry)

    return run


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _json(entry: Entry) -> dict[str, Any]:
    return entry.model_dump(mode="json", exclude_none=True)


def entry_state(entry: Entry, *, removed: bool) -> EntryState:
    """The state a guild's own row holding ``entry`` is audited with."""
    return {"entry": _json(entry), "removed": removed}


def entry_cast(entry: Entry | None) -> set[str]:
    """The people an incident entry has taking part (none for any other entry)."""
    return {p.person for p in entry.participants} if isinstance(entry, IncidentEntry) else set()


def cast_of(state: Mapping[str, Any] | None) -> set[str]:
    """The people an incident's audited state (``AuditEntry.before`` or ``after``) has taking part."""
    entry = state["entry"] if state else {}
    return {participant["person"] for participant in entry.get("participants", ())}


def _state(session: Session, row: EntryRow) -> EntryState:
    return entry_state(stored_entry(session, row), removed=row.removed_at is not None)


def _own(
    session: Session, guild_id: int, kind: EntityKind, key: str, *, lock: bool = False
) -> EntryRow | None:
    return own_row(session, TABLES[kind], key, guild_id=guild_id, lock=lock)


# -- reading -----------------------------------------------------------------------------------------


def current_state(session: Session, *, guild_id: int, kind: EntityKind, key: str) -> EntryState | None:
    """The guild's own state of the entry, or None when it has no row of its own (it sees the shared one)."""
    row = _own(session, guild_id, kind, key)
    return None if row is None else _state(session, row)


def current_revision(session: Session, *, guild_id: int, kind: EntityKind, key: str) -> int:
    """The revision of the guild's own row (0 when it has none); pass it back as ``expected_revision``."""
    row = _own(session, guild_id, kind, key)
    return 0 if row is None else row.revision


def visible_entry(session: Session, *, guild_id: int, kind: EntityKind, key: str) -> Entry | None:
    """The entry the guild sees: its own row first, else the shared one; None when removed or absent."""
    row = _own(session, guild_id, kind, key)
    if row is None and guild_id != SHARED_GUILD:
        row = _own(session, SHARED_GUILD, kind, key)
    if row is None or row.removed_at is not None:
        return None
    return stored_entry(session, row)


@dataclass(frozen=True, slots=True)
class Removed:
    """An entry removed in a guild (its own, or a tombstone over a shared one), which ``restore`` brings
    back."""

    kind: EntityKind
    key: str
    removed_at: dt.datetime


def removed(session: Session, *, guild_id: int) -> list[Removed]:
    """The guild's removed entries, most recently removed first."""
    found = [
        Removed(kind, slug_of(row), row.removed_at)
        for kind, table in TABLES.items()
        for row in removed_rows(session, table, guild_id)
        if row.removed_at is not None
    ]
    return sorted(found, key=lambda entry: (entry.removed_at, entry.kind, entry.key), reverse=True)


def history(
    session: Session,
    *,
    guild_id: int,
    kind: EntityKind | None = None,
    key: str | None = None,
    limit: int = HISTORY_MAX,
) -> list[AuditEntry]:
    """The guild's audit entries, newest first; ``kind`` and ``key`` narrow them to one kind or entry."""
    statement = select(AuditEntry).where(col(AuditEntry.guild_id) == guild_id)
    if kind is not None:
        statement = statement.where(col(AuditEntry.kind) == kind)
    if key is not None:
        statement = statement.where(col(AuditEntry.key) == key)
    return list(session.exec(statement.order_by(col(AuditEntry.id).desc()).limit(limit)))


# -- writing -----------------------------------------------------------------------------------------


def _lock(
    session: Session, actor: Actor, kind: EntityKind, key: str, expected: int | None
) -> EntryRow | None:
    """The guild's own row (on PostgreSQL locked for the rest of the transaction), after checking it may
    be written and that it is still at the ``expected`` revision (0: no row), if one is given."""
    if actor.guild_id == SHARED_GUILD:
        raise Forbidden(Msg.SHARED_READ_ONLY)
    row = _own(session, actor.guild_id, kind, key, lock=True)
    revision = 0 if row is None else row.revision
    if expected is not None and revision != expected:
        raise Conflict(Msg.CHANGED_MEANWHILE, kind=kind_name(kind), key=key)
    return row


def _overtaken(kind: EntityKind, key: str, action: AuditAction) -> Conflict:
    """The answer to a write another one overtook: it added the slug, or changed the entry, first."""
    if action is AuditAction.ADD:
        return Conflict(Msg.ADDED_MEANWHILE, a_kind=kind_name(kind, article=True), key=key)
    return Conflict(Msg.CHANGED_MEANWHILE, kind=kind_name(kind), key=key)


@dataclass(frozen=True, slots=True)
class _Own:
    """The guild's own row of the entry a write changes, as read once for the whole write (None: it has
    none)."""

    stored: StoredRow | None

    @classmethod
    def read(cls, session: Session, row: EntryRow | None) -> _Own:
        return cls(None if row is None else read_stored(session, row))

    @property
    def row(self) -> EntryRow | None:
        return None if self.stored is None else self.stored.row

    @property
    def state(self) -> EntryState | None:
        """The state the row is audited with (None: no row of its own)."""
        if self.stored is None:
            return None
        return entry_state(self.stored.entry, removed=self.stored.row.removed_at is not None)

    def visible(self, session: Session, kind: EntityKind, key: str) -> Entry | None:
        """``visible_entry`` for the writing guild: its own entry unless removed, else the shared one."""
        if self.stored is not None:
            return None if self.stored.row.removed_at is not None else self.stored.entry
        return visible_entry(session, guild_id=SHARED_GUILD, kind=kind, key=key)


def _claimed(
    session: Session, actor: Actor, kind: EntityKind, key: str, expected: int | None, action: AuditAction
) -> _Own:
    """``_lock``, then the row's revision bumped if it is still the one just read: the write's lock on
    SQLite too, taken before the entry it changes is read (a writer that got there first makes this one
    wait, then fail with ``Conflict``; on PostgreSQL ``_lock`` waited already). Then the row's entry."""
    row = _lock(session, actor, kind, key, expected)
    if row is None:
        return _Own.read(session, None)  # a first row: the slug's unique constraint guards its insert
    table = type(row)
    claimed = session.execute(
        update(table)
        .where(col(table.id) == row.id, col(table.revision) == row.revision)
        .values(revision=row.revision + 1)
    )
    if cast("CursorResult[Any]", claimed).rowcount != 1:
        raise _overtaken(kind, key, action)
    return _Own.read(session, row)


def _changed(kind: EntityKind, key: str, current: Entry | None, change: Change, action: AuditAction) -> Entry:
    """The new entry ``change`` makes of ``current``, valid in itself (references are checked on write)."""
    if action is AuditAction.ADD and current is not None:
        raise InvalidInput(Msg.ALREADY_EXISTS, a_kind=kind_name(kind, article=True), key=key)
    if action is AuditAction.EDIT and current is None:
        raise NotFound(Msg.NOTHING_TO_EDIT, kind=kind_name(kind), key=key)
    # A change built with model_copy is not validated yet, so its dump may hold raw values.
    within = current if isinstance(current, IncidentEntry) else None
    entry = validated(MODELS[kind], change(current).model_dump(warnings=False), within=within)
    if slug_of(entry) != key:
        raise InvalidInput(Msg.SLUG_FIXED, kind=kind_name(kind), key=key)
    if entry == current:
        raise InvalidInput(Msg.UNCHANGED, kind=kind_name(kind), key=key)
    return entry


def _check_references(session: Session, view: GuildView, entry: Entry) -> None:
    """Refuse ``entry`` if a reference of it does not resolve in the guild's view. Only the rows it
    refers to are read, unless one is missing: then every slug, for the "did you mean" of each."""
    if not entry_problems(entry, view.known(referenced(entry))):
        return
    problems = entry_problems(entry, view.references())
    names = people_names(session, view.guild_id)
    raise invalid([reference(problem, entry, names) for problem in problems])


def _referred_to(session: Session, row: EntryRow) -> bool:
    """Whether any row (a guild incident citing a guild person, say) points at ``row``."""
    table = SQLModel.metadata.tables[str(type(row).__tablename__)]
    for other in SQLModel.metadata.tables.values():
        for key in other.foreign_keys:
            if key.column.table is table and other is not table:
                count = session.exec(
                    select(func.count()).select_from(other).where(key.parent == row.id)
                ).one()
                if count:
                    return True
    return False


def _rewrite(
    session: Session, guild_id: int, kind: EntityKind, own: _Own, entry: Entry, action: AuditAction
) -> EntryRow:
    """Write ``entry`` as the guild's own row (``own``'s, claimed already, or a new one: revision 1).

    A new row another writer added first (its copy of a shared entry, or the same new slug) makes this
    write a ``Conflict``, whether this one finds it or inserts beside it; the caller rolls back.
    """
    writer = ScopeWriter(session, guild_id)
    _check_references(session, writer.view, entry)
    counts = KindCounts()
    try:
        written = writer.write(entry, counts, over=own.stored)
    except IntegrityError as error:
        if not slug_taken(error):
            raise
        raise _overtaken(kind, slug_of(entry), action) from None
    if own.stored is None and not counts.added:
        raise _overtaken(kind, slug_of(entry), action)
    return written


def _write(
    session: Session,
    *,
    actor: Actor,
    kind: EntityKind,
    key: str,
    own: _Own,
    state: EntryState | None,
    action: AuditAction,
    summary: str,
    suggestion_id: int | None = None,
    undoes_id: int | None = None,
) -> AuditEntry:
    """Make the guild's own row of the entry (``own``, as claimed) hold ``state`` (None: no row of its
    own), and audit it.

    The row was read once, before: a rewrite writes only what differs from it, and the state audited
    after is the entry written, which its rows read back as (tests/test_write_reads.py)."""
    row, before = own.row, own.state
    after: EntryState | None = None
    if state is not None:
        entry = MODELS[kind].model_validate(state["entry"])
        stored = own.stored
        row = (
            stored.row
            if stored is not None and stored.entry == entry
            else _rewrite(session, actor.guild_id, kind, own, entry, action)
        )
        row.removed_at = (row.removed_at or _now()) if state["removed"] else None
        session.flush()
        after = entry_state(entry, removed=state["removed"])
    elif row is not None:
        if not isinstance(row, Incident) and _referred_to(session, row):
            raise Conflict(Msg.STILL_REFERRED_TO, kind=kind_name(kind), key=key)
        delete_row(session, row)
    audit = AuditEntry(
        guild_id=actor.guild_id,
        actor_id=actor.user_id,
        created_at=_now(),
        action=action,
        kind=kind,
        key=key,
        summary=clip(summary, LABEL_MAX),
        before=dict(before) if before is not None else None,
        after=dict(after) if after is not None else None,
        suggestion_id=suggestion_id,
        undoes_id=undoes_id,
    )
    session.add(audit)
    session.flush()
    return audit


def apply(
    session: Session,
    *,
    actor: Actor,
    kind: EntityKind,
    key: str,
    change: Change,
    summary: str,
    action: AuditAction = AuditAction.EDIT,
    expected_revision: int | None = None,
    suggestion_id: int | None = None,
) -> AuditEntry:
    """The one write path: ``change`` the entry the guild sees and store the result in the guild's scope.

    ``action`` ADD refuses a slug the guild already sees, EDIT one it does not. The new entry is
    validated with the dataset's validators, its references resolved in the guild's view (its own
    entries first, then the shared ones). ``expected_revision`` (from ``current_revision``) makes the
    write fail with ``Conflict`` if someone else wrote the entry since. Returns the audit entry.
    """
    own = _claimed(session, actor, kind, key, expected_revision, action)
    entry = _changed(kind, key, own.visible(session, kind, key), change, action)
    state = entry_state(entry, removed=False)
    return _write(
        session,
        actor=actor,
        kind=kind,
        key=key,
        own=own,
        state=state,
        action=action,
        summary=summary,
        suggestion_id=suggestion_id,
    )


def remove(
    session: Session,
    *,
    actor: Actor,
    kind: EntityKind,
    key: str,
    summary: str | None = None,
    expected_revision: int | None = None,
) -> AuditEntry:
    """Remove the entry in the guild (softly): a shared entry gets a removed guild copy, a tombstone."""
    summary = summary or say(Msg.REMOVED_SUMMARY, kind=kind_name(kind), key=key)
    return _set_removed(session, actor, kind, key, expected_revision, removed=True, summary=summary)


def restore(
    session: Session,
    *,
    actor: Actor,
    kind: EntityKind,
    key: str,
    summary: str | None = None,
    expected_revision: int | None = None,
) -> AuditEntry:
    """Bring back an entry removed in the guild."""
    summary = summary or say(Msg.RESTORED_SUMMARY, kind=kind_name(kind), key=key)
    return _set_removed(session, actor, kind, key, expected_revision, removed=False, summary=summary)


def _set_removed(
    session: Session,
    actor: Actor,
    kind: EntityKind,
    key: str,
    expected_revision: int | None,
    *,
    removed: bool,
    summary: str,
) -> AuditEntry:
    action = AuditAction.REMOVE if removed else AuditAction.RESTORE
    own = _claimed(session, actor, kind, key, expected_revision, action)
    if removed:
        current = own.visible(session, kind, key)
        if current is None:
            raise NotFound(Msg.NOTHING_TO_REMOVE, kind=kind_name(kind), key=key)
        entry = _json(current)
    elif own.state is None or not own.state["removed"]:
        raise NotFound(Msg.NOT_REMOVED, kind=kind_name(kind, capital=True), key=key)
    else:
        entry = own.state["entry"]
    return _write(
        session,
        actor=actor,
        kind=kind,
        key=key,
        own=own,
        state={"entry": entry, "removed": removed},
        action=action,
        summary=summary,
    )


EVERY_KIND: frozenset[EntityKind] = frozenset(EntityKind)
"""What a moderator may undo: a change to any kind of entry (``undo``'s and ``undoable``'s default)."""


def _undoable(actor: Actor, kinds: Collection[EntityKind]) -> SelectOfScalar[AuditEntry]:
    """The actor's changes in their guild to entries of ``kinds`` that can still be undone (not undone,
    not undos), newest first."""
    return (
        select(AuditEntry)
        .where(
            col(AuditEntry.guild_id) == actor.guild_id,
            col(AuditEntry.actor_id) == actor.user_id,
            col(AuditEntry.undone_by_id).is_(None),
            col(AuditEntry.action) != AuditAction.UNDO,
            col(AuditEntry.kind).in_(kinds),
        )
        .order_by(col(AuditEntry.id).desc())
    )


def undoable(
    session: Session, *, actor: Actor, kinds: Collection[EntityKind] = EVERY_KIND, limit: int = HISTORY_MAX
) -> list[AuditEntry]:
    """What ``undo`` can revert for the actor, who may undo changes to ``kinds``, newest first (the first
    is what a bare ``/undo`` reverts)."""
    return list(session.exec(_undoable(actor, kinds).limit(limit)))


def _to_undo(
    session: Session, actor: Actor, audit_id: int | None, kinds: Collection[EntityKind]
) -> AuditEntry:
    if audit_id is None:
        latest = session.exec(_undoable(actor, kinds).limit(1)).first()
        if latest is None:
            raise NotFound(Msg.NOTHING_TO_UNDO)
        return latest
    target = session.get(AuditEntry, audit_id) if is_id(audit_id) else None
    if target is None or target.guild_id != actor.guild_id:
        raise NotFound(Msg.NO_SUCH_CHANGE, change=audit_id)
    if target.kind not in kinds:
        raise Forbidden(
            Msg.UNDO_NOT_A_TEACHERS_KIND, change=audit_id, kind=kind_name(target.kind, article=True)
        )
    if target.undone_by_id is not None:
        raise Conflict(Msg.ALREADY_UNDONE, change=audit_id, undo=target.undone_by_id)
    return target


def undo(
    session: Session,
    *,
    actor: Actor,
    audit_id: int | None = None,
    kinds: Collection[EntityKind] = EVERY_KIND,
) -> AuditEntry:
    """Put the entry back as it was before a change: the actor's latest one not yet undone, or ``audit_id``.

    ``kinds`` are the kinds of entry the actor may undo changes to (a teacher's are fewer than a
    moderator's): another change is refused with ``Forbidden``. Refuses with ``Conflict`` when the entry
    changed after that change. The undo is itself audited (``undoes_id``) and marks the change it undid
    (``undone_by_id``).
    """
    target = _to_undo(session, actor, audit_id, kinds)
    own = _claimed(session, actor, target.kind, target.key, None, AuditAction.UNDO)
    if own.state != target.after:
        raise Conflict(
            Msg.CHANGED_SINCE_CHANGE,
            kind=kind_name(target.kind, capital=True),
            key=target.key,
            change=target.id,
        )
    before: EntryState | None = None
    if target.before is not None:
        before = {"entry": target.before["entry"], "removed": bool(target.before["removed"])}
    record = _write(
        session,
        actor=actor,
        kind=target.kind,
        key=target.key,
        own=own,
        state=before,
        action=AuditAction.UNDO,
        summary=say(Msg.UNDID_SUMMARY, change=target.id, summary=target.summary),
        undoes_id=target.id,
    )
    target.undone_by_id = record.id
    session.flush()
    return record


# -- suggestions -------------------------------------------------------------------------------------


def suggest(
    session: Session,
    *,
    actor: Actor,
    kind: EntityKind,
    key: str,
    change: Change,
    summary: str,
    action: AuditAction = AuditAction.EDIT,
) -> Suggestion:
    """Queue a change for a moderator: validated now, stored with the state it was based on."""
    row = _lock(session, actor, kind, key, None)
    current = visible_entry(session, guild_id=actor.guild_id, kind=kind, key=key)
    entry = _changed(kind, key, current, change, action)
    _check_references(session, GuildView(session, actor.guild_id), entry)
    base = None if row is None else _state(session, row)
    suggestion = Suggestion(
        guild_id=actor.guild_id,
        author_id=actor.user_id,
        created_at=_now(),
        kind=kind,
        key=key,
        action=action,
        summary=clip(summary, LABEL_MAX),
        base=dict(base) if base is not None else None,
        proposal={"entry": _json(entry), "removed": False},
    )
    session.add(suggestion)
    session.flush()
    return suggestion


def pending(session: Session, guild_id: int) -> list[Suggestion]:
    """The guild's suggestions waiting for a moderator, oldest first."""
    statement = select(Suggestion).where(
        col(Suggestion.guild_id) == guild_id, col(Suggestion.status) == SuggestionStatus.PENDING
    )
    return list(session.exec(statement.order_by(col(Suggestion.id))))


def _pending(session: Session, actor: Actor, suggestion_id: int) -> Suggestion:
    suggestion = session.get(Suggestion, suggestion_id) if is_id(suggestion_id) else None
    if suggestion is None or suggestion.guild_id != actor.guild_id:
        raise NotFound(Msg.NO_SUCH_SUGGESTION, suggestion=suggestion_id)
    if suggestion.status is not SuggestionStatus.PENDING:
        raise Conflict(Msg.ALREADY_DECIDED, suggestion=suggestion_id, status=status_name(suggestion.status))
    return suggestion


def _decide(suggestion: Suggestion, actor: Actor, status: SuggestionStatus, reason: str | None) -> None:
    suggestion.status = status
    suggestion.reviewer_id = actor.user_id
    suggestion.decided_at = _now()
    suggestion.reason = clip(inputs.text(reason or "", option="reason"), LABEL_MAX) or None


def approve(session: Session, *, actor: Actor, suggestion_id: int) -> AuditEntry:
    """Apply a pending suggestion through ``apply`` (action APPROVE), if its entry is unchanged since.

    The entry is compared with the suggestion's base once ``apply`` holds it, so no write can land
    between the check and the approval's own. When the entry changed after the suggestion was made,
    raises ``Conflict`` and writes nothing; ``mark_stale`` records that outcome in a transaction of its
    own.
    """
    suggestion = _pending(session, actor, suggestion_id)
    if suggestion.proposal is None:
        raise NotFound(Msg.PROPOSES_NOTHING, suggestion=suggestion_id)
    proposal = MODELS[suggestion.kind].model_validate(suggestion.proposal["entry"])

    def unless_changed(_current: Entry | None) -> Entry:
        state = current_state(session, guild_id=actor.guild_id, kind=suggestion.kind, key=suggestion.key)
        if state != suggestion.base:
            raise Conflict(
                Msg.CHANGED_SINCE_SUGGESTION,
                kind=kind_name(suggestion.kind, capital=True),
                key=suggestion.key,
                suggestion=suggestion_id,
            )
        return proposal

    audit = apply(
        session,
        actor=actor,
        kind=suggestion.kind,
        key=suggestion.key,
        change=unless_changed,
        summary=suggestion.summary,
        action=AuditAction.APPROVE,
        suggestion_id=suggestion.id,
    )
    _decide(suggestion, actor, SuggestionStatus.APPROVED, None)
    return audit


def mark_stale(session: Session, *, actor: Actor, suggestion_id: int) -> Suggestion:
    """Record that a pending suggestion can no longer be applied (its entry changed since)."""
    suggestion = _pending(session, actor, suggestion_id)
    _decide(suggestion, actor, SuggestionStatus.STALE, say(Msg.STALE_REASON))
    return suggestion


def reject(session: Session, *, actor: Actor, suggestion_id: int, reason: str | None = None) -> Suggestion:
    suggestion = _pending(session, actor, suggestion_id)
    _decide(suggestion, actor, SuggestionStatus.REJECTED, reason)
    session.flush()
    return suggestion


def _untold(guild_id: int) -> tuple[ColumnElement[bool], ...]:
    """Conditions on the guild's decided suggestions whose authors have not been told about them yet."""
    return (
        col(Suggestion.guild_id) == guild_id,
        col(Suggestion.status) != SuggestionStatus.PENDING,
        col(Suggestion.notified_at).is_(None),
    )


def unnotified_outcomes(session: Session, guild_id: int, user_id: int) -> list[Suggestion]:
    """The author's decided suggestions they have not been told about yet, oldest first."""
    statement = select(Suggestion).where(*_untold(guild_id), col(Suggestion.author_id) == user_id)
    return list(session.exec(statement.order_by(col(Suggestion.id))))


def untold_authors(session: Session, guild_id: int) -> set[int]:
    """The guild's members with decided suggestions they have not been told about yet."""
    return set(session.exec(select(Suggestion.author_id).where(*_untold(guild_id)).distinct()))


def mark_notified(session: Session, *, guild_id: int, suggestion_ids: Iterable[int]) -> None:
    """Record that the authors were told the outcome of these suggestions (of this guild only)."""
    wanted = set(suggestion_ids)
    if not wanted:
        return
    statement = select(Suggestion).where(col(Suggestion.guild_id) == guild_id, col(Suggestion.id).in_(wanted))
    now = _now()
    for suggestion in session.exec(statement):
        suggestion.notified_at = now
    session.flush()


# -- guild configuration -----------------------------------------------------------------------------


def set_moderator_role(session: Session, *, actor: Actor, role_id: int | None) -> GuildConfig:
    """Name the guild's moderator role (None: back to Manage Server)."""
    config = session.get(GuildConfig, actor.guild_id)
    if config is None:
        config = GuildConfig(guild_id=actor.guild_id, updated_by=actor.user_id, updated_at=_now())
        session.add(config)
    config.moderator_role_id = role_id
    config.updated_by = actor.user_id
    config.updated_at = _now()
    session.flush()
    return config
