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
import difflib
import json
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self, TypeVar, cast

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


Entry = ChamberEntry | PartyEntry | PersonEntry | SourceEntry | IncidentEntry
"""One top-level entry: the unit that curation adds, edits and removes."""


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


@dataclass(frozen=True)
class References:
    """The slugs an entry may refer to, by kind (keys for sources)."""

    chambers: Collection[str]
    parties: Collection[str]
    people: Collection[str]
    sources: Collection[str]


def _unknown(what: str, value: str, known: Collection[str]) -> str:
    """``unknown person 'jagmet-singh'``, with the closest known slugs when some are close."""
    close = difflib.get_close_matches(value, list(known), n=3)
    hint = f" (did you mean {' or '.join(repr(slug) for slug in close)}?)" if close else ""
    return f"unknown {what} {value!r}{hint}"


def entry_problems(entry: Entry, known: References, at: str = "") -> list[Problem]:
    """Where ``entry``'s references do not resolve in ``known``, at JSON paths under ``at``.

    Also checks what an incident cites: every citation is one of its own listed sources, once.
    """
    problems: list[Problem] = []

    def path(suffix: str) -> str:
        return f"{at}.{suffix}" if at else suffix

    def check(where: str, value: str | None, slugs: Collection[str], what: str) -> None:
        if value is not None and value not in slugs:
            problems.append(Problem(path(where), _unknown(what, value, slugs)))

    if isinstance(entry, PersonEntry):
        check("party", entry.party, known.parties, "party")
    if not isinstance(entry, IncidentEntry):
        return problems
    check("chamber", entry.chamber, known.chambers, "chamber")
    for position, key in enumerate(entry.sources):
        check(f"sources[{position}]", key, known.sources, "source")
    problems.extend(_duplicates(path("sources"), None, entry.sources))
    cited = set(entry.sources)

    def cite(where: str, key: str) -> None:
        if key not in known.sources:
            problems.append(Problem(path(where), _unknown("source", key, known.sources)))
        elif key not in cited:
            problems.append(Problem(path(where), f"source {key!r} is not listed in the incident's sources"))

    for n, participant in enumerate(entry.participants):
        check(f"participants[{n}].person", participant.person, known.people, "person")
        check(f"participants[{n}].party", participant.party, known.parties, "party")
    for n, motion in enumerate(entry.motions):
        check(f"motions[{n}].moved_by", motion.moved_by, known.people, "person")
        cite(f"motions[{n}].source", motion.source)
        for m, stand in enumerate(motion.positions):
            check(f"motions[{n}].positions[{m}].person", stand.person, known.people, "person")
            check(f"motions[{n}].positions[{m}].party", stand.party, known.parties, "party")
            cite(f"motions[{n}].positions[{m}].source", stand.source)
    for n, quote in enumerate(entry.quotes):
        check(f"quotes[{n}].speaker", quote.speaker, known.people, "person")
        cite(f"quotes[{n}].source", quote.source)
    for n, ruling in enumerate(entry.rulings):
        check(f"rulings[{n}].ruled_by", ruling.ruled_by, known.people, "person")
        cite(f"rulings[{n}].source", ruling.source)
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
    known = References(
        chambers={entry.slug for entry in dataset.chambers},
        parties={entry.slug for entry in dataset.parties},
        people={entry.slug for entry in dataset.people},
        sources={entry.key for entry in dataset.sources},
    )
    for index, person in enumerate(dataset.people):
        problems.extend(entry_problems(person, known, f"people[{index}]"))
    for index, incident in enumerate(dataset.incidents):
        problems.extend(entry_problems(incident, known, f"incidents[{index}]"))
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


