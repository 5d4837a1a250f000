"""Reading stored rows back as entries, and exporting a scope as a dataset."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import (
    ValidationError,
)
from sqlmodel import Session, col, select

from db.cleaning import reading_stored
from db.dataset.rows import EntryRow, ScopeRow, row_id, same_named, scope_rows, slug_of
from db.dataset.schema import (
    FORMAT,
    FORMAT_VERSION,
    UNVERSIONED,
    ChamberEntry,
    Dataset,
    Entry,
    IncidentEntry,
    MotionEntry,
    ParticipantEntry,
    PartyEntry,
    PersonEntry,
    PositionEntry,
    QuestionEntry,
    QuoteEntry,
    RulingEntry,
    SourceEntry,
    TermEntry,
    parse_dataset,
)
from db.models import (
    SHARED_GUILD,
    Chamber,
    CustomQuestion,
    DatasetVersion,
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


class SlugsById:
    """Turns row ids back into slugs, remembering every row it was asked about.

    ``read`` fetches many rows of a table in one statement, before their slugs are asked for one by one;
    the rows stay remembered for every later read through the same instance (a write reads its entry
    before and after, say). A slug never changes, so a remembered row always names its id rightly.
    """

    def __init__(self, session: Session) -> None:
        self._session = session
        self.chambers: dict[int, Chamber] = {}
        self.parties: dict[int, Party] = {}
        self.people: dict[int, Person] = {}
        self.sources: dict[int, Source] = {}

    def chamber(self, row_id: int) -> str:
        return self._get(Chamber, row_id, self.chambers).slug

    def party(self, row_id: int | None) -> str | None:
        return None if row_id is None else self._get(Party, row_id, self.parties).slug

    def person(self, row_id: int) -> str:
        return self._get(Person, row_id, self.people).slug

    def maybe_person(self, row_id: int | None) -> str | None:
        return None if row_id is None else self.person(row_id)

    def source(self, row_id: int) -> str:
        return self._get(Source, row_id, self.sources).key

    def read(
        self,
        *,
        chambers: Iterable[int | None] = (),
        parties: Iterable[int | None] = (),
        people: Iterable[int | None] = (),
        sources: Iterable[int | None] = (),
    ) -> None:
        """Fetch the rows of these ids not remembered yet: one statement per table that has any."""
        self._read(Chamber, chambers, self.chambers)
        self._read(Party, parties, self.parties)
        self._read(Person, people, self.people)
        self._read(Source, sources, self.sources)

    def _read(self, table: type[ScopeRow], ids: Iterable[int | None], seen: dict[int, ScopeRow]) -> None:
        wanted = {number for number in ids if number is not None and number not in seen}
        if wanted:
            rows = self._session.exec(select(table).where(col(table.id).in_(wanted)))
            seen.update((row_id(row), row) for row in rows)

    def _get(self, table: type[ScopeRow], row_id: int, seen: dict[int, ScopeRow]) -> ScopeRow:
        if row_id not in seen:
            row = self._session.get(table, row_id)
            if row is None:
                raise LookupError(f"no {table.__name__} row with id {row_id}")
            seen[row_id] = row
        return seen[row_id]


def _children(session: Session, table: type[Any], incident_id: int, *order: Any) -> list[Any]:
    return list(session.exec(select(table).where(table.incident_id == incident_id).order_by(*order)))


def _positions(session: Session, motions: list[MotionRow]) -> dict[int, list[Position]]:
    """The positions taken on each of ``motions``, by motion id, in the order they were stored."""
    by_motion: dict[int, list[Position]] = {row_id(motion): [] for motion in motions}
    if by_motion:
        statement = select(Position).where(col(Position.motion_id).in_(by_motion)).order_by(col(Position.id))
        for position in session.exec(statement):
            by_motion[position.motion_id].append(position)
    return by_motion


@dataclass(frozen=True, slots=True)
class IncidentRows:
    """An incident's child rows as stored, each table in the order its entry lists them."""

    links: list[IncidentSource]
    participants: list[Participant]
    motions: list[MotionRow]
    quotes: list[Quote]
    rulings: list[Ruling]
    positions: dict[int, list[Position]]  # by motion id

    @classmethod
    def read(cls, session: Session, incident_id: int) -> IncidentRows:
        """A statement per table (positions: one for all the motions, if any)."""
        motions: list[MotionRow] = _children(session, MotionRow, incident_id, col(MotionRow.id))
        return cls(
            links=_children(
                session, IncidentSource, incident_id, col(IncidentSource.rank), col(IncidentSource.source_id)
            ),
            participants=_children(
                session, Participant, incident_id, col(Participant.rank), col(Participant.id)
            ),
            motions=motions,
            quotes=_children(session, Quote, incident_id, col(Quote.rank), col(Quote.id)),
            rulings=_children(session, Ruling, incident_id, col(Ruling.rank), col(Ruling.id)),
            positions=_positions(session, motions),
        )


