"""The dataset file (format version 1): its pydantic models, validator, loader and exporter.

A dataset is one JSON document of chambers, parties, people, sources and incidents that refer to one
another by slug (``key`` for sources); ``docs/DATASET.md`` describes it field by field. The same format
serves the shipped file (``SHIPPED_DATASET``), ``parlbot db export`` and imports.

Any ``Dataset`` instance is valid: every reference resolves, slugs are unique, and the top-level
lists are sorted by slug so that a parsed file and an export of the same rows compare equal. Order
inside an incident (sources, participants, motions, quotes, rulings) is meaningful and kept.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)
from sqlmodel import Session, col, delete, select

from db.models import (
    LABEL_MAX,
    NAME_MAX,
    SHARED_GUILD,
    SLUG_MAX,
    TEXT_MAX,
    TITLE_MAX,
    URL_MAX,
    Attribution,
    Chamber,
    DatasetVersion,
    Delivery,
    Incident,
    IncidentKind,
    IncidentSource,
    MotionResult,
    Participant,
    Party,
    Person,
    Position,
    Procedure,
    Quote,
    Ruling,
    RulingOutcome,
    Source,
    Stance,
)
from db.models import Motion as MotionRow

if TYPE_CHECKING:
    from db.session import Database

FORMAT = "parlbot-dataset"
FORMAT_VERSION = 1
SHIPPED_DATASET = Path(__file__).resolve().parent / "data" / "dataset.json"
UNVERSIONED = "unversioned"
"""``dataset_version`` of an export from a scope that has no ``DatasetVersion`` row."""

ABBREVIATION_MAX = 32  # Party.abbreviation / abbreviation_fr
VERSION_MAX = 64  # DatasetVersion.version

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso_date(value: object) -> object:
    """Accept only ``YYYY-MM-DD`` strings (or dates): pydantic would also take Unix timestamps."""
    if isinstance(value, dt.date) or (isinstance(value, str) and _ISO_DATE.fullmatch(value)):
        return value
    raise ValueError("expected a date written YYYY-MM-DD")


Slug = Annotated[
    str, StringConstraints(min_length=1, max_length=SLUG_MAX, pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
]
Name = Annotated[str, StringConstraints(min_length=1, max_length=NAME_MAX)]
Title = Annotated[str, StringConstraints(min_length=1, max_length=TITLE_MAX)]
Label = Annotated[str, StringConstraints(min_length=1, max_length=LABEL_MAX)]
Text = Annotated[str, StringConstraints(min_length=1, max_length=TEXT_MAX)]
Abbreviation = Annotated[str, StringConstraints(min_length=1, max_length=ABBREVIATION_MAX)]
Url = Annotated[str, StringConstraints(max_length=URL_MAX, pattern=r"^https?://\S+$")]
Date = Annotated[dt.date, BeforeValidator(_iso_date)]


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ChamberEntry(_Entry):
    slug: Slug
    name: Name
    name_fr: Name | None = None
    legislature: Name
    country: Name


class PartyEntry(_Entry):
    slug: Slug
    name: Name
    name_fr: Name | None = None
    abbreviation: Abbreviation | None = None
    abbreviation_fr: Abbreviation | None = None
    country: Name
    aliases: list[Name] = Field(default_factory=list)


class PersonEntry(_Entry):
    slug: Slug
    name: Name
    aliases: list[Name] = Field(default_factory=list)
    party: Slug | None = None


class SourceEntry(_Entry):
    key: Slug
    url: Url | None = None
    title: Label | None = None
    publisher: Name
    published: Date | None = None
    licence: Name | None = None
    excerpt: Name | None = None


class ParticipantEntry(_Entry):
    person: Slug
    role: Label
    party: Slug | None = None
    party_label: Label | None = None


class PositionEntry(_Entry):
    person: Slug | None = None
    party: Slug | None = None
    label: Label
    stance: Stance
    attribution: Attribution
    detail: Text | None = None
    source: Slug


class MotionEntry(_Entry):
    text: Text
    moved_by: Slug | None = None
    moved_by_label: Label | None = None
    procedure: Procedure
    result: MotionResult
    result_detail: Text | None = None
    source: Slug
    positions: list[PositionEntry] = Field(default_factory=list)


class QuoteEntry(_Entry):
    speaker: Slug | None
    speaker_label: Label
    text: Text
    said_to: Label | None = None
    context: Text | None = None
    delivery: Delivery
    source: Slug


class RulingEntry(_Entry):
    ruled_by: Slug | None = None
    ruled_by_label: Label
    role: Label | None = None
    outcome: RulingOutcome
    summary: Text
    source: Slug


class IncidentEntry(_Entry):
    slug: Slug
    title: Title
    date: Date
    chamber: Slug
    kind: IncidentKind
    summary: Text
    notes: Text | None = None
    aliases: list[Name] = Field(default_factory=list)
    sources: list[Slug] = Field(min_length=1)
    participants: list[ParticipantEntry] = Field(default_factory=list)
    motions: list[MotionEntry] = Field(default_factory=list)
    quotes: list[QuoteEntry] = Field(default_factory=list)
    rulings: list[RulingEntry] = Field(default_factory=list)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a dataset, at a JSON path such as ``incidents[3].quotes[0].speaker``."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class DatasetError(ValueError):
    """A dataset that does not validate; ``problems`` lists every problem found, in file order."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        lines = [str(problem) for problem in self.problems]
        detail = lines[0] if len(lines) == 1 else "\n" + "\n".join(f"  {line}" for line in lines)
        super().__init__(f"invalid dataset: {detail}")


