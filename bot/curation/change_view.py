"""A change to one entry as a moderator reads it: what it was before and what it is after, field by field.

One formatter for every change a moderator is shown: a suggestion in ``/review`` (the entry the guild
sees now against the proposal) and a change in ``/history`` (the audit's before and after). It works on
dataset JSON (``Entry.model_dump(mode="json")``) and knows no Discord and no database: the names of the
people, parties and chambers an entry refers to come in as ``Names``.

``sections`` gives one ``Section`` per changed field of the entry, and one per added, removed or changed
part (a quote, a ruling, a position of a motion), each a list of lines of marked spans: words removed
(``OLD``), added (``NEW``) or kept (``SAME``), and field names (``LABEL``). A short value reads
"old → new"; a long text is a word-level diff. ``markdown`` and ``plain`` write spans for an embed and
for a file; ``chunks`` splits a section's lines into pieces of at most a given length, closing and
reopening marks at a cut, so that a long text is split across embed fields rather than cut.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.messages.catalogue import Msg, say
from db.models import EntityKind

SHORT = 80  # characters up to which a changed value reads "old → new" rather than as a word diff


class Mark(StrEnum):
    SAME = "same"
    OLD = "old"  # removed words, or a value that is gone
    NEW = "new"  # added words, or a value that is new
    LABEL = "label"  # a field's name


Span = tuple[Mark, str]
Line = tuple[Span, ...]
Names = Mapping[tuple[EntityKind, str], str]
"""Display names by (kind, slug), as the guild sees them; a slug without one is shown as it is."""

# Fields that hold a slug of another entry, by the kind of entry they refer to.
REFERENCES: dict[str, EntityKind] = {
    "person": EntityKind.PERSON,
    "speaker": EntityKind.PERSON,
    "moved_by": EntityKind.PERSON,
    "ruled_by": EntityKind.PERSON,
    "party": EntityKind.PARTY,
    "chamber": EntityKind.CHAMBER,
}
# Fields whose values are words of a vocabulary (``db.models``' enums), shown with spaces.
VOCABULARIES = frozenset({"kind", "procedure", "result", "stance", "attribution", "delivery", "outcome"})
# What one item of a list of parts is called.
PARTS: dict[str, Msg] = {
    "participants": Msg.PART_PARTICIPANT,
    "motions": Msg.PART_MOTION,
    "positions": Msg.PART_POSITION,
    "quotes": Msg.PART_QUOTE,
    "rulings": Msg.PART_RULING,
}


@dataclass(frozen=True, slots=True)
class Section:
    """One changed field (its name as title, its value as the one line) or one changed part."""

    title: str
    lines: tuple[Line, ...]


def references(*entries: Mapping[str, Any] | None) -> set[tuple[EntityKind, str]]:
    """Every (kind, slug) the entries refer to by a field of ``REFERENCES``, however deep."""
    found: set[tuple[EntityKind, str]] = set()

    def visit(value: object) -> None:
        if isinstance(value, Mapping):
            for name, inner in value.items():
                if name in REFERENCES and isinstance(inner, str):
                    found.add((REFERENCES[name], inner))
                visit(inner)
        elif isinstance(value, list):
            for inner in value:
                visit(inner)

    for entry in entries:
        visit(entry)
    return found


def sections(
    before: Mapping[str, Any] | None, after: Mapping[str, Any] | None, names: Names
) -> list[Section]:
    """What turns ``before`` into ``after`` (entries' dataset JSON; None for no entry), field by field."""
    changed, parts = _compare("", before, after, names)
    return [Section(_title(_label(name)), (value,)) for name, value in changed] + parts


def _compare(
    within: str, old: Mapping[str, Any] | None, new: Mapping[str, Any] | None, names: Names
) -> tuple[list[tuple[str, Line]], list[Section]]:
    """The changed fields of an object (entry or part) by name, and the sections of its changed parts;
    ``within`` names the part holding them ("" for the entry)."""
    whole = old is None or new is None
    changed: list[tuple[str, Line]] = []
    parts: list[Section] = []
    for name in _names(old, new):
        before, after = _get(old, name), _get(new, name)
        if before == after:
            continue
        if _parts(before) or _parts(after):
            parts += _part_sections(within, name, before or [], after or [], names)
        else:
            changed.append((name, _value(name, before, after, names, whole=whole)))
    return changed, parts


def _names(*objects: Mapping[str, Any] | None) -> list[str]:
    """The fields of the objects, in the order the last one has them, then the others'."""
    ordered: dict[str, None] = {}
    for obj in reversed(objects):
        ordered.update(dict.fromkeys(obj or {}))
    return list(ordered)


def _get(obj: Mapping[str, Any] | None, name: str) -> Any:
    return None if obj is None else obj.get(name)


def _parts(value: object) -> bool:
    return isinstance(value, list) and any(isinstance(item, Mapping) for item in value)


def _label(name: str) -> str:
    return name.replace("_", " ")


def _title(text: str) -> str:
    return text[:1].upper() + text[1:]


def _part_title(within: str, name: str, number: int, msg: Msg) -> str:
    title = say(msg, part=say(PARTS[name]), number=number)
    return f"{within}, {title}" if within else _title(title)


def _part_sections(within: str, name: str, old: list[Any], new: list[Any], names: Names) -> list[Section]:
    """The parts of list ``name`` that were added, removed or changed (each with its number)."""
    keyed = difflib.SequenceMatcher(
        None, [json.dumps(o, sort_keys=True) for o in old], [json.dumps(n, sort_keys=True) for n in new]
    )
    found: list[Section] = []
    for tag, i1, i2, j1, j2 in keyed.get_opcodes():
        if tag == "equal":
            continue
        paired = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for offset in range(paired):
            title = _part_title(within, name, j1 + offset + 1, Msg.CHANGE_PART)
            found += _item_sections(title, old[i1 + offset], new[j1 + offset], names)
        for index in range(i1 + paired, i2):
            title = _part_title(within, name, index + 1, Msg.CHANGE_PART_REMOVED)
            found += _item_sections(title, old[index], None, names)
        for index in range(j1 + paired, j2):
            title = _part_title(within, name, index + 1, Msg.CHANGE_PART_ADDED)
            found += _item_sections(title, None, new[index], names)
    return found


def _item_sections(
    title: str, old: Mapping[str, Any] | None, new: Mapping[str, Any] | None, names: Names
) -> list[Section]:
    """One part: a line per changed field (every field of an added or removed part), then its own parts."""
    changed, parts = _compare(title, old, new, names)
    lines = tuple(((Mark.LABEL, _label(name)), *value) for name, value in changed)
    return ([Section(title, lines)] if lines else []) + parts


def _shown(name: str, value: object, names: Names) -> str:
    """A field's value in words: a reference by its name, a vocabulary word with spaces, a list joined."""
    if isinstance(value, list):
        return ", ".join(_shown(name, item, names) for item in value)
    text = str(value)
    if name in REFERENCES:
        return names.get((REFERENCES[name], text), text)
    return text.replace("_", " ") if name in VOCABULARIES else text


def _value(name: str, old: Any, new: Any, names: Names, *, whole: bool = False) -> Line:
    """One field's change: what is new, what is gone, old → new, or a word diff of a long text.

    A field of a ``whole`` entry or part (one added or removed as a whole, as its title says) shows its
    value unmarked.
    """
    if whole:
        return ((Mark.SAME, _shown(name, new if old is None else old, names)),)
    if isinstance(old, list) or isinstance(new, list):
        return _listed(name, old or [], new or [], names)
    if old is None:
        return ((Mark.NEW, _shown(name, new, names)),)
    if new is None:
        return ((Mark.OLD, _shown(name, old, names)),)
    before, after = _shown(name, old, names), _shown(name, new, names)
    if name in REFERENCES or (max(len(before), len(after)) <= SHORT and "\n" not in before + after):
        return ((Mark.OLD, before), (Mark.SAME, " → "), (Mark.NEW, after))
    return tuple(word_diff(before, after))


def _listed(name: str, old: list[Any], new: list[Any], names: Names) -> Line:
    """A list of words (aliases, source keys): each kept, removed or added one, in order."""
    spans: list[Span] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new).get_opcodes():
        kept = tag == "equal"
        for item in old[i1:i2]:
            spans.append((Mark.SAME if kept else Mark.OLD, _shown(name, item, names)))
        if not kept:
            spans += [(Mark.NEW, _shown(name, item, names)) for item in new[j1:j2]]
    line: list[Span] = []
    for span in spans:
        line += [(Mark.SAME, ", "), span] if line else [span]
    return tuple(line) or ((Mark.OLD, say(Msg.CLEARED)),)


