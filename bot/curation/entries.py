"""Pure changes to one dataset entry, and polite messages for entries that do not validate.

Every function takes an entry (``db.dataset``'s pydantic models) and returns a new one; nothing here
touches the database. ``bot.curation.apply`` runs them as its ``change`` and validates the result
again in the guild's view, so these check only what they can see: the parts they build, and that an
index or alias exists. Indexes are 0-based, as in the dataset's JSON paths (``quotes[0]``).

Parts are given as mappings of dataset fields (``{"speaker": "jagmeet-singh", "text": ...}``); an
edit names only the fields that change (``None`` clears an optional field).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from bot.curation.problems import describe, location
from bot.errors import InvalidInput
from bot.messages.catalogue import Msg, say
from db.dataset.schema import (
    IncidentEntry,
    MotionEntry,
    ParticipantEntry,
    PartyEntry,
    PersonEntry,
    PositionEntry,
    QuoteEntry,
    RulingEntry,
    TermEntry,
)

__all__ = [
    "add_alias",
    "add_motion",
    "add_participant",
    "add_position",
    "add_quote",
    "add_ruling",
    "edit_alias",
    "edit_motion",
    "edit_participant",
    "edit_position",
    "edit_quote",
    "edit_ruling",
    "invalid",
    "problem_message",
    "remove_alias",
    "remove_motion",
    "remove_participant",
    "remove_position",
    "remove_quote",
    "remove_ruling",
    "validated",
]

_Model = TypeVar("_Model", bound=BaseModel)
_Aliased = TypeVar("_Aliased", IncidentEntry, PersonEntry, PartyEntry, TermEntry)

# What the numbered parts of an incident are called, one and many.
PARTS: dict[str, tuple[Msg, Msg]] = {
    "participant": (Msg.PART_PARTICIPANT, Msg.PART_PARTICIPANTS),
    "quote": (Msg.PART_QUOTE, Msg.PART_QUOTES),
    "ruling": (Msg.PART_RULING, Msg.PART_RULINGS),
    "motion": (Msg.PART_MOTION, Msg.PART_MOTIONS),
    "position": (Msg.PART_POSITION, Msg.PART_POSITIONS),
}


def invalid(problems: Sequence[str]) -> InvalidInput:
    """The error refusing a change, listing every problem found with it."""
    if len(problems) == 1:
        return InvalidInput(Msg.CANNOT_SAVE, problem=problems[0])
    return InvalidInput(Msg.CANNOT_SAVE_MANY, problems="\n".join(f"• {problem}" for problem in problems))


def problem_message(problems: Sequence[str]) -> str:
    """One reply listing every problem found with a change (the message of ``invalid``)."""
    return invalid(problems).message


def validated(
    model: type[_Model],
    data: Mapping[str, object],
    *,
    at: str = "",
    within: IncidentEntry | None = None,
) -> _Model:
    """``data`` as a ``model``, or ``InvalidInput`` saying politely what is wrong, and where in a
    moderator's words (``bot.curation.problems``): ``at`` is the path of ``data`` in the incident
    ``within`` (as it was before the change), which names its parts and sources."""
    try:
        return model.model_validate(dict(data))
    except ValidationError as error:
        steps = location(at)
        raise invalid([describe(detail, steps, model, within) for detail in error.errors()]) from None


# -- lists of parts ------------------------------------------------------------------------------------


def _checked(items: Sequence[object], index: int, what: str, owner: str) -> None:
    """Refuse ``index`` unless ``owner``'s ``items`` have it; ``what`` is their kind, a key of ``PARTS``."""
    if not 0 <= index < len(items):
        one, many = PARTS[what]
        raise InvalidInput(
            Msg.NO_SUCH_PART,
            part=say(one),
            index=index,
            owner=owner,
            count=len(items),
            parts=say(one if len(items) == 1 else many),
        )


def _added(
    items: Sequence[_Model], part: Mapping[str, object], model: type[_Model], at: str, within: IncidentEntry
) -> list[_Model]:
    return [*items, validated(model, part, at=f"{at}[{len(items)}]", within=within)]


def _edited(
    items: Sequence[_Model],
    index: int,
    fields: Mapping[str, object],
    what: str,
    within: IncidentEntry,
    at: str,
    owner: str | None = None,
) -> list[_Model]:
    owner = owner or _name(within)
    _checked(items, index, what, owner)
    old = items[index]
    new = validated(type(old), {**old.model_dump(), **fields}, at=f"{at}[{index}]", within=within)
    if new == old:
        raise InvalidInput(Msg.PART_UNCHANGED, part=say(PARTS[what][0]), index=index, owner=owner)
    return [*items[:index], new, *items[index + 1 :]]


def _removed(items: Sequence[_Model], index: int, what: str, owner: str) -> list[_Model]:
    _checked(items, index, what, owner)
    return [*items[:index], *items[index + 1 :]]


def _name(entry: IncidentEntry) -> str:
    return f"`{entry.slug}`"


def add_quote(entry: IncidentEntry, quote: Mapping[str, object]) -> IncidentEntry:
    return entry.model_copy(update={"quotes": _added(entry.quotes, quote, QuoteEntry, "quotes", entry)})