class Dataset(_Entry):
    format: Literal["parlbot-dataset"]
    version: Literal[1]
    dataset_version: Annotated[str, StringConstraints(min_length=1, max_length=VERSION_MAX)]
    chambers: list[ChamberEntry]
    parties: list[PartyEntry]
    people: list[PersonEntry]
    sources: list[SourceEntry]
    incidents: list[IncidentEntry]

    @model_validator(mode="after")
    def _references_resolve(self) -> Self:
        problems = _reference_problems(self)
        if problems:
            raise DatasetError(problems)
        self.chambers.sort(key=lambda entry: entry.slug)
        self.parties.sort(key=lambda entry: entry.slug)
        self.people.sort(key=lambda entry: entry.slug)
        self.sources.sort(key=lambda entry: entry.key)
        self.incidents.sort(key=lambda entry: entry.slug)
        return self


def _duplicates(where: str, attribute: str | None, values: Sequence[str | None]) -> list[Problem]:
    """A problem for each value seen before; ``attribute`` None means the list holds the values."""
    seen: set[str] = set()
    problems = []
    for index, value in enumerate(values):
        if value is None:
            continue
        if value in seen:
            path = f"{where}[{index}]" + ("" if attribute is None else f".{attribute}")
            problems.append(Problem(path, f"duplicate {attribute or 'entry'} {value!r}"))
        seen.add(value)
    return problems


