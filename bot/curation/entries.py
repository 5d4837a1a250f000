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
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from bot.errors import InvalidInput
from db.dataset.schema import (
    IncidentEntry,
    MotionEntry,
    ParticipantEntry,
    PartyEntry,
    PersonEntry,
    PositionEntry,
    QuoteEntry,
    RulingEntry,
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
_Aliased = TypeVar("_Aliased", IncidentEntry, PersonEntry, PartyEntry)

DATE_FIELDS = frozenset({"date", "published"})


def problem_message(problems: Sequence[str]) -> str:
    """One reply listing every problem found with a change."""
    if len(problems) == 1:
        return f"That change can't be saved: {problems[0]}"
    return "That change can't be saved:\n" + "\n".join(f"• {problem}" for problem in problems)


def _path(location: Sequence[int | str]) -> str:
    path = ""
    for part in location:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else part)
    return path


def _describe(detail: ErrorDetails, at: str) -> str:
    """One pydantic error in our words: which field, what is wrong, and what would be right."""
    location = [part for part in (at, *detail["loc"]) if part != ""]
    path = f"`{_path(location)}`"
    name = location[-1] if location else ""
    kind = detail["type"]
    value = detail.get("input")
    context = detail.get("ctx", {})
    if name in DATE_FIELDS and kind != "missing":
        return f"{path}: {value!r} is not a date; please write it as YYYY-MM-DD (for example 2020-06-17)."
    if name == "source" and (kind == "missing" or value is None):
        return f"{path}: a source is required; give the key of one of the incident's sources."
    if kind == "string_too_long":
        length = len(value) if isinstance(value, str) else "too many"
        return f"{path} is {length} characters long; the limit is {context.get('max_length')}."
    if kind == "missing":
        return f"{path} is required."
    if kind == "string_too_short":
        return f"{path} cannot be empty."
    if kind == "string_pattern_mismatch" and name == "url":
        return f"{path} must be a web address starting with http:// or https://."
    if kind == "string_pattern_mismatch":
        return f"{path} must be lower-case words joined by hyphens, like `singh-2020` (got {value!r})."
    if kind == "enum":
        return f"{path} must be one of {context.get('expected')} (got {value!r})."
    if kind == "extra_forbidden":
        return f"{path} is not a field of this entry."
    return f"{path}: {detail['msg']}."


def validated(model: type[_Model], data: Mapping[str, Any], *, at: str = "") -> _Model:
    """``data`` as a ``model``, or ``InvalidInput`` saying politely what is wrong (paths under ``at``)."""
    try:
        return model.model_validate(dict(data))
    except ValidationError as error:
        raise InvalidInput(problem_message([_describe(detail, at) for detail in error.errors()])) from None


# -- lists of parts ------------------------------------------------------------------------------------


def _checked(items: Sequence[Any], index: int, what: str, owner: str) -> None:
    if not 0 <= index < len(items):
        count = f"{len(items)} {what}{'' if len(items) == 1 else 's'}"
        raise InvalidInput(f"There is no {what} {index} in {owner}: it has {count} (numbered from 0).")


def _added(items: Sequence[_Model], part: Mapping[str, Any], model: type[_Model], at: str) -> list[_Model]:
    return [*items, validated(model, part, at=f"{at}[{len(items)}]")]


def _edited(
    items: Sequence[_Model], index: int, fields: Mapping[str, Any], what: str, owner: str, at: str
) -> list[_Model]:
    _checked(items, index, what, owner)
    old = items[index]
    new = validated(type(old), {**old.model_dump(), **fields}, at=f"{at}[{index}]")
    if new == old:
        raise InvalidInput(f"Nothing to change: {what} {index} of {owner} already says that.")
    return [*items[:index], new, *items[index + 1 :]]


def _removed(items: Sequence[_Model], index: int, what: str, owner: str) -> list[_Model]:
    _checked(items, index, what, owner)
    return [*items[:index], *items[index + 1 :]]


def _name(entry: IncidentEntry) -> str:
    return f"`{entry.slug}`"


def add_quote(entry: IncidentEntry, quote: Mapping[str, Any]) -> IncidentEntry:
    return entry.model_copy(update={"quotes": _added(entry.quotes, quote, QuoteEntry, "quotes")})


def edit_quote(entry: IncidentEntry, index: int, **fields: Any) -> IncidentEntry:
    quotes = _edited(entry.quotes, index, fields, "quote", _name(entry), "quotes")
    return entry.model_copy(update={"quotes": quotes})


def remove_quote(entry: IncidentEntry, index: int) -> IncidentEntry:
    return entry.model_copy(update={"quotes": _removed(entry.quotes, index, "quote", _name(entry))})


