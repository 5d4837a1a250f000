"""Why a change can't be saved, in a moderator's words, without Discord.

The dataset names a place by its JSON path, numbered from 0 (``quotes[6].source``,
``motions[0].positions[1].stance``); a moderator numbers parts from 1 and knows them by who said,
ruled or took them: "quote 7", "participant 3 (Jagmeet Singh)", "position 2 of motion 1". ``where``
says a path so; ``describe`` says one pydantic error so, with the allowed values or an example of the
right shape for the field at hand; ``reference`` says one reference that does not resolve
(``db.dataset.schema.DatasetProblem``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pydantic import BaseModel
from pydantic_core import ErrorDetails
from sqlmodel import Session, col, select

from bot.messages.catalogue import Msg, say
from bot.search.text import fold
from db.dataset.schema import (
    ChamberEntry,
    DatasetProblem,
    IncidentEntry,
    ParticipantEntry,
    PartyEntry,
    PersonEntry,
    PositionEntry,
    QuoteEntry,
    RulingEntry,
    SourceEntry,
    TermEntry,
)
from db.models import SHARED_GUILD, Person

Location = Sequence[int | str]
"""A place in an entry, as pydantic gives it: ``("quotes", 6, "source")``."""

# The numbered lists of an incident (and an entry's aliases), by the word for one of them.
LISTS: dict[str, Msg] = {
    "participants": Msg.PART_PARTICIPANT,
    "quotes": Msg.PART_QUOTE,
    "rulings": Msg.PART_RULING,
    "motions": Msg.PART_MOTION,
    "positions": Msg.PART_POSITION,
    "sources": Msg.KIND_SOURCE,
    "aliases": Msg.PART_ALIAS,
}
DATE_FIELDS = frozenset({"date", "published"})
KEY_FIELDS = frozenset({"slug", "key"})  # a new entry's own name: its example is what was typed, shaped
# An example of the right shape for a field that refers to an entry (or names one).
EXAMPLES: dict[str, str] = {
    "party": "new-democratic-party",
    "person": "jagmeet-singh",
    "speaker": "jagmeet-singh",
    "ruled_by": "anthony-rota",
    "moved_by": "jagmeet-singh",
    "source": "singh-2020-cbc",
    "sources": "singh-2020-cbc",
    "chamber": "ca-house-of-commons",
}
KEY_EXAMPLES: dict[type[BaseModel], str] = {
    IncidentEntry: "singh-2020",
    PersonEntry: "jagmeet-singh",
    PartyEntry: "new-democratic-party",
    SourceEntry: "singh-2020-cbc",
    ChamberEntry: "ca-house-of-commons",
    TermEntry: "naming",
}
_STEP = re.compile(r"([A-Za-z_]+)|\[(\d+)\]")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def location(path: str) -> list[int | str]:
    """A JSON path read back into its steps: ``quotes[6].source`` → ``["quotes", 6, "source"]``."""
    return [int(index) if index else name for name, index in _STEP.findall(path)]


def _steps(at: Location) -> tuple[list[tuple[str, int]], str | None]:
    """The numbered parts a location passes through (list and index), and the field it ends at."""
    parts: list[tuple[str, int]] = []
    field: str | None = None
    steps = list(at)
    while steps:
        step = steps.pop(0)
        if isinstance(step, str) and step in LISTS and steps and isinstance(steps[0], int):
            parts.append((step, int(steps.pop(0))))
        elif isinstance(step, str):
            field = step
    return parts, field


def _label(item: object, names: Mapping[str, str]) -> str | None:
    """Who a participant, quote, ruling or position is of, as a moderator knows them."""
    if isinstance(item, ParticipantEntry):
        return names.get(item.person, item.person)
    if isinstance(item, QuoteEntry):
        return item.speaker_label
    if isinstance(item, RulingEntry):
        return item.ruled_by_label
    if isinstance(item, PositionEntry):
        return item.label
    return None


def _item(within: object, name: str, index: int) -> object:
    items = getattr(within, name, None)
    return items[index] if isinstance(items, list) and 0 <= index < len(items) else None


def where(at: Location, within: IncidentEntry | None = None, names: Mapping[str, str] | None = None) -> str:
    """The place ``at`` points to, in words: "quote 7", "participant 3 (Jagmeet Singh)", "position 2 of
    motion 1", with its field ("`stance` of position 2 of motion 1"); a top-level field is "`title`".
    ``within`` (the incident as it was) names the parts it has; ``names`` are people's names by slug."""
    parts, field = _steps(at)
    places: list[str] = []
    current: object = within
    for name, index in parts:
        current = _item(current, name, index) if current is not None else None
        label = _label(current, names or {})
        part = say(LISTS[name])
        if label:
            places.append(say(Msg.PLACE_NAMED, part=part, number=index + 1, label=label))
        else:
            places.append(say(Msg.PLACE, part=part, number=index + 1))
    place = _nested(places)
    if field is None or (parts and field == parts[-1][0]):
        return place or say(Msg.THIS_ENTRY)
    return say(Msg.FIELD_OF, field=field, place=place) if place else f"`{field}`"