def _reference_problems(dataset: Dataset) -> list[Problem]:
    """Unique slugs and resolvable references, reported with file-order paths."""
    problems = [
        *_duplicates("chambers", "slug", [entry.slug for entry in dataset.chambers]),
        *_duplicates("parties", "slug", [entry.slug for entry in dataset.parties]),
        *_duplicates("people", "slug", [entry.slug for entry in dataset.people]),
        *_duplicates("sources", "key", [entry.key for entry in dataset.sources]),
        *_duplicates("sources", "url", [entry.url for entry in dataset.sources]),
        *_duplicates("incidents", "slug", [entry.slug for entry in dataset.incidents]),
    ]
    chambers = {entry.slug for entry in dataset.chambers}
    parties = {entry.slug for entry in dataset.parties}
    people = {entry.slug for entry in dataset.people}
    sources = {entry.key for entry in dataset.sources}

    def check(path: str, value: str | None, known: set[str], what: str) -> None:
        if value is not None and value not in known:
            problems.append(Problem(path, f"unknown {what} {value!r}"))

    for index, person in enumerate(dataset.people):
        check(f"people[{index}].party", person.party, parties, "party")
    for index, incident in enumerate(dataset.incidents):
        at = f"incidents[{index}]"
        check(f"{at}.chamber", incident.chamber, chambers, "chamber")
        for position, key in enumerate(incident.sources):
            check(f"{at}.sources[{position}]", key, sources, "source")
        problems.extend(_duplicates(f"{at}.sources", None, incident.sources))
        cited = set(incident.sources)

        def cite(path: str, key: str, cited: set[str] = cited) -> None:
            if key not in sources:
                problems.append(Problem(path, f"unknown source {key!r}"))
            elif key not in cited:
                problems.append(Problem(path, f"source {key!r} is not listed in the incident's sources"))

        for n, participant in enumerate(incident.participants):
            check(f"{at}.participants[{n}].person", participant.person, people, "person")
            check(f"{at}.participants[{n}].party", participant.party, parties, "party")
        for n, motion in enumerate(incident.motions):
            check(f"{at}.motions[{n}].moved_by", motion.moved_by, people, "person")
            cite(f"{at}.motions[{n}].source", motion.source)
            for m, stand in enumerate(motion.positions):
                check(f"{at}.motions[{n}].positions[{m}].person", stand.person, people, "person")
                check(f"{at}.motions[{n}].positions[{m}].party", stand.party, parties, "party")
                cite(f"{at}.motions[{n}].positions[{m}].source", stand.source)
        for n, quote in enumerate(incident.quotes):
            check(f"{at}.quotes[{n}].speaker", quote.speaker, people, "person")
            cite(f"{at}.quotes[{n}].source", quote.source)
        for n, ruling in enumerate(incident.rulings):
            check(f"{at}.rulings[{n}].ruled_by", ruling.ruled_by, people, "person")
            cite(f"{at}.rulings[{n}].source", ruling.source)
    return problems


def _json_path(location: Sequence[int | str]) -> str:
    path = ""
    for part in location:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else part)
    return path


def _problems(error: ValidationError) -> list[Problem]:
    problems: list[Problem] = []
    for detail in error.errors():
        cause = detail.get("ctx", {}).get("error")
        if isinstance(cause, DatasetError):
            problems.extend(cause.problems)
        else:
            problems.append(Problem(_json_path(detail["loc"]), detail["msg"]))
    return problems


def parse_dataset(data: Any) -> Dataset:
    """Validate a decoded JSON document (or a mapping of entry objects) as a ``Dataset``."""
    try:
        return Dataset.model_validate(data)
    except ValidationError as error:
        raise DatasetError(_problems(error)) from None


def read_dataset(path: Path) -> Dataset:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise DatasetError([Problem("", f"{path} is not valid JSON: {error}")]) from None
    return parse_dataset(data)


def dump_dataset(dataset: Dataset) -> str:
    """The canonical text of a dataset: two-space indents, UTF-8 as is, nulls left out."""
    data = dataset.model_dump(mode="json", exclude_none=True)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def write_dataset(dataset: Dataset, path: Path) -> None:
    path.write_text(dump_dataset(dataset), encoding="utf-8")


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

    @property
    def kinds(self) -> dict[str, KindCounts]:
        return {
            "chambers": self.chambers,
            "parties": self.parties,
            "people": self.people,
            "sources": self.sources,
            "incidents": self.incidents,
        }

    @property
    def changed_anything(self) -> bool:
        return any(counts.added or counts.changed for counts in self.kinds.values())

    def __str__(self) -> str:
        return "; ".join(f"{kind}: {counts}" for kind, counts in self.kinds.items())


_Row = TypeVar("_Row", Chamber, Party, Person, Source, Incident)


def _scope(session: Session, table: type[_Row], guild_id: int) -> list[_Row]:
    return list(session.exec(select(table).where(col(table.guild_id) == guild_id).order_by(col(table.id))))


def _upsert(
    session: Session,
    table: type[_Row],
    row: _Row | None,
    identity: dict[str, Any],
    values: dict[str, Any],
    counts: KindCounts,
) -> _Row:
    """Add a row made of ``identity`` and ``values`` when there is none, else update what differs."""
    if row is None:
        row = table(**identity, **values)
        session.add(row)
        counts.added += 1
    elif all(getattr(row, name) == value for name, value in values.items()):
        counts.unchanged += 1
    else:
        for name, value in values.items():
            setattr(row, name, value)
        counts.changed += 1
    return row