def parse_entry(model: type[Entry], data: Any, at: str) -> Entry:
    """One top-level entry validated on its own (references unchecked); problem paths start at ``at``."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problems = [Problem(f"{at}.{p.path}" if p.path else at, p.message) for p in _problems(error)]
        raise DatasetError(problems) from None


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


EntryRow = Chamber | Party | Person | Source | Incident
_Row = TypeVar("_Row", Chamber, Party, Person, Source, Incident)


def slug_of(item: EntryRow | Entry) -> str:
    """The slug a row or entry is referred to by (a source's ``key``)."""
    return item.key if isinstance(item, Source | SourceEntry) else item.slug


def _slug_column(table: type[EntryRow]) -> Any:
    return col(Source.key) if table is Source else col(table.slug)  # type: ignore[union-attr]


def _scope(session: Session, table: type[_Row], guild_id: int, *, removed: bool = True) -> list[_Row]:
    """The scope's rows of ``table`` in id order; ``removed=False`` leaves out removed rows."""
    statement = select(table).where(col(table.guild_id) == guild_id)
    if not removed:
        statement = statement.where(col(table.removed_at).is_(None))
    return list(session.exec(statement.order_by(col(table.id))))


def own_row(
    session: Session, table: type[EntryRow], slug: str, *, guild_id: int, lock: bool = False
) -> EntryRow | None:
    """The scope's own row of ``table`` with ``slug`` (removed or not); ``lock`` selects it FOR UPDATE."""
    statement = select(table).where(col(table.guild_id) == guild_id, _slug_column(table) == slug)
    if lock:
        statement = statement.with_for_update()
    return cast("EntryRow | None", session.exec(statement).first())


def _id(row: Chamber | Party | Person | Source | Incident | MotionRow) -> int:
    if row.id is None:
        raise RuntimeError(f"{type(row).__name__} has no id: flush the session first")
    return row.id


class GuildView:
    """What slugs mean in one guild: its own rows first, else the shared ones.

    A removed row is absent, and a guild's removed row (a tombstone) hides the shared row with its
    slug. For the shared scope this is simply the shared rows that are not removed.
    """

    def __init__(self, session: Session, guild_id: int) -> None:
        self._session = session
        self.guild_id = guild_id
        self._ids: dict[type[EntryRow], dict[str, int]] = {}

    def ids(self, table: type[EntryRow]) -> dict[str, int]:
        """Row ids by slug, for every slug of ``table`` the guild sees."""
        if table not in self._ids:
            statement = (
                select(_slug_column(table), col(table.id), col(table.removed_at))
                .where(col(table.guild_id).in_({SHARED_GUILD, self.guild_id}))
                .order_by(col(table.guild_id))  # shared first, so the guild's own rows win
            )
            ids: dict[str, int | None] = {}
            for slug, row_id, removed_at in self._session.exec(statement):
                ids[slug] = row_id if removed_at is None else None
            self._ids[table] = {slug: row_id for slug, row_id in ids.items() if row_id is not None}
        return self._ids[table]

    def register(self, row: EntryRow) -> None:
        """Make ``row`` (just written in this guild's scope) what its slug means from now on."""
        self.ids(type(row))[slug_of(row)] = _id(row)

    def references(self) -> References:
        return References(
            chambers=self.ids(Chamber).keys(),
            parties=self.ids(Party).keys(),
            people=self.ids(Person).keys(),
            sources=self.ids(Source).keys(),
        )

    def party(self, slug: str | None) -> int | None:
        return None if slug is None else self.ids(Party)[slug]

    def person(self, slug: str | None) -> int | None:
        return None if slug is None else self.ids(Person)[slug]

    def source(self, key: str) -> int:
        return self.ids(Source)[key]

    def chamber(self, slug: str) -> int:
        return self.ids(Chamber)[slug]


class ScopeWriter:
    """Writes entries into one guild's scope, upserting by slug; references resolve in the guild's view.

    ``load_dataset`` writes a whole file with it and curation one entry at a time. Never commits.
    """

    def __init__(self, session: Session, guild_id: int) -> None:
        self.session = session
        self.guild_id = guild_id
        self.view = GuildView(session, guild_id)
        self._refs = _Refs(session)
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
        elif isinstance(entry, SourceEntry):
            row = self._upsert(Source, entry.key, entry.model_dump(exclude={"key"}), counts)
        elif isinstance(entry, PartyEntry):
            row = self._upsert(Party, entry.slug, entry.model_dump(exclude={"slug"}), counts)
        else:
            row = self._upsert(Chamber, entry.slug, entry.model_dump(exclude={"slug"}), counts)
        self.view.register(row)
        return row

    def _rows(self, table: type[_Row]) -> dict[str, _Row]:
        if table not in self._own:
            self._own[table] = {slug_of(row): row for row in _scope(self.session, table, self.guild_id)}
        rows: dict[str, _Row] = self._own[table]
        return rows

    def _upsert(self, table: type[_Row], slug: str, values: dict[str, Any], counts: KindCounts) -> _Row:
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
        values = {
            **entry.model_dump(include={"title", "date", "kind", "summary", "notes", "aliases"}),
            "chamber_id": self.view.chamber(entry.chamber),
        }
        rows = self._rows(Incident)
        incident = rows.get(entry.slug)
        if incident is None:
            incident = rows[entry.slug] = Incident(guild_id=self.guild_id, slug=entry.slug, **values)
            self.session.add(incident)
            self.session.flush()
            counts.added += 1
        elif _stored_entry(self.session, incident, self._refs) == entry:
            counts.unchanged += 1
            return incident
        else:
            for name, value in values.items():
                setattr(incident, name, value)
            _delete_children(self.session, _id(incident))
            counts.changed += 1
        _add_children(self.session, _id(incident), entry, self.view)
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
    ]
    for kind, counts in entries:
        for entry in kind:
            writer.write(entry, counts)
    return report