def word_diff(before: str, after: str) -> Iterator[Span]:
    """``before`` turned into ``after`` word by word: kept, removed and added runs of words."""
    old, new = _tokens(before), _tokens(after)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        removed, added = "".join(old[i1:i2]), "".join(new[j1:j2])
        if tag == "equal":
            yield Mark.SAME, removed
            continue
        if removed:
            yield Mark.OLD, removed
        if removed and added and not removed[-1].isspace():
            yield Mark.SAME, " "
        if added:
            yield Mark.NEW, added


def _tokens(text: str) -> list[str]:
    """Words with the spaces after them (so that a kept space never splits a run of changed words)."""
    return re.findall(r"^\s+|\S+\s*", text)


def marked(found: Iterable[Section]) -> bool:
    """Whether any section shows removed or added words (so that a reply explains the marks)."""
    return any(mark in {Mark.OLD, Mark.NEW} for s in found for line in s.lines for mark, _ in line)


# -- writing spans ------------------------------------------------------------------------------------

_MARKDOWN = re.compile(r"([\\*_~|`>#\[\]])")
# How each mark opens and closes, in Discord markdown and in a plain-text file.
MARKDOWN_MARKS: dict[Mark, tuple[str, str]] = {
    Mark.SAME: ("", ""),
    Mark.OLD: ("~~", "~~"),
    Mark.NEW: ("__", "__"),
    Mark.LABEL: ("**", "**: "),
}
PLAIN_MARKS: dict[Mark, tuple[str, str]] = {
    Mark.SAME: ("", ""),
    Mark.OLD: ("[-", "-]"),
    Mark.NEW: ("{+", "+}"),
    Mark.LABEL: ("", ": "),
}