def _id(row: Chamber | Party | Person | Source | Incident | MotionRow) -> int:
    if row.id is None:
        raise RuntimeError(f"{type(row).__name__} has no id: flush the session first")
    return row.id


@dataclass(frozen=True)
class _Ids:
    """Row ids by slug (by key for sources) in the scope being loaded."""

    chambers: dict[str, int]
    parties: dict[str, int]
    people: dict[str, int]
    sources: dict[str, int]

    def party(self, slug: str | None) -> int | None:
        return None if slug is None else self.parties[slug]

    def person(self, slug: str | None) -> int | None:
        return None if slug is None else self.people[slug]


def load_dataset(session: Session, dataset: Dataset, *, guild_id: int = SHARED_GUILD) -> LoadReport:
    """Upsert every entry into ``guild_id``'s scope by slug (``key`` for sources); does not commit.

    An incident whose stored form differs from the file gets its columns updated and its child rows
    (source links, participants, motions with positions, quotes, rulings) replaced. Rows of the scope
    that the file does not mention are left alone.
    """
    report = LoadReport()

    chambers = {row.slug: row for row in _scope(session, Chamber, guild_id)}
    for chamber in dataset.chambers:
        identity = {"guild_id": guild_id, "slug": chamber.slug}
        values = chamber.model_dump(exclude={"slug"})
        chambers[chamber.slug] = _upsert(
            session, Chamber, chambers.get(chamber.slug), identity, values, report.chambers
        )

    parties = {row.slug: row for row in _scope(session, Party, guild_id)}
    for party in dataset.parties:
        identity = {"guild_id": guild_id, "slug": party.slug}
        values = party.model_dump(exclude={"slug"})
        parties[party.slug] = _upsert(
            session, Party, parties.get(party.slug), identity, values, report.parties
        )
    session.flush()

    people = {row.slug: row for row in _scope(session, Person, guild_id)}
    for person in dataset.people:
        identity = {"guild_id": guild_id, "slug": person.slug}
        party_id = None if person.party is None else _id(parties[person.party])
        values = {"name": person.name, "aliases": person.aliases, "party_id": party_id}
        people[person.slug] = _upsert(
            session, Person, people.get(person.slug), identity, values, report.people
        )

    sources = {row.key: row for row in _scope(session, Source, guild_id)}
    for source in dataset.sources:
        identity = {"guild_id": guild_id, "key": source.key}
        values = source.model_dump(exclude={"key"})
        sources[source.key] = _upsert(
            session, Source, sources.get(source.key), identity, values, report.sources
        )
    session.flush()

    ids = _Ids(
        chambers={slug: _id(row) for slug, row in chambers.items()},
        parties={slug: _id(row) for slug, row in parties.items()},
        people={slug: _id(row) for slug, row in people.items()},
        sources={key: _id(row) for key, row in sources.items()},
    )
    existing = {row.slug: row for row in _scope(session, Incident, guild_id)}
    refs = _Refs(session)
    for entry in dataset.incidents:
        values = {
            **entry.model_dump(include={"title", "date", "kind", "summary", "notes", "aliases"}),
            "chamber_id": ids.chambers[entry.chamber],
        }
        incident = existing.get(entry.slug)
        if incident is None:
            incident = Incident(guild_id=guild_id, slug=entry.slug, **values)
            session.add(incident)
            session.flush()
            report.incidents.added += 1
        elif _stored_entry(session, incident, refs) == entry:
            report.incidents.unchanged += 1
            continue
        else:
            for name, value in values.items():
                setattr(incident, name, value)
            _delete_children(session, _id(incident))
            report.incidents.changed += 1
        _add_children(session, _id(incident), entry, ids)
    session.flush()
    return report


def _delete_children(session: Session, incident_id: int) -> None:
    motions = select(MotionRow.id).where(MotionRow.incident_id == incident_id)
    session.exec(delete(Position).where(col(Position.motion_id).in_(motions)))
    session.exec(delete(MotionRow).where(col(MotionRow.incident_id) == incident_id))
    session.exec(delete(Participant).where(col(Participant.incident_id) == incident_id))
    session.exec(delete(Quote).where(col(Quote.incident_id) == incident_id))
    session.exec(delete(Ruling).where(col(Ruling.incident_id) == incident_id))
    session.exec(delete(IncidentSource).where(col(IncidentSource.incident_id) == incident_id))


