"""The dataset format (version 1): its pydantic models and their validation.

A dataset is one JSON document of chambers, parties, people, sources, incidents and glossary terms
that refer to one another by slug (``key`` for sources); ``docs/DATASET.md`` describes it field by
field. Any ``Dataset`` instance is valid: every reference resolves, slugs are unique, and the
top-level lists are sorted by slug so that a parsed file and an export of the same rows compare
equal. Order inside an incident (sources, participants, motions, quotes, rulings) is meaningful and
kept. A term cites one source and may be linked with incidents; a guild's quiz question cites one
source. Files without terms or questions stay valid.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from db.cleaning import ControlCharacter, clean_line, clean_text, codepoint, judging_input
from db.models import (
    CHOICE_MAX,
    LABEL_MAX,
    LANGUAGE_MAX,
    NAME_MAX,
    QUESTION_MAX,
    SLUG_MAX,
    TEXT_MAX,
    TITLE_MAX,
    URL_MAX,
    Attribution,
    Delivery,
    EntityKind,
    IncidentKind,
    MotionResult,
    Procedure,
    RulingOutcome,
    Stance,
)

FORMAT = "parlbot-dataset"
FORMAT_VERSION = 1
SHIPPED_DATASET = Path(__file__).resolve().parents[1] / "data" / "dataset.json"
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


def _cleaned(clean: Callable[[str], str]) -> BeforeValidator:
    """A text cleaned (``db.cleaning``) before its constraints are checked, so that they judge what is
    stored (put it after them: pydantic runs the last before-validator first); a control character is
    refused as the error ``control_character``."""

    def validate(value: object) -> object:
        if not isinstance(value, str) or not judging_input():
            return value
        try:
            return clean(value)
        except ControlCharacter as error:
            raise PydanticCustomError(
                "control_character",
                "contains the control character {character}, which text cannot hold",
                {"character": codepoint(error.character)},
            ) from None

    return BeforeValidator(validate)


LINE = _cleaned(clean_line)  # one line: whitespace collapsed
PARAGRAPHS = _cleaned(clean_text)  # several lines kept

Slug = Annotated[
    str, StringConstraints(min_length=1, max_length=SLUG_MAX, pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$"), LINE
]
Name = Annotated[str, StringConstraints(min_length=1, max_length=NAME_MAX), LINE]
Title = Annotated[str, StringConstraints(min_length=1, max_length=TITLE_MAX), LINE]
Label = Annotated[str, StringConstraints(min_length=1, max_length=LABEL_MAX), LINE]
Text = Annotated[str, StringConstraints(min_length=1, max_length=TEXT_MAX), PARAGRAPHS]
Language = Annotated[str, StringConstraints(min_length=1, max_length=LANGUAGE_MAX), LINE]
Abbreviation = Annotated[str, StringConstraints(min_length=1, max_length=ABBREVIATION_MAX), LINE]
Url = Annotated[str, StringConstraints(max_length=URL_MAX, pattern=r"^https?://\S+$"), LINE]
Date = Annotated[dt.date, BeforeValidator(_iso_date)]
Version = Annotated[str, StringConstraints(min_length=1, max_length=VERSION_MAX), LINE]


class DatasetModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ChamberEntry(DatasetModel):
    slug: Slug
    name: Name
    name_fr: Name | None = None
    legislature: Name
    country: Name


class PartyEntry(DatasetModel):
    slug: Slug
    name: Name
    name_fr: Name | None = None
    abbreviation: Abbreviation | None = None
    abbreviation_fr: Abbreviation | None = None
    country: Name
    aliases: list[Name] = Field(default_factory=list)


class PersonEntry(DatasetModel):
    slug: Slug
    name: Name
    aliases: list[Name] = Field(default_factory=list)
    party: Slug | None = None


class SourceEntry(DatasetModel):
    key: Slug
    url: Url | None = None
    title: Label | None = None
    publisher: Name | None = None
    published: Date | None = None
    licence: Name | None = None
    excerpt: Name | None = None
    note: Text | None = None


class ParticipantEntry(DatasetModel):
    person: Slug
    role: Label
    party: Slug | None = None
    party_label: Label | None = None


class PositionEntry(DatasetModel):
    person: Slug | None = None
    party: Slug | None = None
    label: Label
    stance: Stance
    attribution: Attribution
    detail: Text | None = None
    source: Slug


class MotionEntry(DatasetModel):
    text: Text
    moved_by: Slug | None = None
    moved_by_label: Label | None = None
    procedure: Procedure
    result: MotionResult
    result_detail: Text | None = None
    source: Slug
    positions: list[PositionEntry] = Field(default_factory=list)


class QuoteEntry(DatasetModel):
    speaker: Slug | None = None  # None: a speaker the dataset holds no person for (speaker_label names them)
    speaker_label: Label
    text: Text
    said_to: Label | None = None
    context: Text | None = None
    delivery: Delivery
    original_text: Text | None = None
    original_language: Language | None = None
    note: Text | None = None
    speaker_inferred: bool = False
    source: Slug

    @model_validator(mode="after")
    def _original_has_a_language(self) -> Self:
        if self.original_text is not None and self.original_language is None:
            raise ValueError("original_text needs original_language (the language it was said in)")
        return self

    @model_validator(mode="after")
    def _inferred_speaker_says_how(self) -> Self:
        if self.speaker_inferred and not self.note:
            raise ValueError("speaker_inferred needs a note saying how the speaker is known")
        return self


class RulingEntry(DatasetModel):
    ruled_by: Slug | None = None
    ruled_by_label: Label
    role: Label | None = None
    subject: Slug | None = None
    subject_label: Label | None = None
    outcome: RulingOutcome
    summary: Text
    summary_fr: Text | None = None
    source: Slug


class IncidentEntry(DatasetModel):
    slug: Slug
    title: Title
    title_fr: Title | None = None
    date: Date
    chamber: Slug
    kind: IncidentKind
    summary: Text
    summary_fr: Text | None = None
    notes: Text | None = None
    aliases: list[Name] = Field(default_factory=list)
    sources: list[Slug] = Field(min_length=1)
    participants: list[ParticipantEntry] = Field(default_factory=list)
    motions: list[MotionEntry] = Field(default_factory=list)
    quotes: list[QuoteEntry] = Field(default_factory=list)
    rulings: list[RulingEntry] = Field(default_factory=list)


Prompt = Annotated[str, StringConstraints(min_length=1, max_length=QUESTION_MAX), LINE]
QuizChoice = Annotated[str, StringConstraints(min_length=1, max_length=CHOICE_MAX), LINE]


class QuestionEntry(DatasetModel):
    """A teacher's own quiz question (docs/QUIZ.md): its right answer, 1 to 3 wrong ones, its source."""

    slug: Slug
    prompt: Prompt
    answer: QuizChoice
    wrong: list[QuizChoice] = Field(min_length=1, max_length=3)
    source: Slug

    @model_validator(mode="after")
    def _choices_differ(self) -> Self:
        folded = [" ".join(choice.casefold().split()) for choice in [self.answer, *self.wrong]]
        if len(set(folded)) != len(folded):
            raise ValueError("the answer and the wrong choices must all differ")
        return self