def delete_row(session: Session, row: EntryRow) -> None:
    """Delete a row of the scope, an incident with its children; rows referring to it must go first."""
    if isinstance(row, Incident):
        _delete_children(session, _id(row))
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
                role=participant.role,
                party_label=participant.party_label,
                rank=rank,
            )
        )
    for motion in entry.motions:
        row = MotionRow(
            incident_id=incident_id,
            text=motion.text,
            moved_by_id=view.person(motion.moved_by),
            moved_by_label=motion.moved_by_label,
            procedure=motion.procedure,
            result=motion.result,
            result_detail=motion.result_detail,
            source_id=view.source(motion.source),
        )
        session.add(row)
        session.flush()  # positions need the motion's id, and motions are exported in id order
        for position in motion.positions:
            session.add(
                Position(
                    motion_id=_id(row),
                    person_id=view.person(position.person),
                    party_id=view.party(position.party),
                    label=position.label,
                    stance=position.stance,
                    attribution=position.attribution,
                    detail=position.detail,
                    source_id=view.source(position.source),
                )
            )
    for rank, quote in enumerate(entry.quotes):
        session.add(
            Quote(
                incident_id=incident_id,
                person_id=view.person(quote.speaker),
                speaker_label=quote.speaker_label,
                text=quote.text,
                said_to=quote.said_to,
                context=quote.context,
                delivery=quote.delivery,
                source_id=view.source(quote.source),
                rank=rank,
            )
        )
    for rank, ruling in enumerate(entry.rulings):
        session.add(
            Ruling(
                incident_id=incident_id,
                ruled_by_id=view.person(ruling.ruled_by),
                ruled_by_label=ruling.ruled_by_label,
                role=ruling.role,
                outcome=ruling.outcome,
                summary=ruling.summary,
                source_id=view.source(ruling.source),
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


def stored_entry(session: Session, row: EntryRow) -> Entry:
    """The file form of one stored row (an incident with its children)."""
    return _entry(session, row, _Refs(session))


def _entry(session: Session, row: EntryRow, refs: _Refs) -> Entry:
    if isinstance(row, Incident):
        return _incident_entry(session, row, refs)
    if isinstance(row, Person):
        return PersonEntry(
            slug=row.slug, name=row.name, aliases=list(row.aliases), party=refs.party(row.party_id)
        )
    if isinstance(row, Source):
        return SourceEntry.model_validate(row, from_attributes=True)
    if isinstance(row, Party):
        return PartyEntry.model_validate(row, from_attributes=True)
    return ChamberEntry.model_validate(row, from_attributes=True)


def export_dataset(session: Session, *, guild_id: int = SHARED_GUILD) -> Dataset:
    """The scope's rows, removed ones left out, as a self-contained dataset.

    Entries of other scopes that the scope's rows refer to (a guild's incident citing a shared person,
    say) are included so the file validates on its own; the scope's own entry wins over another with
    its slug. ``dataset_version`` is the scope's recorded ``DatasetVersion``, or ``UNVERSIONED``.
    """
    refs = _Refs(session)
    incidents = [_entry(session, row, refs) for row in _scope(session, Incident, guild_id, removed=False)]

    def entries(table: type[_Row], referred: dict[int, _Row]) -> list[Entry]:
        rows = {slug_of(row): row for row in referred.values()}
        rows |= {slug_of(row): row for row in _scope(session, table, guild_id, removed=False)}
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
        }
    )


def seed(database: Database) -> LoadReport:
    """Load ``SHIPPED_DATASET`` into the shared scope and record its version, in one transaction."""
    dataset = read_dataset(SHIPPED_DATASET)
    with database.session() as session:
        report = load_dataset(session, dataset, guild_id=SHARED_GUILD)
        record_version(session, dataset.dataset_version, guild_id=SHARED_GUILD)
        session.commit()
    return report


def record_version(session: Session, version: str, *, guild_id: int) -> None:
    """Record ``version`` as the scope's ``DatasetVersion`` (what its exports carry); does not commit."""
    now = dt.datetime.now(dt.UTC)
    recorded = session.get(DatasetVersion, guild_id)
    if recorded is None:
        session.add(DatasetVersion(guild_id=guild_id, version=version, loaded_at=now))
    else:
        recorded.version = version
        recorded.loaded_at = now