def _add_children(session: Session, incident_id: int, entry: IncidentEntry, ids: _Ids) -> None:
    for rank, key in enumerate(entry.sources):
        session.add(IncidentSource(incident_id=incident_id, source_id=ids.sources[key], rank=rank))
    for rank, participant in enumerate(entry.participants):
        session.add(
            Participant(
                incident_id=incident_id,
                person_id=ids.people[participant.person],
                party_id=ids.party(participant.party),
                role=participant.role,
                party_label=participant.party_label,
                rank=rank,
            )
        )
    for motion in entry.motions:
        row = MotionRow(
            incident_id=incident_id,
            text=motion.text,
            moved_by_id=ids.person(motion.moved_by),
            moved_by_label=motion.moved_by_label,
            procedure=motion.procedure,
            result=motion.result,
            result_detail=motion.result_detail,
            source_id=ids.sources[motion.source],
        )
        session.add(row)
        session.flush()  # positions need the motion's id, and motions are exported in id order
        for position in motion.positions:
            session.add(
                Position(
                    motion_id=_id(row),
                    person_id=ids.person(position.person),
                    party_id=ids.party(position.party),
                    label=position.label,
                    stance=position.stance,
                    attribution=position.attribution,
                    detail=position.detail,
                    source_id=ids.sources[position.source],
                )
            )
    for rank, quote in enumerate(entry.quotes):
        session.add(
            Quote(
                incident_id=incident_id,
                person_id=ids.person(quote.speaker),
                speaker_label=quote.speaker_label,
                text=quote.text,
                said_to=quote.said_to,
                context=quote.context,
                delivery=quote.delivery,
                source_id=ids.sources[quote.source],
                rank=rank,
            )
        )
    for rank, ruling in enumerate(entry.rulings):
        session.add(
            Ruling(
                incident_id=incident_id,
                ruled_by_id=ids.person(ruling.ruled_by),
                ruled_by_label=ruling.ruled_by_label,
                role=ruling.role,
                outcome=ruling.outcome,
                summary=ruling.summary,
                source_id=ids.sources[ruling.source],
                rank=rank,
            )
        )


class _Refs:
    """Turns row ids back into slugs, remembering every row it was asked about."""

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

    def _get(self, table: type[_Row], row_id: int, seen: dict[int, _Row]) -> _Row:
        if row_id not in seen:
            row = self._session.get(table, row_id)
            if row is None:
                raise LookupError(f"no {table.__name__} row with id {row_id}")
            seen[row_id] = row
        return seen[row_id]


def _children(session: Session, table: type[Any], incident_id: int, *order: Any) -> list[Any]:
    return list(session.exec(select(table).where(table.incident_id == incident_id).order_by(*order)))