class TermEntry(DatasetModel):
    """A procedural term, defined in our own words from the ``source`` that states its meaning, and
    linked with the ``incidents`` that involve it."""

    slug: Slug
    name: Name
    name_fr: Name | None = None
    definition: Text
    definition_fr: Text | None = None
    aliases: list[Name] = Field(default_factory=list)
    source: Slug
    incidents: list[Slug] = Field(default_factory=list)


Entry = ChamberEntry | PartyEntry | PersonEntry | SourceEntry | IncidentEntry | QuestionEntry | TermEntry
"""One top-level entry: the unit that curation adds, edits and removes."""


@dataclass(frozen=True)
class DatasetProblem:
    """One thing wrong with a dataset, at a JSON path such as ``incidents[3].quotes[0].speaker``."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class DatasetError(ValueError):
    """A dataset that does not validate; ``problems`` lists every problem found, in file order."""

    def __init__(self, problems: Sequence[DatasetProblem]) -> None:
        self.problems = tuple(problems)
        lines = [str(problem) for problem in self.problems]
        detail = lines[0] if len(lines) == 1 else "\n" + "\n".join(f"  {line}" for line in lines)
        super().__init__(f"invalid dataset: {detail}")


# The file's sections in writing order: what an entry refers to is written before it.
SECTIONS: tuple[tuple[str, EntityKind], ...] = (
    ("chambers", EntityKind.CHAMBER),
    ("parties", EntityKind.PARTY),
    ("people", EntityKind.PERSON),
    ("sources", EntityKind.SOURCE),
    ("incidents", EntityKind.INCIDENT),
    ("terms", EntityKind.TERM),  # after the incidents a term is linked with
    ("questions", EntityKind.QUESTION),  # a guild's own quiz questions (docs/QUIZ.md)
)


class Dataset(DatasetModel):
    format: Literal["parlbot-dataset"]
    version: Literal[1]
    dataset_version: Version
    chambers: list[ChamberEntry]
    parties: list[PartyEntry]
    people: list[PersonEntry]
    sources: list[SourceEntry]
    incidents: list[IncidentEntry]
    terms: list[TermEntry] = Field(default_factory=list)
    # A guild's own quiz questions (its export; the shared dataset has none). Left out of the file when
    # there are none, so a file without questions reads exactly as before they existed.
    questions: list[QuestionEntry] = Field(default_factory=list, exclude_if=lambda questions: not questions)

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
        self.terms.sort(key=lambda entry: entry.slug)
        self.questions.sort(key=lambda entry: entry.slug)
        return self


def _duplicates(where: str, attribute: str | None, values: Sequence[str | None]) -> list[DatasetProblem]:
    """A problem for each value seen before; ``attribute`` None means the list holds the values."""
    seen: set[str] = set()
    problems = []
    for index, value in enumerate(values):
        if value is None:
            continue
        if value in seen:
            path = f"{where}[{index}]" + ("" if attribute is None else f".{attribute}")
            problems.append(DatasetProblem(path, f"duplicate {attribute or 'entry'} {value!r}"))
        seen.add(value)
    return problems


@dataclass(frozen=True)
class References:
    """The slugs an entry may refer to, by kind (keys for sources)."""

    chambers: Collection[str]
    parties: Collection[str]
    people: Collection[str]
    sources: Collection[str]
    incidents: Collection[str] = ()


def _unknown(what: str, value: str, known: Collection[str]) -> str:
    """``unknown person 'jagmet-singh'``, with the closest known slugs when some are close."""
    close = difflib.get_close_matches(value, list(known), n=3)
    hint = f" (did you mean {' or '.join(repr(slug) for slug in close)}?)" if close else ""
    return f"unknown {what} {value!r}{hint}"


def entry_problems(entry: Entry, known: References, at: str = "") -> list[DatasetProblem]:
    """Where ``entry``'s references do not resolve in ``known``, at JSON paths under ``at``.

    Also checks what an incident cites: every citation is one of its own listed sources, once.
    """
    if isinstance(entry, IncidentEntry):
        return _incident_problems(entry, known, at)
    findings = _Findings(known, at)
    if isinstance(entry, PersonEntry):
        findings.check("party", entry.party, known.parties, "party")
    if isinstance(entry, QuestionEntry):
        findings.check("source", entry.source, known.sources, "source")
    if isinstance(entry, TermEntry):
        findings.check("source", entry.source, known.sources, "source")
        for n, slug in enumerate(entry.incidents):
            findings.check(f"incidents[{n}]", slug, known.incidents, "incident")
        findings.problems.extend(_duplicates(findings.path("incidents"), None, entry.incidents))
    return findings.problems


class _Asked(Collection[str]):
    """An empty collection of slugs that remembers every slug looked for in it."""

    def __init__(self) -> None:
        self.asked: set[str] = set()

    def __contains__(self, slug: object) -> bool:
        if isinstance(slug, str):
            self.asked.add(slug)
        return False

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def referenced(entry: Entry) -> References:
    """The slugs ``entry`` refers to, by kind: those ``entry_problems`` looks for, so that checking
    them needs only these rows."""
    chambers, parties, people, sources, incidents = (_Asked() for _ in range(5))
    entry_problems(entry, References(chambers, parties, people, sources, incidents))
    return References(chambers.asked, parties.asked, people.asked, sources.asked, incidents.asked)


@dataclass
class _Findings:
    """The problems found in one entry so far, at JSON paths under ``at``; ``cited`` may be cited."""

    known: References
    at: str
    cited: Collection[str] = ()
    problems: list[DatasetProblem] = field(default_factory=list)

    def path(self, suffix: str) -> str:
        return f"{self.at}.{suffix}" if self.at else suffix

    def check(self, where: str, value: str | None, slugs: Collection[str], what: str) -> None:
        """A reference to one of ``slugs`` (or no reference at all)."""
        if value is not None and value not in slugs:
            self.problems.append(DatasetProblem(self.path(where), _unknown(what, value, slugs)))

    def cite(self, where: str, key: str) -> None:
        """A citation: a known source the entry lists among its own."""
        if key not in self.known.sources:
            self.problems.append(
                DatasetProblem(self.path(where), _unknown("source", key, self.known.sources))
            )
        elif key not in self.cited:
            self.problems.append(
                DatasetProblem(self.path(where), f"source {key!r} is not listed in the incident's sources")
            )


def _incident_problems(entry: IncidentEntry, known: References, at: str) -> list[DatasetProblem]:
    findings = _Findings(known, at, cited=frozenset(entry.sources))
    findings.check("chamber", entry.chamber, known.chambers, "chamber")
    for position, key in enumerate(entry.sources):
        findings.check(f"sources[{position}]", key, known.sources, "source")
    findings.problems.extend(_duplicates(findings.path("sources"), None, entry.sources))
    for n, participant in enumerate(entry.participants):
        findings.check(f"participants[{n}].person", participant.person, known.people, "person")
        findings.check(f"participants[{n}].party", participant.party, known.parties, "party")
    for n, motion in enumerate(entry.motions):
        _check_motion(findings, f"motions[{n}]", motion)
    for n, quote in enumerate(entry.quotes):
        findings.check(f"quotes[{n}].speaker", quote.speaker, known.people, "person")
        findings.cite(f"quotes[{n}].source", quote.source)
    for n, ruling in enumerate(entry.rulings):
        findings.check(f"rulings[{n}].ruled_by", ruling.ruled_by, known.people, "person")
        findings.check(f"rulings[{n}].subject", ruling.subject, known.people, "person")
        findings.cite(f"rulings[{n}].source", ruling.source)
    return findings.problems


def _check_motion(findings: _Findings, at: str, motion: MotionEntry) -> None:
    known = findings.known
    findings.check(f"{at}.moved_by", motion.moved_by, known.people, "person")
    findings.cite(f"{at}.source", motion.source)
    for m, stand in enumerate(motion.positions):
        findings.check(f"{at}.positions[{m}].person", stand.person, known.people, "person")
        findings.check(f"{at}.positions[{m}].party", stand.party, known.parties, "party")
        findings.cite(f"{at}.positions[{m}].source", stand.source)


def _reference_problems(dataset: Dataset) -> list[DatasetProblem]:
    """Unique slugs and resolvable references, reported with file-order paths."""
    problems = [
        *_duplicates("chambers", "slug", [entry.slug for entry in dataset.chambers]),
        *_duplicates("parties", "slug", [entry.slug for entry in dataset.parties]),
        *_duplicates("people", "slug", [entry.slug for entry in dataset.people]),
        *_duplicates("sources", "key", [entry.key for entry in dataset.sources]),
        *_duplicates("sources", "url", [entry.url for entry in dataset.sources]),
        *_duplicates("incidents", "slug", [entry.slug for entry in dataset.incidents]),
        *_duplicates("terms", "slug", [entry.slug for entry in dataset.terms]),
        *_duplicates("questions", "slug", [entry.slug for entry in dataset.questions]),
    ]
    known = References(
        chambers={entry.slug for entry in dataset.chambers},
        parties={entry.slug for entry in dataset.parties},
        people={entry.slug for entry in dataset.people},
        sources={entry.key for entry in dataset.sources},
        incidents={entry.slug for entry in dataset.incidents},
    )
    for index, person in enumerate(dataset.people):
        problems.extend(entry_problems(person, known, f"people[{index}]"))
    for index, incident in enumerate(dataset.incidents):
        problems.extend(entry_problems(incident, known, f"incidents[{index}]"))
    for index, term in enumerate(dataset.terms):
        problems.extend(entry_problems(term, known, f"terms[{index}]"))
    for index, question in enumerate(dataset.questions):
        problems.extend(entry_problems(question, known, f"questions[{index}]"))
    return problems


def _json_path(location: Sequence[int | str]) -> str:
    path = ""
    for part in location:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else part)
    return path


def _problems(error: ValidationError) -> list[DatasetProblem]:
    problems: list[DatasetProblem] = []
    for detail in error.errors():
        cause = detail.get("ctx", {}).get("error")
        if isinstance(cause, DatasetError):
            problems.extend(cause.problems)
        else:
            problems.append(DatasetProblem(_json_path(detail["loc"]), detail["msg"]))
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
        problems = [DatasetProblem(f"{at}.{p.path}" if p.path else at, p.message) for p in _problems(error)]
        raise DatasetError(problems) from None
