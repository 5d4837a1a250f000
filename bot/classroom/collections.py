"""Teachers' collections: named sets of incidents (a unit of the course), one guild's each.

Names are unique per guild whatever their case (``name_key``). An item names its incident by slug and
is read in the guild's view (``db.dataset.rows.GuildView``): once the guild edits a shared incident the
collection shows the guild's copy, and an incident removed in the guild is left out (and back once
restored) without touching the collection. Functions take the session keyword-only and never commit;
``bot.library.Library`` runs each in one transaction.

Changes are not in the audit log (``bot.curation.changes``): that log holds dataset entries' states,
which undo and restore write back, and a collection is not a dataset entry. A collection keeps who
made it and who added each incident instead.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlmodel import Session, col, func, select

from bot.curation.changes import Actor
from bot.errors import InvalidInput, NotFound
from bot.inputs import line
from bot.messages.catalogue import Msg
from db.dataset.rows import GuildView
from db.models import COLLECTION_NAME_MAX, Collection, CollectionItem, Incident

ITEMS_MAX = 200  # incidents in one collection
NAME_MAX = COLLECTION_NAME_MAX


@dataclass(frozen=True, slots=True)
class CollectionSummary:
    """A collection as listed: its name as written, and how many of its incidents the guild sees."""

    name: str
    count: int


@dataclass(frozen=True, slots=True)
class CollectionChange:
    """What a change did: the collection (as named), the incident, and the incidents it holds after
    (for a whole collection removed, those it held); ``created`` when the change started it."""

    name: str
    slug: str | None
    title: str | None
    count: int
    created: bool = False


def clean_name(name: str) -> str:
    """``name`` as stored: one line, cleaned (``bot.inputs.line``); empty or too long is refused."""
    cleaned = line(name, option="name")
    if not cleaned:
        raise InvalidInput(Msg.COLLECTION_NAME_EMPTY)
    if len(cleaned) > NAME_MAX:
        raise InvalidInput(Msg.COLLECTION_NAME_TOO_LONG, limit=NAME_MAX)
    return cleaned


def name_key(name: str) -> str:
    """What makes two names the same collection: ``Unit 1`` and ``unit  1`` are one."""
    return clean_name(name).casefold()


def _find(session: Session, guild_id: int, name: str) -> Collection | None:
    statement = select(Collection).where(
        col(Collection.guild_id) == guild_id, col(Collection.key) == name_key(name)
    )
    return session.exec(statement).first()


def _named(session: Session, guild_id: int, name: str) -> Collection:
    found = _find(session, guild_id, name)
    if found is None:
        raise NotFound(Msg.COLLECTION_UNKNOWN, name=clean_name(name))
    return found


def _items(session: Session, collection: Collection) -> list[CollectionItem]:
    statement = (
        select(CollectionItem)
        .where(col(CollectionItem.collection_id) == collection.id)
        .order_by(col(CollectionItem.rank), col(CollectionItem.incident_slug))
    )
    return list(session.exec(statement))


def _seen(session: Session, guild_id: int, collection: Collection) -> list[str]:
    """The collection's incidents the guild sees, in the order they were added."""
    visible = GuildView(session, guild_id).ids(Incident)
    return [item.incident_slug for item in _items(session, collection) if item.incident_slug in visible]


def collections(session: Session, *, guild_id: int) -> list[CollectionSummary]:
    """The guild's collections by name, each with the number of its incidents the guild sees."""
    statement = select(Collection).where(col(Collection.guild_id) == guild_id).order_by(col(Collection.key))
    return [CollectionSummary(c.name, len(_seen(session, guild_id, c))) for c in session.exec(statement)]


def collection_names(session: Session, *, guild_id: int) -> list[str]:
    """The guild's collection names, as written, in name order (for autocomplete)."""
    statement = (
        select(Collection.name).where(col(Collection.guild_id) == guild_id).order_by(col(Collection.key))
    )
    return list(session.exec(statement))


def collection(session: Session, *, guild_id: int, name: str) -> tuple[str, list[str]]:
    """The collection ``name`` (any case) as written, and the slugs of its incidents the guild sees."""
    found = _named(session, guild_id, name)
    return found.name, _seen(session, guild_id, found)


def _title(session: Session, guild_id: int, slug: str) -> str:
    """The title of the incident ``slug`` as the guild sees it; one it does not see is not found."""
    row_id = GuildView(session, guild_id).ids(Incident).get(slug)
    incident = None if row_id is None else session.get(Incident, row_id)
    if incident is None:
        raise NotFound(Msg.INCIDENT_GONE, slug=slug)
    return incident.title


def add_to_collection(session: Session, *, actor: Actor, name: str, slug: str) -> CollectionChange:
    """Add the incident ``slug`` (one the guild sees) to the collection ``name``, starting it if new."""
    title = _title(session, actor.guild_id, slug)
    found = _find(session, actor.guild_id, name)
    created = found is None
    if found is None:
        found = Collection(
            guild_id=actor.guild_id,
            name=clean_name(name),
            key=name_key(name),
            created_by=actor.user_id,
            created_at=_now(),
        )
        session.add(found)
        session.flush()
    items = _items(session, found)
    if any(item.incident_slug == slug for item in items):
        raise InvalidInput(Msg.COLLECTION_ALREADY_IN, title=title, name=found.name)
    if len(items) >= ITEMS_MAX:
        raise InvalidInput(Msg.COLLECTION_FULL, name=found.name, limit=ITEMS_MAX)
    rank = session.exec(
        select(func.coalesce(func.max(CollectionItem.rank), -1)).where(
            col(CollectionItem.collection_id) == found.id
        )
    ).one()
    assert found.id is not None
    session.add(
        CollectionItem(
            collection_id=found.id, incident_slug=slug, rank=rank + 1, added_by=actor.user_id, added_at=_now()
        )
    )
    session.flush()
    return CollectionChange(found.name, slug, title, len(_seen(session, actor.guild_id, found)), created)


def remove_from_collection(session: Session, *, actor: Actor, name: str, slug: str) -> CollectionChange:
    """Take the incident ``slug`` out of the collection ``name`` (the collection stays, even empty)."""
    found = _named(session, actor.guild_id, name)
    item = next((item for item in _items(session, found) if item.incident_slug == slug), None)
    if item is None:
        raise InvalidInput(Msg.COLLECTION_NOT_IN, incident=slug, name=found.name)
    session.delete(item)
    session.flush()
    return CollectionChange(found.name, slug, None, len(_seen(session, actor.guild_id, found)))


def remove_collection(session: Session, *, actor: Actor, name: str) -> CollectionChange:
    """Remove the collection ``name`` and its list; the incidents themselves are untouched."""
    found = _named(session, actor.guild_id, name)
    count = len(_seen(session, actor.guild_id, found))
    for item in _items(session, found):
        session.delete(item)
    session.flush()  # the items first: the collection's row goes after them
    session.delete(found)
    session.flush()
    return CollectionChange(found.name, None, None, count)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
