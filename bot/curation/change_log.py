"""What showing a change needs from the database: the names its references stand for, the entry a
missing state stands for, and who suggested an approved change. No Discord here.

A state of ``None`` (the guild has no row of its own) means the guild sees the shared entry, so a
change from or to ``None`` is shown against the shared entry when there is one. Like
``bot.curation.changes``, every function takes the session keyword-only and never commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from bot.curation import change_view
from bot.curation.change_view import Names, Section
from bot.curation.changes import TABLES, visible_entry
from bot.errors import NotFound
from bot.messages.catalogue import Msg
from db.cleaning import is_id
from db.models import SHARED_GUILD, AuditEntry, EntityKind, Suggestion

NAMED = (EntityKind.PERSON, EntityKind.PARTY, EntityKind.CHAMBER)


@dataclass(frozen=True, slots=True)
class LoggedChange:
    """A change in a history, with the member whose suggestion it approved (None for a moderator's own)."""

    audit: AuditEntry
    suggested_by: int | None = None


@dataclass(frozen=True, slots=True)
class ShownChange:
    """A change ready to show: the change itself and what it did, field by field."""

    logged: LoggedChange
    sections: tuple[Section, ...]


def names(session: Session, *, guild_id: int, wanted: Iterable[tuple[EntityKind, str]]) -> Names:
    """The names of these people, parties and chambers in the guild's view (its own rows win)."""
    found: dict[tuple[EntityKind, str], str] = {}
    for kind in NAMED:
        slugs = {slug for wanted_kind, slug in wanted if wanted_kind is kind}
        if not slugs:
            continue
        table: Any = TABLES[kind]
        statement = (
            select(table.slug, table.name)
            .where(col(table.guild_id).in_({SHARED_GUILD, guild_id}), col(table.slug).in_(slugs))
            .order_by(col(table.guild_id))  # shared first, so that the guild's own name wins
        )
        for slug, name in session.exec(statement):
            found[kind, slug] = name
    return found


def entry_sections(
    session: Session, *, guild_id: int, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
) -> tuple[Section, ...]:
    """``change_view.sections`` of two entries' JSON, with their references named in the guild."""
    wanted = change_view.references(before, after)
    return tuple(change_view.sections(before, after, names(session, guild_id=guild_id, wanted=wanted)))


def suggesters(session: Session, audits: Sequence[AuditEntry]) -> dict[int, int]:
    """The author of each suggestion these changes approved, by suggestion id."""
    ids = {audit.suggestion_id for audit in audits if audit.suggestion_id is not None}
    if not ids:
        return {}
    statement = select(Suggestion.id, Suggestion.author_id).where(col(Suggestion.id).in_(ids))
    return {number: author for number, author in session.exec(statement) if number is not None}


def logged(session: Session, audits: Sequence[AuditEntry]) -> list[LoggedChange]:
    """The changes, each with the member who suggested it when it approved a suggestion."""
    authors = suggesters(session, audits)
    return [LoggedChange(a, authors.get(a.suggestion_id) if a.suggestion_id else None) for a in audits]


def _entry(session: Session, audit: AuditEntry, state: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The entry a state of the audit's shows (None: the shared one); a removed one shows as none."""
    if state is None:
        shared = visible_entry(session, guild_id=SHARED_GUILD, kind=audit.kind, key=audit.key)
        return None if shared is None else shared.model_dump(mode="json", exclude_none=True)
    return None if state.get("removed") else dict(state["entry"])


def shown_suggestion(session: Session, suggestion: Suggestion) -> tuple[Section, ...]:
    """What a suggestion would change in the entry its guild sees now."""
    current = visible_entry(session, guild_id=suggestion.guild_id, kind=suggestion.kind, key=suggestion.key)
    before = None if current is None else current.model_dump(mode="json", exclude_none=True)
    after = (suggestion.proposal or {}).get("entry")
    return entry_sections(session, guild_id=suggestion.guild_id, before=before, after=after)


def shown_audit(session: Session, *, guild_id: int, audit_id: int) -> ShownChange:
    """Change ``audit_id`` of the guild's history, before and after."""
    audit = session.get(AuditEntry, audit_id) if is_id(audit_id) else None
    if audit is None or audit.guild_id != guild_id:
        raise NotFound(Msg.HISTORY_CHANGE_GONE, change=audit_id)
    before, after = _entry(session, audit, audit.before), _entry(session, audit, audit.after)
    found = entry_sections(session, guild_id=audit.guild_id, before=before, after=after)
    return ShownChange(logged(session, [audit])[0], found)