def edit_quote(entry: IncidentEntry, index: int, **fields: object) -> IncidentEntry:
    quotes = _edited(entry.quotes, index, fields, "quote", entry, "quotes")
    return entry.model_copy(update={"quotes": quotes})


def remove_quote(entry: IncidentEntry, index: int) -> IncidentEntry:
    return entry.model_copy(update={"quotes": _removed(entry.quotes, index, "quote", _name(entry))})


def add_ruling(entry: IncidentEntry, ruling: Mapping[str, object]) -> IncidentEntry:
    return entry.model_copy(update={"rulings": _added(entry.rulings, ruling, RulingEntry, "rulings", entry)})


def edit_ruling(entry: IncidentEntry, index: int, **fields: object) -> IncidentEntry:
    rulings = _edited(entry.rulings, index, fields, "ruling", entry, "rulings")
    return entry.model_copy(update={"rulings": rulings})


def remove_ruling(entry: IncidentEntry, index: int) -> IncidentEntry:
    return entry.model_copy(update={"rulings": _removed(entry.rulings, index, "ruling", _name(entry))})


def add_motion(entry: IncidentEntry, motion: Mapping[str, object]) -> IncidentEntry:
    return entry.model_copy(update={"motions": _added(entry.motions, motion, MotionEntry, "motions", entry)})


def edit_motion(entry: IncidentEntry, index: int, **fields: object) -> IncidentEntry:
    motions = _edited(entry.motions, index, fields, "motion", entry, "motions")
    return entry.model_copy(update={"motions": motions})


def remove_motion(entry: IncidentEntry, index: int) -> IncidentEntry:
    return entry.model_copy(update={"motions": _removed(entry.motions, index, "motion", _name(entry))})


def add_participant(entry: IncidentEntry, participant: Mapping[str, object]) -> IncidentEntry:
    participants = _added(entry.participants, participant, ParticipantEntry, "participants", entry)
    return entry.model_copy(update={"participants": participants})


def edit_participant(entry: IncidentEntry, index: int, **fields: object) -> IncidentEntry:
    participants = _edited(entry.participants, index, fields, "participant", entry, "participants")
    return entry.model_copy(update={"participants": participants})


def remove_participant(entry: IncidentEntry, index: int) -> IncidentEntry:
    participants = _removed(entry.participants, index, "participant", _name(entry))
    return entry.model_copy(update={"participants": participants})


def _with_positions(entry: IncidentEntry, motion: int, positions: list[PositionEntry]) -> IncidentEntry:
    changed = entry.motions[motion].model_copy(update={"positions": positions})
    return entry.model_copy(
        update={"motions": [*entry.motions[:motion], changed, *entry.motions[motion + 1 :]]}
    )


def add_position(entry: IncidentEntry, motion: int, position: Mapping[str, object]) -> IncidentEntry:
    _checked(entry.motions, motion, "motion", _name(entry))
    at = f"motions[{motion}].positions"
    return _with_positions(
        entry, motion, _added(entry.motions[motion].positions, position, PositionEntry, at, entry)
    )


def edit_position(entry: IncidentEntry, motion: int, index: int, **fields: object) -> IncidentEntry:
    _checked(entry.motions, motion, "motion", _name(entry))
    owner = say(Msg.MOTION_OF, motion=motion, slug=entry.slug)
    at = f"motions[{motion}].positions"
    positions = _edited(entry.motions[motion].positions, index, fields, "position", entry, at, owner)
    return _with_positions(entry, motion, positions)


def remove_position(entry: IncidentEntry, motion: int, index: int) -> IncidentEntry:
    _checked(entry.motions, motion, "motion", _name(entry))
    owner = say(Msg.MOTION_OF, motion=motion, slug=entry.slug)
    return _with_positions(entry, motion, _removed(entry.motions[motion].positions, index, "position", owner))


# -- aliases (incidents, people, parties and terms) -----------------------------------------------------


def add_alias(entry: _Aliased, alias: str) -> _Aliased:
    if alias in entry.aliases:
        raise InvalidInput(Msg.HAS_ALIAS, slug=entry.slug, alias=alias)
    return entry.model_copy(update={"aliases": [*entry.aliases, alias]})


def edit_alias(entry: _Aliased, old: str, new: str) -> _Aliased:
    if old not in entry.aliases:
        raise InvalidInput(Msg.NO_ALIAS, slug=entry.slug, alias=old)
    if new == old:
        raise InvalidInput(Msg.ALIAS_UNCHANGED, alias=new)
    if new in entry.aliases:
        raise InvalidInput(Msg.HAS_ALIAS, slug=entry.slug, alias=new)
    return entry.model_copy(update={"aliases": [new if alias == old else alias for alias in entry.aliases]})


def remove_alias(entry: _Aliased, alias: str) -> _Aliased:
    if alias not in entry.aliases:
        raise InvalidInput(Msg.NO_ALIAS, slug=entry.slug, alias=alias)
    return entry.model_copy(update={"aliases": [other for other in entry.aliases if other != alias]})
