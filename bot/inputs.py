"""What a member types, judged before the core uses it: ``db.cleaning``'s rules (docs/CURATION.md,
"Clean input"), with a polite refusal (``InvalidInput``) where they refuse. No Discord here.

``refusal`` judges one value as Discord's own checks would have, had the payload been Discord's: a
text's control characters, emptiness and length, a number's range, a choice among the choices; the
tree (``bot.client.tree``) and the modals (``cogs.common.Modal``) ask it about every option and field
before anything else runs. ``line`` and ``text`` clean what a member typed for the core (whitespace
collapsed, ends trimmed). ``ID_MAX`` bounds every option that names a row by its id.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from bot.errors import InvalidInput
from bot.messages.catalogue import Msg, say
from db.cleaning import ID_MAX, ControlCharacter, clean_line, clean_text, codepoint

__all__ = ["ID_MAX", "line", "refusal", "text"]


def _path(option: str | None) -> str:
    return f"`{option}`" if option else say(Msg.WHAT_YOU_TYPED)


def _unclean(error: ControlCharacter, option: str | None) -> InvalidInput:
    return InvalidInput(Msg.CONTROL_CHARACTER, path=_path(option), character=codepoint(error.character))


def _cleaned(clean: Callable[[str], str], typed: str, option: str | None, limit: int | None) -> str:
    try:
        cleaned = clean(typed)
    except ControlCharacter as error:
        raise _unclean(error, option) from None
    if limit is not None and len(cleaned) > limit:
        raise InvalidInput(Msg.TOO_LONG, path=_path(option), length=len(cleaned), limit=limit)
    return cleaned


def line(typed: str, *, option: str | None = None, limit: int | None = None) -> str:
    """One line as the core takes it (``db.cleaning.clean_line``; "" when blank), or ``InvalidInput``
    naming the ``option`` that holds a control character or is longer than ``limit`` once cleaned."""
    return _cleaned(clean_line, typed, option, limit)


def text(typed: str, *, option: str | None = None, limit: int | None = None) -> str:
    """A text of several lines as the core takes it (``db.cleaning.clean_text``), or ``InvalidInput``."""
    return _cleaned(clean_text, typed, option, limit)


def refusal(
    option: str,
    value: object,
    *,
    low: float | None = None,
    high: float | None = None,
    choices: Collection[object] = (),
) -> InvalidInput | None:
    """Why ``value``, given for ``option``, cannot be taken; None when it can.

    For a text, ``low`` and ``high`` are its least and greatest length, as Discord counts it; a text
    that is blank once cleaned is empty. For a number they are its range. ``choices``, when any, are
    the only values allowed.
    """
    if choices and value not in choices:
        return InvalidInput(Msg.NOT_UNDERSTOOD, value=value)
    if isinstance(value, str):
        try:
            blank = not clean_text(value)
        except ControlCharacter as error:
            return _unclean(error, option)
        if low and blank:
            return InvalidInput(Msg.EMPTY, path=_path(option))
        if high is not None and len(value) > high:
            return InvalidInput(Msg.TOO_LONG, path=_path(option), length=len(value), limit=int(high))
    elif isinstance(value, int | float) and not isinstance(value, bool) and not _within(value, low, high):
        return InvalidInput(Msg.OUT_OF_RANGE, path=_path(option), value=value, low=low, high=high)
    return None


def _within(number: float, low: float | None, high: float | None) -> bool:
    return (low is None or number >= low) and (high is None or number <= high)
