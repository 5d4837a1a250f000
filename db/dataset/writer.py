"""Writing entries into one scope (a guild, or the shared dataset), upserting by slug."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, delete, select

from db.dataset.reader import SlugsById, stored_incident
from db.dataset.rows import EntryRow, GuildView, ScopeRow, row_id, same_named, scope_rows, slug_of
from db.dataset.schema import (
    Dataset,
    Entry,
    IncidentEntry,
    PartyEntry,
    PersonEntry,
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


class ScopeWriter:
    """Writes entries into one guild's scope, upserting by slug; references resolve in the guild's view.

    ``load_dataset`` writes a whole file with it and curation one entry at a time. Never commits.
    """

    def __init__(self, session: Session, guild_id: int) -> None:
        self.session = session
        self.guild_id = guild_id
        self.view = GuildView(session, guild_id)
        self._refs = SlugsById(session)
        self._own: dict[type[EntryRow], dict[str, Any]] = {}

    def write(self, entry: Entry, counts: KindCounts | None = None) -> EntryRow:
        """Add ``entry`` as a row of the scope, or update the scope's row with its slug."""
        counts = KindCounts() if counts is None else counts
        row: EntryRow
        if isinstance(entry, IncidentEntry):
            row = self._incident(entry, counts)
        elif isinstance(entry, PersonEntry):
            values = {"name": entry.name, "aliases": entry.aliases, "party_id": self.view.party(entry.party)}
            row = self._upsert(Person, entry.slug, values, counts)
        elif isinstance(entry, TermEntry):
            values = {
                **entry.model_dump(exclude={"slug", "source"}),
                "source_id": self.view.source(entry.source),
            }
            row = self._upsert(Term, entry.slug, values, counts)
        elif isinstance(entry, SourceEntry):
            row = self._upsert(Source, entry.key, entry.model_dump(exclude={"key"}), counts)
        elif isinstance(entry, PartyEntry):
            row = self._upsert(Party, entry.slug, entry.model_dump(exclude={"slug"}), counts)
        elif isinstance(entry, QuestionEntry):
            values = {
                **entry.model_dump(include={"prompt", "answer", "wrong"}),
                "source_id": self.view.source(entry.source),
            }
            row = self._upsert(CustomQuestion, entry.slug, values, counts)
        else:
            row = self._upsert(Chamber, entry.slug, entry.model_dump(exclude={"slug"}), counts)
        self.view.register(row)
        return row

    def _rows(self, table: type[ScopeRow]) -> dict[str, ScopeRow]:
        if table not in self._own:
            self._own[table] = {slug_of(row): row for row in scope_rows(self.session, table, self.guild_id)}
        rows: dict[str, ScopeRow] = self._own[table]
        return rows

    def _upsert(
        self, table: type[ScopeRow], slug: str, values: dict[str, Any], counts: KindCounts
    ) -> ScopeRow:
        """Add a row made of ``slug`` and ``values`` when there is none, else update what differs."""
        rows = self._rows(table)
        row = rows.get(slug)
        if row is None:
            identity: dict[str, Any] = {"guild_id": self.guild_id, "key" if table is Source else "slug": slug}
            row = rows[slug] = table(**identity, **values)
            self.session.add(row)
            self.session.flush()
            counts.added += 1
        elif all(getattr(row, name) == value for name, value in values.items()):
            counts.unchanged += 1
        else:
            for name, value in values.items():
                setattr(row, name, value)
            counts.changed += 1
        return row

    def _incident(self, entry: IncidentEntry, counts: KindCounts) -> Incident:
        plain = {name: value for name, value in same_named(entry, Incident).items() if name != "slug"}
        values = {**plain, "aliases": list(entry.aliases), "chamber_id": self.view.chamber(entry.chamber)}
        rows = self._rows(Incident)
        incident = rows.get(entry.slug)
        if incident is None:
            incident = rows[entry.slug] = Incident(guild_id=self.guild_id, slug=entry.slug, **values)
            self.session.add(incident)
            self.session.flush()
            counts.added += 1
        elif stored_incident(self.session, incident, self._refs) == entry:
            counts.unchanged += 1
            return incident
        else:
            for name, value in values.items():
                setattr(incident, name, value)
            _delete_children(self.session, row_id(incident))
            counts.changed += 1
        _add_children(self.session, row_id(incident), entry, self.view)
        self.session.flush()
        return incident


def load_dataset(session: Session, dataset: Dataset, *, guild_id: int = SHARED_GUILD) -> LoadReport:
    """Upsert every entry into ``guild_id``'s scope by slug (``key`` for sources); does not commit.

    An incident whose stored form differs from the file gets its columns updated and its child rows
    (source links, participants, motions with positions, quotes, rulings) replaced. Rows of the scope
    that the file does not mention are left alone. A guild's file may refer to shared entries it does
    not include: references resolve to the guild's own entry first, then the shared one.
    """
    report = LoadReport()
    writer = ScopeWriter(session, guild_id)
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


def delete_row(session: Session, row: EntryRow) -> None:
    """Delete a row of the scope, an incident with its children; rows referring to it must go first."""
    if isinstance(row, Incident):
        _delete_children(session, row_id(row))
    session.delete(row)
    session.flush()


def _delete_children(session: Session, incident_id: int) -> None:
    motions = select(MotionRow.id).where(MotionRow.incident_id == incident_id)
    session.exec(delete(Position).where(col(Position.motion_id).in_(motions)))
    session.exec(delete(MotionRow).where(col(MotionRow.incident_id) == incident_id))
    session.exec(delete(Participant).where(col(Participant.incident_id) == incident_id))
    session.exec(delete(Quote).where(col(Quote.incident_id) == incident_id))
    session.exec(delete(Ruling).where(col(Ruling.incident_id) == incident_id))
    session.exec(delete(IncidentSource).where(col(IncidentSource.incident_id) == incident_id))


def _add_children(session: Session, incident_id: int, entry: IncidentEntry, view: GuildView) -> None:
    for rank, key in enumerate(entry.sources):
        session.add(IncidentSource(incident_id=incident_id, source_id=view.source(key), rank=rank))
    for rank, participant in enumerate(entry.participants):
        session.add(
            Participant(
                incident_id=incident_id,
                person_id=view.ids(Person)[participant.person],
                party_id=view.party(participant.party),
                rank=rank,
                **same_named(participant, Participant),
            )
        )
    for motion in entry.motions:
        row = MotionRow(
            incident_id=incident_id,
            moved_by_id=view.person(motion.moved_by),
            source_id=view.source(motion.source),
            **same_named(motion, MotionRow),
        )
        session.add(row)
        session.flush()  # positions need the motion's id, and motions are exported in id order
        for position in motion.positions:
            session.add(
                Position(
                    motion_id=row_id(row),
                    person_id=view.person(position.person),
                    party_id=view.party(position.party),
                    source_id=view.source(position.source),
                    **same_named(position, Position),
                )
            )
    for rank, quote in enumerate(entry.quotes):
        session.add(
            Quote(
                incident_id=incident_id,
                person_id=view.person(quote.speaker),
                source_id=view.source(quote.source),
                rank=rank,
                **same_named(quote, Quote),
            )
        )
    for rank, ruling in enumerate(entry.rulings):
        session.add(
            Ruling(
                incident_id=incident_id,
                ruled_by_id=view.person(ruling.ruled_by),
                subject_id=view.person(ruling.subject),
                source_id=view.source(ruling.source),
                rank=rank,
                **same_named(ruling, Ruling),
            )
        )