@dataclass(frozen=True, slots=True)
class StoredRow:
    """A row of a scope as read, with the entry it holds and, for an incident, its child rows: what a
    write that rewrites the row compares with, so that it writes only what differs."""

    row: EntryRow
    entry: Entry
    children: IncidentRows | None = None


def _incident_entry(session: Session, incident: Incident, refs: SlugsById) -> IncidentEntry:
    return _incident_of(incident, IncidentRows.read(session, row_id(incident)), refs)


def _incident_of(incident: Incident, children: IncidentRows, refs: SlugsById) -> IncidentEntry:
    """The file form of a stored incident (raises ``ValidationError`` if the rows break the format).

    The rows they refer to (people, parties, sources) are read once each: a few statements whatever
    the incident holds."""
    links, participants, motions = children.links, children.participants, children.motions
    quotes, rulings, positions = children.quotes, children.rulings, children.positions
    stances = [position for taken in positions.values() for position in taken]
    refs.read(
        chambers=[incident.chamber_id],
        parties=[*(row.party_id for row in participants), *(row.party_id for row in stances)],
        people=[
            *(row.person_id for row in participants),
            *(row.person_id for row in quotes),
            *(row.person_id for row in stances),
            *(row.moved_by_id for row in motions),
            *(person for row in rulings for person in (row.ruled_by_id, row.subject_id)),
        ],
        sources=[
            *(row.source_id for row in links),
            *(row.source_id for row in motions),
            *(row.source_id for row in quotes),
            *(row.source_id for row in rulings),
            *(row.source_id for row in stances),
        ],
    )
    return IncidentEntry(
        **same_named(incident, IncidentEntry),
        chamber=refs.chamber(incident.chamber_id),
        sources=[refs.source(link.source_id) for link in links],
        participants=[
            ParticipantEntry(
                person=refs.person(row.person_id),
                party=refs.party(row.party_id),
                **same_named(row, ParticipantEntry),
            )
            for row in participants
        ],
        motions=[
            MotionEntry(
                moved_by=refs.maybe_person(row.moved_by_id),
                source=refs.source(row.source_id),
                positions=[
                    PositionEntry(
                        person=refs.maybe_person(position.person_id),
                        party=refs.party(position.party_id),
                        source=refs.source(position.source_id),
                        **same_named(position, PositionEntry),
                    )
                    for position in positions[row_id(row)]
                ],
                **same_named(row, MotionEntry),
            )
            for row in motions
        ],
        quotes=[
            QuoteEntry(
                speaker=refs.maybe_person(row.person_id),
                source=refs.source(row.source_id),
                **same_named(row, QuoteEntry),
            )
            for row in quotes
        ],
        rulings=[
            RulingEntry(
                ruled_by=refs.maybe_person(row.ruled_by_id),
                subject=refs.maybe_person(row.subject_id),
                source=refs.source(row.source_id),
                **same_named(row, RulingEntry),
            )
            for row in rulings
        ],
    )


def stored_incident(session: Session, incident: Incident, refs: SlugsById) -> IncidentEntry | None:
    """``_incident_entry``, or None when the stored rows do not form a valid entry (so: changed)."""
    try:
        return _incident_entry(session, incident, refs)
    except ValidationError:
        return None


def stored_entry(session: Session, row: EntryRow, refs: SlugsById | None = None) -> Entry:
    """The file form of one stored row (``read_stored``'s entry)."""
    return read_stored(session, row, refs).entry


