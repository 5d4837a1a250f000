"""Writing entries into one scope (a guild, or the shared dataset), upserting by slug."""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar, get_args

from sqlalchemy import Table, delete, insert
from sqlmodel import Session, SQLModel, col, select

from db.dataset.reader import IncidentRows, SlugsById, StoredRow, stored_incident
from db.dataset.rows import (
    EntryRow,
    GuildView,
    own_row,
    row_id,
    same_named,
    scope_rows,
    slug_column,
    slug_of,
)
from db.dataset.schema import (
    Dataset,
    Entry,
    IncidentEntry,
    PartyEntry,
    PersonEntry,
    PositionEntry,
    QuestionEntry,
    SourceEntry,
    TermEntry,
)
from db.models import (
    SHARED_GUILD,
    Chamber,
    CustomQuestion,
    Incident,
    IncidentSource,
    Participant,
    Party,
    Person,
    Position,
    Quote,
    Ruling,
    Source,
    Term,
)
from db.models import Motion as MotionRow

_T = TypeVar("_T")


@dataclass
class KindCounts:
    added: int = 0
    changed: int = 0
    unchanged: int = 0

    def __str__(self) -> str:
        return f"{self.added} added, {self.changed} changed, {self.unchanged} unchanged"


@dataclass
class LoadReport:
    """What ``load_dataset`` did to each kind of top-level entry (an incident counts its children)."""

    chambers: KindCounts = field(default_factory=KindCounts)
    parties: KindCounts = field(default_factory=KindCounts)
    people: KindCounts = field(default_factory=KindCounts)
    sources: KindCounts = field(default_factory=KindCounts)
    incidents: KindCounts = field(default_factory=KindCounts)
    terms: KindCounts = field(default_factory=KindCounts)
    questions: KindCounts = field(default_factory=KindCounts)

    @property
    def kinds(self) -> dict[str, KindCounts]:
        return {
            "chambers": self.chambers,
            "parties": self.parties,
            "people": self.people,
            "sources": self.sources,
            "incidents": self.incidents,
            "terms": self.terms,
            "questions": self.questions,
        }

    @property
    def changed_anything(self) -> bool:
        return any(counts.added or counts.changed for counts in self.kinds.values())

    def __str__(self) -> str:
        return "; ".join(f"{kind}: {counts}" for kind, counts in self.kinds.items())


BATCH = 2000
"""Rows per batched INSERT statement (and entries per progress step of a bulk import)."""


REFERRED: tuple[type[EntryRow], ...] = (Chamber, Party, Person, Source)
"""The tables an entry's references resolve in (to an id column of its row, or of its children's)."""


def entry_values(entry: Entry, view: GuildView) -> tuple[type[EntryRow], dict[str, Any]]:
    """The table an entry is stored in and its row's columns but the slug, references resolved in
    ``view`` (an incident's children are rows of their own: ``insert_children``)."""
    if isinstance(entry, IncidentEntry):
        plain = {name: value for name, value in same_named(entry, Incident).items() if name != "slug"}
        return Incident, {**plain, "aliases": list(entry.aliases), "chamber_id": view.chamber(entry.chamber)}
    if isinstance(entry, PersonEntry):
        return Person, {"name": entry.name, "aliases": entry.aliases, "party_id": view.party(entry.party)}
    if isinstance(entry, TermEntry):
        return Term, {**entry.model_dump(exclude={"slug", "source"}), "source_id": view.source(entry.source)}
    if isinstance(entry, SourceEntry):
        return Source, entry.model_dump(exclude={"key"})
    if isinstance(entry, PartyEntry):
        return Party, entry.model_dump(exclude={"slug"})
    if isinstance(entry, QuestionEntry):
        values = {
            **entry.model_dump(include={"prompt", "answer", "wrong"}),
            "source_id": view.source(entry.source),
        }
        return CustomQuestion, values
    return Chamber, entry.model_dump(exclude={"slug"})


def _identity(table: type[EntryRow], guild_id: int, slug: str) -> dict[str, Any]:
    return {"guild_id": guild_id, "key" if table is Source else "slug": slug}


