"""Many strings in one buffer: a column that unpickles at once, whatever the number of its strings.

A list of 600,000 strings unpickles one object at a time (a tenth of a second for keys, more for long
labels); a ``Strings`` column is one UTF-8 buffer and one array of offsets, read a string at a time as
it is asked for. The search index keeps the documents it has loaded but not yet read this way
(``bot.search.index``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["Strings", "joined", "split"]

_ENCODING = "utf-8"
_ERRORS = "surrogatepass"  # any str encodes, even one with a lone surrogate, and decodes back the same
_SEPARATOR = "\x1f"  # between the words of a tuple held as one string: folded text never holds it


class Strings:
    """An immutable column of strings or None, in one buffer; ``column[i]`` decodes the i-th."""

    __slots__ = ("_data", "_ends", "_none")

    def __init__(self, values: Iterable[str | None]) -> None:
        encoded: list[bytes] = []
        none: list[bool] = []
        for value in values:
            encoded.append(b"" if value is None else value.encode(_ENCODING, _ERRORS))
            none.append(value is None)
        self._data = b"".join(encoded)
        self._ends: npt.NDArray[np.int64] = np.zeros(len(encoded) + 1, np.int64)
        np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)), out=self._ends[1:])
        # where the column holds None, if anywhere
        self._none: npt.NDArray[np.bool_] | None = np.array(none, np.bool_) if any(none) else None

    def __len__(self) -> int:
        return len(self._ends) - 1

    def __getitem__(self, index: int) -> str | None:
        if self._none is not None and self._none[index]:
            return None
        start, stop = self._ends[index : index + 2].tolist()
        return self._data[start:stop].decode(_ENCODING, _ERRORS)

    def taken(self, rows: npt.NDArray[np.intp]) -> Strings:
        """A column of the strings at ``rows``, in that order."""
        starts, stops = self._ends[rows], self._ends[rows + 1]
        lengths = stops - starts
        ends = np.zeros(len(rows) + 1, np.int64)
        np.cumsum(lengths, out=ends[1:])
        places = np.repeat(starts - ends[:-1], lengths) + np.arange(int(ends[-1]))
        return Strings._of(
            np.frombuffer(self._data, np.uint8)[places].tobytes(),
            ends,
            None if self._none is None else self._none[rows],
        )

    def followed_by(self, other: Strings) -> Strings:
        """A column of these strings, then ``other``'s."""
        ends = np.concatenate([self._ends, other._ends[1:] + self._ends[-1]])
        if self._none is None and other._none is None:
            return Strings._of(self._data + other._data, ends, None)
        nones = [
            np.zeros(len(column), np.bool_) if column._none is None else column._none
            for column in (self, other)
        ]
        return Strings._of(self._data + other._data, ends, np.concatenate(nones))

    @classmethod
    def _of(cls, data: bytes, ends: npt.NDArray[np.int64], none: npt.NDArray[np.bool_] | None) -> Strings:
        column = cls.__new__(cls)
        column._data, column._ends = data, ends
        column._none = none if none is not None and none.any() else None
        return column

    def __getstate__(self) -> tuple[bytes, npt.NDArray[np.int64], npt.NDArray[np.bool_] | None]:
        return self._data, self._ends, self._none

    def __setstate__(self, state: tuple[bytes, npt.NDArray[np.int64], npt.NDArray[np.bool_] | None]) -> None:
        data, ends, none = state
        # numpy's own dtypes: an array unpickled has a copy of its dtype (``SearchIndex.__setstate__``)
        self._data, self._ends = data, ends.view(np.int64)
        self._none = None if none is None else none.view(np.bool_)


def joined(words: Sequence[str]) -> str:
    """Words (folded, so free of the separator) as one string, which ``split`` turns back into them."""
    return _SEPARATOR.join(words)


def split(held: str | None) -> tuple[str, ...]:
    """The words ``joined`` made one string of (none for the empty string)."""
    return tuple(held.split(_SEPARATOR)) if held else ()