def read_stored(session: Session, row: EntryRow, refs: SlugsById | None = None) -> StoredRow:
    """One stored row read back: the file form of its entry (an incident with its children), its text as
    stored, with an incident's child rows. ``refs`` keeps the rows it refers to for the caller's next
    read."""
    refs = SlugsById(session) if refs is None else refs
    with reading_stored():
        if not isinstance(row, Incident):
            return StoredRow(row, _entry(session, row, refs))
        children = IncidentRows.read(session, row_id(row))
        return StoredRow(row, _incident_of(row, children, refs), children)


def _entry(session: Session, row: EntryRow, refs: SlugsById) -> Entry:
    if isinstance(row, Incident):
        return _incident_entry(session, row, refs)
    if isinstance(row, Person):
        return PersonEntry(
            slug=row.slug, name=row.name, aliases=list(row.aliases), party=refs.party(row.party_id)
        )
    if isinstance(row, Source):
        return SourceEntry.model_validate(row, from_attributes=True)
    if isinstance(row, Term):
        return TermEntry(source=refs.source(row.source_id), **same_named(row, TermEntry))
    if isinstance(row, Party):
        return PartyEntry.model_validate(row, from_attributes=True)
    if isinstance(row, CustomQuestion):
        return QuestionEntry(
            slug=row.slug,
            prompt=row.prompt,
            answer=row.answer,
            wrong=list(row.wrong),
            source=refs.source(row.source_id),
        )
    return ChamberEntry.model_validate(row, from_attributes=True)


def export_dataset(session: Session, *, guild_id: int = SHARED_GUILD) -> Dataset:
    """The scope's rows, removed ones left out, as a self-contained dataset.

    The scope's quiz questions come too. Entries of other scopes that the scope's rows refer to (a
    guild's incident citing a shared person, a guild's term linked with a shared incident, a question
    citing a shared source, say) are included so the file validates on its own;
    the scope's own entry wins over another with its slug. ``dataset_version`` is the scope's recorded
    ``DatasetVersion``, or ``UNVERSIONED``. Text is exported as stored (``reading_stored``).
    """
    with reading_stored():
        return _export(session, guild_id)


def _export(session: Session, guild_id: int) -> Dataset:
    refs = SlugsById(session)
    terms = [_entry(session, row, refs) for row in scope_rows(session, Term, guild_id, removed=False)]
    incident_rows = {row.slug: row for row in _linked_incidents(session, terms, guild_id)}
    incident_rows |= {row.slug: row for row in scope_rows(session, Incident, guild_id, removed=False)}
    incidents = [_entry(session, row, refs) for row in incident_rows.values()]
    questions = [
        _entry(session, row, refs) for row in scope_rows(session, CustomQuestion, guild_id, removed=False)
    ]

    def entries(table: type[ScopeRow], referred: dict[int, ScopeRow]) -> list[Entry]:
        rows = {slug_of(row): row for row in referred.values()}
        rows |= {slug_of(row): row for row in scope_rows(session, table, guild_id, removed=False)}
        return [_entry(session, row, refs) for row in rows.values()]

    people = entries(Person, refs.people)  # before parties: a person may refer to one more
    recorded = session.get(DatasetVersion, guild_id)
    return parse_dataset(
        {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "dataset_version": UNVERSIONED if recorded is None else recorded.version,
            "chambers": entries(Chamber, refs.chambers),
            "parties": entries(Party, refs.parties),
            "people": people,
            "sources": entries(Source, refs.sources),
            "incidents": incidents,
            "terms": terms,
            "questions": questions,
        }
    )


def _linked_incidents(session: Session, terms: Iterable[Entry], guild_id: int) -> list[Incident]:
    """The incidents the guild sees that ``terms`` are linked with (its own first, else the shared)."""
    slugs = {slug for term in terms if isinstance(term, TermEntry) for slug in term.incidents}
    if not slugs:
        return []
    statement = (
        select(Incident)
        .where(col(Incident.slug).in_(slugs), col(Incident.guild_id).in_({SHARED_GUILD, guild_id}))
        .order_by(col(Incident.guild_id))
    )
    rows = {row.slug: row for row in session.exec(statement)}
    return [row for row in rows.values() if row.removed_at is None]
