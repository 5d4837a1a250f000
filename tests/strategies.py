"""Hypothesis strategies the property-based tests share: hostile text, and the answers' views built from it.

``hostile_text`` mixes arbitrary Unicode with the pieces that break things: mention syntax and its
parts, controls, bidi controls, markdown, letters that fold in several ways, and long runs of them
(past Discord's limits, with a mention every few characters, so that defusing grows them).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import types
from typing import Any, Union, get_args, get_origin, get_type_hints

from hypothesis import strategies as st

PIECES = (
    *("@everyone", "@here", "@Everyone", "<@&456>", "<@123>", "<@!7>", "<#1>", "<", ">", "@", "&", "#"),
    *("\n", "\r\n", "\t", "\x00", "\x07", "\x1b", "\x1c", "\x7f", "\x85", "\x9f"),
    *("\u202a", "\u202e", "\u202c", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c", "\u200b"),
    *("*", "_", "`", "~", "|", "[", "]", "(", ")", "\\", '"', "'", ":", " ", "  "),
    *("É", "é", "ß", "İ", "ﬁ", "Ⅻ", "l'", "’", "Ελλάδα", "😀", "\u0301", "１２"),
)
_piece = st.one_of(st.sampled_from(PIECES), st.text(max_size=4))
_short = st.lists(_piece, max_size=12).map("".join)


def hostile_text() -> st.SearchStrategy[str]:
    """Text of any length up to a few thousand characters, rich in what rendering must defuse."""
    repeated = st.tuples(_short, st.integers(1, 600)).map(lambda pair: pair[0] * pair[1])
    return st.one_of(st.text(), _short, repeated)


def of_type(hint: Any) -> st.SearchStrategy[Any]:
    """Values of ``hint``, every ``str`` in them hostile: frozen views (dataclasses) field by field,
    optional fields and tuples (a few items), enums, dates and numbers as Hypothesis makes them."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is str:
        return hostile_text()
    if origin in (Union, types.UnionType):
        return st.one_of(*(of_type(arg) for arg in args))
    if origin is tuple:
        return st.lists(of_type(args[0]), max_size=3).map(tuple)
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        hints = get_type_hints(hint)
        fields = {field.name: of_type(hints[field.name]) for field in dataclasses.fields(hint)}
        return st.builds(hint, **fields)
    if hint is dt.date:
        return st.dates(dt.date(1800, 1, 1), dt.date(2100, 12, 31))
    return st.from_type(hint)