def add_ruling(entry: IncidentEntry, ruling: Mapping[str, Any]) -> IncidentEntry:
    return entry.model_copy(update={"rulings": _added(entry.rulings, ruling, RulingEntry, "rulings")})


def edit_ruling(entry: IncidentEntry, index: int, **fields: Any) -> IncidentEntry:
    rulings = _edited(entry.rulings, index, fields, "ruling", _name(entry), "rulings")
    return entry.model_copy(update={"rulings": rulings})


def remove_ruling(entry: IncidentEntry, index: int) -> IncidentEntry:
    return entry.model_copy(update={"rulings": _removed(entry.rulings, index, "ruling", _name(entry))})


def add_motion(entry: IncidentEntry, motion: Mapping[str, Any]) -> IncidentEntry:
    return entry.model_copy(update={"motions": _added(entry.motions, motion, MotionEntry, "motions")})


def edit_motion(entry: IncidentEntry, index: int, **fields: Any) -> IncidentEntry:
    motions = _edited(entry.motions, index, fields, "motion", _name(entry), "motions")
    return entry.model_copy(update={"motions": motions})


def remove_motion(entry: IncidentEntry, index: int) -> IncidentEntry:
    return entry.model_copy(update={"motions": _removed(entry.motions, index, "motion", _name(entry))})


def add_participant(entry: IncidentEntry, participant: Mapping[str, Any]) -> IncidentEntry:
    participants = _added(entry.participants, participant, ParticipantEntry, "participants")
    return entry.model_copy(update={"participants": participants})


def edit_participant(entry: IncidentEntry, index: int, **fields: Any) -> IncidentEntry:
    participants = _edited(entry.participants, index, fields, "participant", _name(entry), "participants")
    return entry.model_copy(update={"participants": participants})


def remove_participant(entry: IncidentEntry, index: int) -> IncidentEntry:
    participants = _removed(entry.participants, index, "participant", _name(entry))
    return entry.model_copy(update={"participants": participants})


def _with_positions(entry: IncidentEntry, motion: int, positions: list[PositionEntry]) -> IncidentEntry:
    changed = entry.motions[motion].model_copy(update={"positions": positions})
    return entry.model_copy(
        update={"motions": [*entry.motions[:motion], changed, *entry.motions[motion + 1 :]]}
    )


def add_position(entry: IncidentEntry, motion: int, position: Mapping[str, Any]) -> IncidentEntry:
    _checked(entry.motions, motion, "motion", _name(entry))
    at = f"motions[{motion}].positions"
    return _with_positions(
        entry, motion, _added(entry.motions[motion].positions, position, PositionEntry, at)
    )


def edit_position(entry: IncidentEntry, motion: int, index: int, **fields: Any) -> IncidentEntry:
    _checked(entry.motions, motion, "motion", _name(entry))
    owner = f"motion {motion} of `{entry.slug}`"
    at = f"motions[{motion}].positions"
    positions = _edited(entry.motions[motion].positions, index, fields, "position", owner, at)
    return _with_positions(entry, motion, positions)


def remove_position(entry: IncidentEntry, motion: int, index: int) -> IncidentEntry:
    _checked(entry.motions, motion, "motion", _name(entry))
    owner = f"motion {motion} of `{entry.slug}`"
    return _with_positions(entry, motion, _removed(entry.motions[motion].positions, index, "position", owner))


# -- aliases (incidents, people and parties) -------------------------------------------------------------


def add_alias(entry: _Aliased, alias: str) -> _Aliased:
    if alias in entry.aliases:
        raise InvalidInput(f"`{entry.slug}` already has the alias “{alias}”.")
    return entry.model_copy(update={"aliases": [*entry.aliases, alias]})


def edit_alias(entry: _Aliased, old: str, new: str) -> _Aliased:
    if old not in entry.aliases:
        raise InvalidInput(f"`{entry.slug}` has no alias “{old}”.")
    if new == old:
        raise InvalidInput(f"Nothing to change: the alias is already “{new}”.")
    if new in entry.aliases:
        raise InvalidInput(f"`{entry.slug}` already has the alias “{new}”.")
    return entry.model_copy(update={"aliases": [new if alias == old else alias for alias in entry.aliases]})


def remove_alias(entry: _Aliased, alias: str) -> _Aliased:
    if alias not in entry.aliases:
        raise InvalidInput(f"`{entry.slug}` has no alias “{alias}”.")
    return entry.model_copy(update={"aliases": [other for other in entry.aliases if other != alias]})
