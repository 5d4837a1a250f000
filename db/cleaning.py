"""Cleaning what a member or a file gives before it is stored: text and ids (docs/CURATION.md, "Clean
input"). Pure functions, shared by the dataset format (``db.dataset.schema``, so imports and every
entry a moderator writes) and the bot's core (``bot.inputs``, for everything else a member types).

Whitespace is what Unicode (and ``str.isspace``) counts as whitespace, with the invisible characters
people paste along with text (zero-width space, word joiner, byte-order mark, soft hyphen), which
are dropped wherever they are. ``clean_line`` makes one line: a tab, a line break or a run of
several spaces becomes one space; a single space of any kind (a no-break space in French
typography) stays. ``clean_text`` keeps a multi-line text's lines and tabs: every kind of line break
becomes ``\\n`` and each line loses its trailing spaces. Both trim the ends (zero-width joiners too,
which join nothing there). Any other control character (``NUL`` and the rest of Unicode's
category Cc, and the lone surrogates no encoding can write) is never removed silently: it is
refused (``ControlCharacter``), so what is accepted is stored as it was meant.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Final

__all__ = ["ID_MAX", "ControlCharacter", "clean_line", "clean_text", "codepoint", "is_id"]

ID_MAX: Final = 2**31 - 1
"""The largest id a table holds (an INTEGER key, PostgreSQL's ``int4``); ids start at 1."""

# The control characters that are not whitespace (Cc but for \t \n \v \f \r \x1c-\x1f \x85), and the
# surrogates, which only a broken encoding yields and none can write back.
_CONTROL: Final = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\ud800-\udfff]")
INVISIBLE: Final = "\u00ad\u180e\u200b\u2060\ufeff"  # soft hyphen, zero-width space, word joiner, BOM
JOINERS: Final = "\u200c\u200d"  # zero-width (non-)joiners: needed inside some scripts and emoji
_DROP: Final = dict.fromkeys(map(ord, INVISIBLE))
# Whitespace other than Unicode's space separators (Zs): tabs, line and paragraph breaks, separators.
NOT_SPACES: Final = "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029"
_LINE_SPACE: Final = re.compile(rf"\s{{2,}}|[{NOT_SPACES}]")
_BREAK: Final = re.compile("\r\n|[\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029]")
_TRAILING: Final = re.compile(r"[^\S\n]+(?=\n)")
_EDGES: Final = re.compile(rf"^[\s{JOINERS}]+|[\s{JOINERS}]+$")


class ControlCharacter(ValueError):
    """Text holding a control character no text field may hold (``character``)."""

    def __init__(self, character: str) -> None:
        self.character = character
        super().__init__(f"contains the control character {codepoint(character)}, which text cannot hold")


def codepoint(character: str) -> str:
    """``U+0000``: how a message names a character that cannot be shown."""
    return f"U+{ord(character):04X}"


def _refuse_controls(text: str) -> None:
    found = _CONTROL.search(text)
    if found is not None:
        raise ControlCharacter(found.group())


def _tidy(text: str) -> bool:
    """Whether ``text`` is clean already: printable (no whitespace but the space), no space at either
    end, no two in a row (the common case, checked without a regular expression)."""
    return text.isprintable() and text[:1] != " " and text[-1:] != " " and "  " not in text


def clean_line(text: str) -> str:
    """One line of text as stored: whitespace collapsed and trimmed, invisible characters dropped
    ("" when nothing is left). Raises ``ControlCharacter``."""
    if _tidy(text):
        return text
    _refuse_controls(text)
    return _EDGES.sub("", _LINE_SPACE.sub(" ", text.translate(_DROP)))


def clean_text(text: str) -> str:
    """A text of several lines as stored: every line break a ``\\n``, each line's trailing whitespace
    and the text's blank ends trimmed, invisible characters dropped. Raises ``ControlCharacter``."""
    if _tidy(text):
        return text
    _refuse_controls(text)
    lines = _BREAK.sub("\n", text.translate(_DROP)).replace("\x1f", " ")
    return _EDGES.sub("", _TRAILING.sub("", lines))


_READING_STORED: ContextVar[bool] = ContextVar("reading_stored", default=False)


@contextmanager
def reading_stored() -> Iterator[None]:
    """Within it, entries are read back from stored rows: their text is taken as stored, not judged by
    these rules (text stored before parlbot cleaned its input may hold characters they refuse, and a
    write touching that entry must still be able to read it)."""
    token = _READING_STORED.set(True)
    try:
        yield
    finally:
        _READING_STORED.reset(token)


def judging_input() -> bool:
    """Whether text now is input to judge (not text read back from the database)."""
    return not _READING_STORED.get()


def is_id(number: int) -> bool:
    """Whether ``number`` can be a row's id (1 to ``ID_MAX``): anything else names no row."""
    return 1 <= number <= ID_MAX
