"""Stored rows as entries are named: a row's slug, a scope's rows, and what slugs mean in a guild."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any, TypeVar, cast, get_args

from pydantic import BaseModel
from sqlalchemy import Select, literal, union_all
from sqlalchemy import select as core_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from db.dataset.schema import Entry, References, SourceEntry
from db.models import (
    SHARED_GUILD,
    Chamber,
    CustomQuestion,
    Incident,
    Party,
    Person,
    Source,
    Term,
)
from db.models import Motion as MotionRow

EntryRow = Chamber | Party | Person | Source | Incident | CustomQuestion | Term
ScopeRow = TypeVar("ScopeRow", Chamber, Party, Person, Source, Incident, CustomQuestion, Term)


def slug_of(item: EntryRow | Entry) -> str:
    """The slug a row or entry is referred to by (a source's ``key``)."""
    return item.key if isinstance(item, Source | SourceEntry) else item.slug


def slug_column(table: type[EntryRow]) -> Any:
    return col(Source.key) if table is Source else col(table.slug)  # type: ignore[union-attr]


def _slug_constraints() -> frozenset[str]:
    """How each database names an entry table's one unique constraint, a slug per scope: PostgreSQL's
    default name for it, and SQLite's words for its violation."""
    names = set()
    for table in get_args(EntryRow):
        name, slug = table.__tablename__, slug_column(table).key
        names |= {f"{name}_guild_id_{slug}_key", f"UNIQUE constraint failed: {name}.guild_id, {name}.{slug}"}
    return frozenset(names)


SLUG_CONSTRAINTS = _slug_constraints()


def slug_taken(error: IntegrityError) -> bool:
    """Whether ``error`` is a slug taken twice in one scope: another writer's row with it was committed
    after this transaction looked for one."""
    diagnostic = getattr(error.orig, "diag", None)  # psycopg's; SQLite says it all in its message
    named = str(error.orig) if diagnostic is None else diagnostic.constraint_name
    return named in SLUG_CONSTRAINTS


def scope_rows(
    session: Session, table: type[ScopeRow], guild_id: int, *, removed: bool = True
) -> list[ScopeRow]:
    """The scope's rows of ``table`` in id order; ``removed=False`` leaves out removed rows."""
    statement = select(table).where(col(table.guild_id) == guild_id)
    if not removed:
        statement = statement.where(col(table.removed_at).is_(None))
    return list(session.exec(statement.order_by(col(table.id))))


def removed_rows(session: Session, table: type[EntryRow], guild_id: int) -> list[EntryRow]:
    """The scope's removed rows of ``table`` (its removals, and its tombstones over shared entries)."""
    statement = select(table).where(col(table.guild_id) == guild_id, col(table.removed_at).is_not(None))
    return cast("list[EntryRow]", list(session.exec(statement)))


def own_row(
    session: Session, table: type[EntryRow], slug: str, *, guild_id: int, lock: bool = False
) -> EntryRow | None:
    """The scope's own row of ``table`` with ``slug`` (removed or not); ``lock`` selects it FOR UPDATE."""
    statement = select(table).where(col(table.guild_id) == guild_id, slug_column(table) == slug)
    if lock:
        statement = statement.with_for_update()
    return cast("EntryRow | None", session.exec(statement).first())


def row_id(row: EntryRow | MotionRow) -> int:
    if row.id is None:
        raise RuntimeError(f"{type(row).__name__} has no id: flush the session first")
    return row.id


class GuildView:
    """What slugs mean in one guild: its own rows first, else the shared ones.

    A removed row is absent, and a guild's removed row (a tombstone) hides the shared row with its
    slug. For the shared scope this is simply the shared rows that are not removed.

    A slug is looked up when it is first asked about (``found``, ``known``, ``party``...), with a query
    for just the slugs asked: a single write reads only the rows it refers to. ``ids`` reads every slug
    of a table at once, and from then on the table's slugs are answered from it: a writer of many
    entries (an import) calls it first for each table it resolves references in.
    """

    def __init__(self, session: Session, guild_id: int) -> None:
        self._session = session
        self.guild_id = guild_id
        self._ids: dict[type[EntryRow], dict[str, int]] = {}
        self._found: dict[type[EntryRow], dict[str, int | None]] = {}  # by slug; None: not seen

    def ids(self, table: type[EntryRow]) -> dict[str, int]:
        """Row ids by slug, for every slug of ``table`` the guild sees."""
        if table not in self._ids:
            statement = self._rows(table).order_by(col(table.guild_id))
            self._ids[table] = self._visible(self._session.execute(statement))
        return self._ids[table]

    def found(self, table: type[EntryRow], slugs: Collection[str]) -> dict[str, int]:
        """Row ids by slug, for those of ``slugs`` the guild sees in ``table``."""
        if table in self._ids:
            return {slug: self._ids[table][slug] for slug in slugs if slug in self._ids[table]}
        self._look_up({table: slugs})
        found = self._found[table]
        return {slug: row_id for slug in slugs if (row_id := found[slug]) is not None}

    def _look_up(self, wanted: Mapping[type[EntryRow], Collection[str]]) -> None:
        """Read what the slugs of ``wanted`` not looked up yet mean, every table's in one statement."""
        parts: list[Select[Any]] = []
        asked: dict[type[EntryRow], set[str]] = {}
        for table, slugs in wanted.items():
            unseen = set(slugs) - self._found.setdefault(table, {}).keys()
            if unseen and table not in self._ids:
                asked[table] = unseen
                part = literal(len(parts)).label("part")
                parts.append(self._rows(table, part).where(slug_column(table).in_(unseen)))
        if not parts:
            return
        rows: dict[int, list[Any]] = {number: [] for number in range(len(parts))}
        statement = union_all(*parts).order_by("part", "guild_id")
        for part, *row in self._session.execute(statement):
            rows[part].append(row)
        for (table, unseen), read in zip(asked.items(), rows.values(), strict=True):
            visible = self._visible(read)
            self._found[table].update({slug: visible.get(slug) for slug in unseen})

    def _rows(self, table: type[EntryRow], *columns: Any) -> Select[Any]:
        """The statement reading (``columns``, slug, id, removed_at, guild_id) of the table's rows in the
        guild and the shared scope, for the caller to order by guild: the shared first, so that the
        guild's own rows win (``_visible``)."""
        return core_select(
            *columns, slug_column(table), col(table.id), col(table.removed_at), col(table.guild_id)
        ).where(col(table.guild_id).in_({SHARED_GUILD, self.guild_id}))

    @staticmethod
    def _visible(rows: Iterable[Any]) -> dict[str, int]:
        """Ids by slug of the rows (slug, id, removed_at, guild_id) that are not removed, the last of a
        slug winning."""
        ids: dict[str, int | None] = {}
        for slug, row_id, removed_at, _guild_id in rows:
            ids[slug] = row_id if removed_at is None else None
        return {slug: row_id for slug, row_id in ids.items() if row_id is not None}

    def register(self, row: EntryRow) -> None:
        """Make ``row`` (just written in this guild's scope) what its slug means from now on."""
        table, slug = type(row), slug_of(row)
        if table in self._ids:
            self._ids[table][slug] = row_id(row)
        self._found.setdefault(table, {})[slug] = row_id(row)

    def references(self) -> References:
        """Every slug the guild sees, by kind (reads whole tables: ``known`` reads only some)."""
        return References(
            chambers=self.ids(Chamber).keys(),
            parties=self.ids(Party).keys(),
            people=self.ids(Person).keys(),
            sources=self.ids(Source).keys(),
            incidents=self.ids(Incident).keys(),
        )

    def known(self, wanted: References) -> References:
        """Those of ``wanted``'s slugs the guild sees, by kind (one statement reads just those slugs)."""
        tables: dict[type[EntryRow], Collection[str]] = {
            Chamber: wanted.chambers,
            Party: wanted.parties,
            Person: wanted.people,
            Source: wanted.sources,
            Incident: wanted.incidents,
        }
        self._look_up(tables)
        return References(
            chambers=self.found(Chamber, wanted.chambers).keys(),
            parties=self.found(Party, wanted.parties).keys(),
            people=self.found(Person, wanted.people).keys(),
            sources=self.found(Source, wanted.sources).keys(),
            incidents=self.found(Incident, wanted.incidents).keys(),
        )

    def _id(self, table: type[EntryRow], slug: str) -> int:
        """The id of the row ``slug`` means (``KeyError`` when the guild sees none)."""
        return self.found(table, (slug,))[slug]

    def party(self, slug: str | None) -> int | None:
        return None if slug is None else self._id(Party, slug)

    def person(self, slug: str | None) -> int | None:
        return None if slug is None else self._id(Person, slug)

    def source(self, key: str) -> int:
        return self._id(Source, key)

    def chamber(self, slug: str) -> int:
        return self._id(Chamber, slug)


def same_named(values: BaseModel, target: type[BaseModel]) -> dict[str, Any]:
    """``values``' fields that ``target`` has under the same name: the plain columns an entry and its
    table share (``text``, ``said_to``, ...), so that a new one is read and written without more code.
    References (``speaker`` and ``person_id``, ``source`` and ``source_id``) differ in name and are
    passed by the caller."""
    names = type(values).model_fields.keys() & target.model_fields.keys()
    return {name: getattr(values, name) for name in names}