class ScopeWriter:
    """Writes entries into one guild's scope, upserting by slug; references resolve in the guild's view.

    Curation writes one entry at a time with it, each write reading by slug just the rows it touches and
    refers to; ``load_dataset`` a whole file, after ``read_scope`` (an import many entries at a time:
    ``BulkWriter``). Never commits.
    """

    def __init__(self, session: Session, guild_id: int) -> None:
        self.session = session
        self.guild_id = guild_id
        self.view = GuildView(session, guild_id)
        self._refs = SlugsById(session)
        self._own: dict[type[EntryRow], dict[str, Any]] = {}  # whole tables, once ``read_scope`` read them

    def read_scope(self) -> None:
        """Read the scope's rows and every slug the guild sees, each table at once: for writing many
        entries, which then look up no row one by one."""
        for table in get_args(EntryRow):
            model: Any = table  # one of EntryRow's tables, which scope_rows takes one at a time
            self._own[table] = {slug_of(row): row for row in scope_rows(self.session, model, self.guild_id)}
        for table in REFERRED:
            self.view.ids(table)

    def write(
        self, entry: Entry, counts: KindCounts | None = None, *, over: StoredRow | None = None
    ) -> EntryRow:
        """Add ``entry`` as a row of the scope, or update the scope's row with its slug: ``over``, when the
        caller has read it (then only the columns and, of an incident, the child tables that differ from
        what was read are written), else the row looked up and compared here."""
        counts = KindCounts() if counts is None else counts
        row: EntryRow
        if isinstance(entry, IncidentEntry):
            row = self._incident(entry, counts, over)
        else:
            table, values = entry_values(entry, self.view)
            row = self._upsert(table, slug_of(entry), values, counts, over)
        self.view.register(row)
        return row

    def _own_row(self, table: type[EntryRow], slug: str, over: StoredRow | None) -> Any:
        if over is not None:
            return over.row
        if table in self._own:
            return self._own[table].get(slug)
        return own_row(self.session, table, slug, guild_id=self.guild_id)

    def _add(self, row: EntryRow, counts: KindCounts) -> None:
        self.session.add(row)
        self.session.flush()
        if type(row) in self._own:
            self._own[type(row)][slug_of(row)] = row
        counts.added += 1

    def _upsert(
        self,
        table: type[EntryRow],
        slug: str,
        values: dict[str, Any],
        counts: KindCounts,
        over: StoredRow | None,
    ) -> EntryRow:
        """Add a row made of ``slug`` and ``values`` when there is none, else update what differs."""
        row: EntryRow | None = self._own_row(table, slug, over)
        if row is None:
            row = table(**_identity(table, self.guild_id, slug), **values)
            self._add(row, counts)
        elif all(getattr(row, name) == value for name, value in values.items()):
            counts.unchanged += 1
        else:
            for name, value in values.items():
                setattr(row, name, value)
            counts.changed += 1
        return row

    def _incident(self, entry: IncidentEntry, counts: KindCounts, over: StoredRow | None) -> Incident:
        _, values = entry_values(entry, self.view)
        incident: Incident | None = self._own_row(Incident, entry.slug, over)
        if incident is None:
            incident = Incident(guild_id=self.guild_id, slug=entry.slug, **values)
            self._add(incident, counts)
            insert_children(self.session, [(row_id(incident), entry)], self.view)
            return incident
        stored = over.entry if over is not None else stored_incident(self.session, incident, self._refs)
        if stored == entry:
            counts.unchanged += 1
            return incident
        for name, value in values.items():
            setattr(incident, name, value)
        self.session.flush()
        replace_children(self.session, row_id(incident), entry, self.view, over.children if over else None)
        counts.changed += 1
        return incident