def escape(text: str) -> str:
    """Entry text made safe inside Discord markdown: its own markup escaped."""
    return _MARKDOWN.sub(r"\\\1", text)


def _span(mark: Mark, text: str, *, markdown: bool) -> str:
    """One span written out; a mark never wraps the spaces at its ends (markdown would not render)."""
    opening, closing = (MARKDOWN_MARKS if markdown else PLAIN_MARKS)[mark]
    body = text.strip() if mark in {Mark.OLD, Mark.NEW} else text
    if not body:
        return text
    lead, tail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
    if mark not in {Mark.OLD, Mark.NEW}:
        lead = tail = ""
    return f"{lead}{opening}{escape(body) if markdown else body}{closing}{tail}"


def markdown(line: Line) -> str:
    return "".join(_span(mark, text, markdown=True) for mark, text in line)


def plain(line: Line) -> str:
    return "".join(_span(mark, text, markdown=False) for mark, text in line)


def chunks(lines: Sequence[Line], size: int) -> list[str]:
    """The lines in Discord markdown, in pieces of at most ``size`` characters, cut between lines where
    they can be and between words where they must (a mark cut in two is closed and reopened)."""
    pieces: list[str] = []
    current = ""
    for line in lines:
        text = markdown(line)
        if len(current) + 1 + len(text) <= size or (not current and len(text) <= size):
            current = f"{current}\n{text}" if current else text
        elif len(text) <= size:
            pieces.append(current)
            current = text
        else:
            if len(current) > size // 2:  # too little room left to start the long line here
                pieces.append(current)
                current = ""
            *full, current = _cut(line, size, current)
            pieces += full
    if current:
        pieces.append(current)
    return pieces


def _cut(line: Line, size: int, start: str) -> list[str]:
    """A line too long for one piece, after ``start`` (the piece so far), cut between words into pieces
    of at most ``size`` characters."""
    pieces: list[str] = []
    lead = f"{start}\n" if start else ""
    run: list[Span] = []
    for mark, word in _words(line):
        grown = [*run[:-1], (mark, run[-1][1] + word)] if run and run[-1][0] is mark else [*run, (mark, word)]
        if run and len(lead) + len(markdown(tuple(grown))) > size:
            pieces.append(lead + markdown(tuple(run)).rstrip())
            lead, grown = "", [(mark, word.lstrip())]
        run = grown
    return [*pieces, lead + markdown(tuple(run))]


def _words(line: Line) -> Iterator[Span]:
    """A line's words (with the spaces after them), each with its mark; a very long word in pieces."""
    for mark, text in line:
        for word in re.findall(r"\S{1,200}\s*|\s+", text):
            yield mark, word