def _incident_entry(session: Session, incident: Incident, refs: _Refs) -> IncidentEntry:
    """The file form of a stored incident (raises ``ValidationError`` if the rows break the format)."""
    incident_id = _id(incident)
    links: list[IncidentSource] = _children(
        session, IncidentSource, incident_id, col(IncidentSource.rank), col(IncidentSource.source_id)
    )
    participants: list[Participant] = _children(
        session, Participant, incident_id, col(Participant.rank), col(Participant.id)
    )
    motions: list[MotionRow] = _children(session, MotionRow, incident_id, col(MotionRow.id))
    quotes: list[Quote] = _children(session, Quote, incident_id, col(Quote.rank), col(Quote.id))
    rulings: list[Ruling] = _children(session, Ruling, incident_id, col(Ruling.rank), col(Ruling.id))

    def positions(motion_id: int) -> Iterable[PositionEntry]:
        rows = session.exec(
            select(Position).where(col(Position.motion_id) == motion_id).order_by(col(Position.id))
        )
        for row in rows:
            yield PositionEntry(
                person=refs.maybe_person(row.person_id),
                party=refs.party(row.party_id),
                label=row.label,
                stance=row.stance,
                attribution=row.attribution,
                detail=row.detail,
                source=refs.source(row.source_id),
            )

    return IncidentEntry(
        slug=incident.slug,
        title=incident.title,
        date=incident.date,
        chamber=refs.chamber(incident.chamber_id),
        kind=incident.kind,
        summary=incident.summary,
        notes=incident.notes,
        aliases=list(incident.aliases),
        sources=[refs.source(link.source_id) for link in links],
        participants=[
            ParticipantEntry(
                person=refs.person(row.person_id),
                role=row.role,
                party=refs.party(row.party_id),
                party_label=row.party_label,
            )
            for row in participants
        ],
        motions=[
            MotionEntry(
                text=row.text,
                moved_by=refs.maybe_person(row.moved_by_id),
                moved_by_label=row.moved_by_label,
                procedure=row.procedure,
                result=row.result,
                result_detail=row.result_detail,
                source=refs.source(row.source_id),
                positions=list(positions(_id(row))),
            )
            for row in motions
        ],
        quotes=[
            QuoteEntry(
                speaker=refs.maybe_person(row.person_id),
                speaker_label=row.speaker_label,
                text=row.text,
                said_to=row.said_to,
                context=row.context,
                delivery=row.delivery,
                source=refs.source(row.source_id),
            )
            for row in quotes
        ],
        rulings=[
            RulingEntry(
                ruled_by=refs.maybe_person(row.ruled_by_id),
                ruled_by_label=row.ruled_by_label,
                role=row.role,
                outcome=row.outcome,
                summary=row.summary,
                source=refs.source(row.source_id),
            )
            for row in rulings
        ],
    )


def _stored_entry(session: Session, incident: Incident, refs: _Refs) -> IncidentEntry | None:
    """``_incident_entry``, or None when the stored rows do not form a valid entry (so: changed)."""
    try:
        return _incident_entry(session, incident, refs)
    except ValidationError:
        return None


def export_dataset(session: Session, *, guild_id: int = SHARED_GUILD) -> Dataset:
    """The scope's rows as a self-contained dataset.

    Entries of other scopes that the scope's rows refer to (a guild's incident citing a shared person,
    say) are included so the file validates on its own. ``dataset_version`` is the scope's recorded
    ``DatasetVersion``, or ``UNVERSIONED``.
    """
    refs = _Refs(session)
    incidents = [_incident_entry(session, row, refs) for row in _scope(session, Incident, guild_id)]

    people = {_id(row): row for row in _scope(session, Person, guild_id)} | refs.people
    person_entries = [
        PersonEntry(slug=row.slug, name=row.name, aliases=list(row.aliases), party=refs.party(row.party_id))
        for row in people.values()
    ]
    chambers = {_id(row): row for row in _scope(session, Chamber, guild_id)} | refs.chambers
    parties = {_id(row): row for row in _scope(session, Party, guild_id)} | refs.parties
    sources = {_id(row): row for row in _scope(session, Source, guild_id)} | refs.sources
    recorded = session.get(DatasetVersion, guild_id)
    return parse_dataset(
        {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "dataset_version": UNVERSIONED if recorded is None else recorded.version,
            "chambers": [ChamberEntry.model_validate(row, from_attributes=True) for row in chambers.values()],
            "parties": [PartyEntry.model_validate(row, from_attributes=True) for row in parties.values()],
            "people": person_entries,
            "sources": [SourceEntry.model_validate(row, from_attributes=True) for row in sources.values()],
            "incidents": incidents,
        }
    )


def seed(database: Database) -> LoadReport:
    """Load ``SHIPPED_DATASET`` into the shared scope and record its version, in one transaction."""
    dataset = read_dataset(SHIPPED_DATASET)
    with database.session() as session:
        report = load_dataset(session, dataset, guild_id=SHARED_GUILD)
        now = dt.datetime.now(dt.UTC)
        recorded = session.get(DatasetVersion, SHARED_GUILD)
        if recorded is None:
            session.add(DatasetVersion(guild_id=SHARED_GUILD, version=dataset.dataset_version, loaded_at=now))
        else:
            recorded.version = dataset.dataset_version
            recorded.loaded_at = now
        session.commit()
    return report