class BulkWriter:
    """Writes many entries into one scope with a few statements per ``BATCH`` of them: an import's path.

    ``own`` holds the scope's rows (removed or not) with the slugs being written, as the caller found
    them; one ``GuildView`` resolves every reference. New rows go in with batched INSERTs, changed ones
    are updated in place and an incident's children replaced, all batched. ``revise`` bumps each
    written row's revision (curation's rule; the shared scope keeps its own). Never commits.
    """

    def __init__(
        self, session: Session, guild_id: int, own: dict[type[EntryRow], dict[str, EntryRow]], *, revise: bool
    ) -> None:
        self.session = session
        self.guild_id = guild_id
        self.view = GuildView(session, guild_id)
        for table in REFERRED:
            self.view.ids(table)  # every slug at once: references are resolved by the thousand
        self._own = own
        self._revise = revise

    def write(self, entries: Sequence[Entry], *, rewrite: Callable[[Entry], bool]) -> None:
        """Store ``entries`` (one kind, no two with one slug) as the scope's live rows; ``rewrite`` says
        whether an entry with a row already stored differs from it (else only its revision and removal
        are written)."""
        if not entries:
            return
        table = entry_values(entries[0], self.view)[0]
        own = self._own.get(table, {})
        new = [entry for entry in entries if slug_of(entry) not in own]
        ids = self._insert(table, new)
        ids.update(self._update([(own[slug_of(e)], e) for e in entries if slug_of(e) in own], rewrite))
        for slug, written in ids.items():
            self.view.ids(table)[slug] = written
        incidents = [e for e in entries if isinstance(e, IncidentEntry) and (e.slug not in own or rewrite(e))]
        insert_children(self.session, [(ids[entry.slug], entry) for entry in incidents], self.view, copy=True)

    def _insert(self, table: type[EntryRow], entries: Sequence[Entry]) -> dict[str, int]:
        """Insert a row per entry; returns their ids by slug."""
        rows = [
            {**_identity(table, self.guild_id, slug_of(entry)), **entry_values(entry, self.view)[1]}
            | {"revision": 1, "removed_at": None}
            for entry in entries
        ]
        slug = slug_column(table)
        ids: dict[str, int] = {}
        for batch in _batches(rows):
            statement = insert(table).returning(col(table.id), slug, sort_by_parameter_order=True)
            ids.update({key: row_id for row_id, key in self.session.execute(statement, batch)})
        return ids

    def _update(
        self, rows: Sequence[tuple[EntryRow, Entry]], rewrite: Callable[[Entry], bool]
    ) -> dict[str, int]:
        """Update the scope's rows to their entries; returns their ids by slug."""
        changed = [row_id(row) for row, entry in rows if isinstance(row, Incident) and rewrite(entry)]
        for row, entry in rows:
            if rewrite(entry):
                for name, value in entry_values(entry, self.view)[1].items():
                    setattr(row, name, value)
            if self._revise:
                row.revision += 1
            row.removed_at = None
        self.session.flush()
        delete_children(self.session, changed)
        return {slug_of(row): row_id(row) for row, _ in rows}


def load_dataset(session: Session, dataset: Dataset, *, guild_id: int = SHARED_GUILD) -> LoadReport:
    """Upsert every entry into ``guild_id``'s scope by slug (``key`` for sources); does not commit.

    An incident whose stored form differs from the file gets its columns updated and its child rows
    (source links, participants, motions with positions, quotes, rulings) replaced. Rows of the scope
    that the file does not mention are left alone. A guild's file may refer to shared entries it does
    not include: references resolve to the guild's own entry first, then the shared one.
    """
    report = LoadReport()
    writer = ScopeWriter(session, guild_id)
    writer.read_scope()
    entries: list[tuple[Sequence[Entry], KindCounts]] = [
        (dataset.chambers, report.chambers),
        (dataset.parties, report.parties),
        (dataset.people, report.people),
        (dataset.sources, report.sources),
        (dataset.incidents, report.incidents),
        (dataset.terms, report.terms),  # after the incidents they are linked with
        (dataset.questions, report.questions),
    ]
    for kind, counts in entries:
        for entry in kind:
            writer.write(entry, counts)
    return report