def _nested(places: list[str]) -> str:
    """Places outermost first, said innermost first: "position 2 of motion 1" ("" for none)."""
    words = places[-1] if places else ""
    for outer in reversed(places[:-1]):
        words = say(Msg.PLACE_IN, place=words, owner=outer)
    return words


def _owner(at: Location, within: IncidentEntry | None) -> str:
    """The part a field belongs to ("quote 7"), for sentences about the part itself."""
    parts, _ = _steps(at)
    return where([step for name, index in parts for step in (name, index)], within)


def _example(field: str, model: type[BaseModel], value: object) -> str:
    """A value of the right shape for ``field``: a new slug as what was typed would be written, else an
    example of the entries the field refers to."""
    if field in KEY_FIELDS and isinstance(value, str):
        shaped = "-".join(fold(value).split())
        if _SLUG.fullmatch(shaped):
            return shaped
    return EXAMPLES.get(field) or KEY_EXAMPLES.get(model, "singh-2020")


def _sources(within: IncidentEntry | None) -> str:
    if within is None or not within.sources:
        return say(Msg.ANY_SOURCE)
    return say(Msg.ONE_OF_SOURCES, keys=", ".join(f"`{key}`" for key in within.sources))


def describe(detail: ErrorDetails, at: Location, model: type[BaseModel], within: IncidentEntry | None) -> str:
    """One pydantic error in our words: where, what is wrong, and what would be right."""
    steps = [*at, *detail["loc"]]
    path = where(steps, within)
    name = next((step for step in reversed(steps) if isinstance(step, str)), "")
    kind, value, context = detail["type"], detail.get("input"), detail.get("ctx", {})
    if name in DATE_FIELDS and kind != "missing":
        return say(Msg.NOT_A_DATE, path=path, value=value)
    if name == "source" and (kind == "missing" or value is None):
        return say(Msg.SOURCE_REQUIRED, path=_owner(steps, within), sources=_sources(within))
    if kind == "string_too_long":
        length = len(value) if isinstance(value, str) else say(Msg.TOO_MANY)
        return say(Msg.TOO_LONG, path=path, length=length, limit=context.get("max_length"))
    if kind == "missing":
        return say(Msg.REQUIRED, path=path)
    if kind == "string_too_short":
        return say(Msg.EMPTY, path=path)
    if kind == "control_character":
        return say(Msg.CONTROL_CHARACTER, path=path, character=context.get("character"))
    if kind == "string_pattern_mismatch" and name == "url":
        return say(Msg.NOT_A_URL, path=path)
    if kind == "string_pattern_mismatch":
        return say(Msg.NOT_A_SLUG, path=path, value=value, example=_example(name, model, value))
    if kind == "enum":
        return say(Msg.NOT_ONE_OF, path=path, expected=context.get("expected"), value=value)
    if kind == "extra_forbidden":
        return say(Msg.NOT_A_FIELD, path=path)
    return say(Msg.INVALID, path=path, problem=detail["msg"])  # pydantic's own words, in English


def reference(problem: DatasetProblem, within: object, names: Mapping[str, str]) -> str:
    """A reference that does not resolve (``DatasetProblem``), at its place in a moderator's words."""
    incident = within if isinstance(within, IncidentEntry) else None
    return say(Msg.PROBLEM_AT, place=where(location(problem.path), incident, names), problem=problem.message)


def people_names(session: Session, guild_id: int) -> dict[str, str]:
    """The names of the people a guild sees, by slug (its own first, then the shared ones)."""
    rows = session.exec(
        select(Person.slug, Person.name, Person.guild_id)
        .where(col(Person.guild_id).in_({SHARED_GUILD, guild_id}))
        .order_by(col(Person.guild_id))
    )
    return {slug: name for slug, name, _ in rows}