@contextmanager
def collector_paused(*, keep: bool = False) -> Iterator[None]:
    """Pause Python's cyclic garbage collector while building or writing hundreds of thousands of
    small objects, none of them in a cycle: otherwise full collections, each over everything built so
    far, make the work grow with the square of its size.

    With ``keep``, what the block built stays for the process's life: it is frozen (``gc.freeze``)
    before the collector resumes, so no full collection walks it again (the first, right after the
    block, took a second at 10k incidents, and each later one as long); ``gc.unfreeze`` hands it back.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
        if keep:
            gc.freeze()
    finally:
        if enabled:
            gc.enable()


def delete_row(session: Session, row: EntryRow) -> None:
    """Delete a row of the scope, an incident with its children; rows referring to it must go first."""
    if isinstance(row, Incident):
        delete_children(session, [row_id(row)])
    session.delete(row)
    session.flush()


def _batches(rows: Sequence[_T], size: int = BATCH) -> Iterator[Sequence[_T]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


CHILD_TABLES: tuple[type[IncidentSource | Participant | MotionRow | Quote | Ruling], ...] = (
    IncidentSource,
    Participant,
    MotionRow,
    Quote,
    Ruling,
)
"""The tables of an incident's children (a motion's positions go with the motions)."""


def delete_children(
    session: Session, incident_ids: Sequence[int], tables: Collection[type[SQLModel]] = CHILD_TABLES
) -> None:
    """Delete the child rows of these incidents in ``tables`` (``MotionRow``: with their positions)."""
    for batch in _batches(incident_ids):
        if MotionRow in tables:
            motions = select(MotionRow.id).where(col(MotionRow.incident_id).in_(batch))
            session.execute(delete(Position).where(col(Position.motion_id).in_(motions)))
        for table in CHILD_TABLES:
            if table in tables:
                session.execute(delete(table).where(col(table.incident_id).in_(batch)))


def replace_children(
    session: Session, incident_id: int, entry: IncidentEntry, view: GuildView, stored: IncidentRows | None
) -> None:
    """Make the incident's child rows those ``entry`` gives. With ``stored``, its rows as read, only the
    tables whose rows differ (references resolved in ``view``, so a reference that now resolves to
    another row counts) are deleted and inserted again: the others keep their rows and ids."""
    if stored is None:
        tables: Collection[type[SQLModel]] = CHILD_TABLES
    else:
        wanted: dict[type[SQLModel], list[dict[str, Any]]] = defaultdict(list)
        for table, values in _child_rows(incident_id, entry, view):
            wanted[table].append(values)
        positions = [[_position_values(p, view) for p in motion.positions] for motion in entry.motions]
        held = stored.positions
        had: dict[type[SQLModel], Sequence[SQLModel]] = {
            IncidentSource: stored.links,
            Participant: stored.participants,
            MotionRow: stored.motions,
            Quote: stored.quotes,
            Ruling: stored.rulings,
        }
        tables = {table for table in CHILD_TABLES if not _same_rows(had[table], wanted[table])}
        if MotionRow not in tables and not all(
            _same_rows(held[row_id(motion)], taken)
            for motion, taken in zip(stored.motions, positions, strict=True)
        ):
            tables.add(MotionRow)
    delete_children(session, [incident_id], tables)
    insert_children(session, [(incident_id, entry)], view, tables=tables)


def _same_rows(rows: Sequence[SQLModel], wanted: Sequence[dict[str, Any]]) -> bool:
    """Whether stored ``rows`` hold ``wanted``'s values, one for one."""
    return len(rows) == len(wanted) and all(
        all(getattr(row, name) == value for name, value in values.items())
        for row, values in zip(rows, wanted, strict=True)
    )


def insert_children(
    session: Session,
    incidents: Sequence[tuple[int, IncidentEntry]],
    view: GuildView,
    *,
    copy: bool = False,
    tables: Collection[type[SQLModel]] = CHILD_TABLES,
) -> None:
    """Insert the child rows in ``tables`` of incidents (by id) as their entries give them, batched by
    table (``copy``: see ``insert_rows``).

    Motions go in in entry order, so ids keep the order they are exported in, and their positions
    after them.
    """
    rows: dict[type[SQLModel], list[dict[str, Any]]] = defaultdict(list)
    positions: list[list[PositionEntry]] = []
    for incident_id, entry in incidents:
        for table, values in _child_rows(incident_id, entry, view):
            if table in tables:
                rows[table].append(values)
        if MotionRow in tables:
            positions.extend(motion.positions for motion in entry.motions)
    for table, table_rows in rows.items():
        if table is not MotionRow:
            insert_rows(session, table, table_rows, copy=copy)
    motion_ids: list[int] = []
    for batch in _batches(rows[MotionRow]):
        statement = insert(MotionRow).returning(col(MotionRow.id), sort_by_parameter_order=True)
        motion_ids.extend(session.execute(statement, batch).scalars())
    position_rows = [
        {"motion_id": motion_id, **_position_values(position, view)}
        for motion_id, motion_positions in zip(motion_ids, positions, strict=True)
        for position in motion_positions
    ]
    insert_rows(session, Position, position_rows, copy=copy)


def _position_values(position: PositionEntry, view: GuildView) -> dict[str, Any]:
    """A position's row but its motion's id."""
    return {
        "person_id": view.person(position.person),
        "party_id": view.party(position.party),
        "source_id": view.source(position.source),
        **same_named(position, Position),
    }


def insert_rows(
    session: Session, table: type[SQLModel], rows: Sequence[dict[str, Any]], *, copy: bool = False
) -> None:
    """Insert ``rows`` (all with the same columns) into ``table`` in batches of executemany; with
    ``copy``, on PostgreSQL, in one COPY (psycopg's executemany sends an INSERT per row)."""
    if not rows:
        return
    columns: Table = table.__table__  # type: ignore[attr-defined]
    connection = session.connection()
    if not copy or connection.dialect.name != "postgresql":
        for batch in _batches(rows):
            session.execute(insert(columns), batch)
        return
    names = list(rows[0])
    # What SQLAlchemy would bind: JSON as its text, a vocabulary's member as its value.
    dialect = connection.dialect
    processors = [columns.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in names]
    listed = ", ".join(f'"{name}"' for name in names)
    driver: Any = connection.connection.driver_connection
    with driver.cursor() as cursor, cursor.copy(f'COPY "{columns.name}" ({listed}) FROM STDIN') as stream:
        for row in rows:
            stream.write_row(
                [
                    value if process is None else process(value)
                    for process, value in zip(processors, row.values(), strict=True)
                ]
            )


def _child_rows(
    incident_id: int, entry: IncidentEntry, view: GuildView
) -> Iterator[tuple[type[SQLModel], dict[str, Any]]]:
    """The rows of one incident's children but positions, as (table, columns)."""
    for rank, key in enumerate(entry.sources):
        yield IncidentSource, {"incident_id": incident_id, "source_id": view.source(key), "rank": rank}
    for rank, participant in enumerate(entry.participants):
        yield (
            Participant,
            {
                "incident_id": incident_id,
                "person_id": view.person(participant.person),
                "party_id": view.party(participant.party),
                "rank": rank,
                **same_named(participant, Participant),
            },
        )
    for motion in entry.motions:
        yield (
            MotionRow,
            {
                "incident_id": incident_id,
                "moved_by_id": view.person(motion.moved_by),
                "source_id": view.source(motion.source),
                **same_named(motion, MotionRow),
            },
        )
    for rank, quote in enumerate(entry.quotes):
        yield (
            Quote,
            {
                "incident_id": incident_id,
                "person_id": view.person(quote.speaker),
                "source_id": view.source(quote.source),
                "rank": rank,
                **same_named(quote, Quote),
            },
        )
    for rank, ruling in enumerate(entry.rulings):
        yield (
            Ruling,
            {
                "incident_id": incident_id,
                "ruled_by_id": view.person(ruling.ruled_by),
                "subject_id": view.person(ruling.subject),
                "source_id": view.source(ruling.source),
                "rank": rank,
                **same_named(ruling, Ruling),
            },
        )
