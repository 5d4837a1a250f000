"""Many strings in one buffer: a column that unpickles at once, whatever the number of its strings.

A list of 600,000 strings unpickles one object at a time (a tenth of a second for keys, more for long
labels); a ``Strings`` column is one array of UTF-8 bytes and one array of offsets, read a string at a
time as it is asked for. Both are numpy arrays, so a snapshot holds them as buffers of its own, mapped
rather than read (``bot.search.snapshots``). The search index keeps the documents it has loaded but not
yet read this way (``bot.search.index``).
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

    __slots__ = ("_data", "_ends", "_none", "_view")

    def __init__(self, values: Iterable[str | None]) -> None:
        encoded: list[bytes] = []
        none: list[bool] = []
        for value in values:
            encoded.append(b"" if value is None else value.encode(_ENCODING, _ERRORS))
            none.append(value is None)
        ends = np.zeros(len(encoded) + 1, np.int64)
        np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)), out=ends[1:])
        self._hold(np.frombuffer(b"".join(encoded), np.uint8), ends, np.array(none, np.bool_))

    def _hold(
        self, data: npt.NDArray[np.uint8], ends: npt.NDArray[np.int64], none: npt.NDArray[np.bool_]
    ) -> None:
        self._data, self._ends = data, ends
        # where it holds None, if anywhere
        self._none: npt.NDArray[np.bool_] | None = none if none.any() else None
        self._view = data.data  # a memoryview: sliced and decoded faster than the array

    def __len__(self) -> int:
        return len(self._ends) - 1

    def __getitem__(self, index: int) -> str | None:
        if self._none is not None and self._none[index]:
            return None
        start, stop = self._ends[index : index + 2].tolist()
        return str(self._view[start:stop], _ENCODING, _ERRORS)

    def holding(self, rows: npt.NDArray[np.intp], word: str) -> npt.NDArray[np.bool_]:
        """Whether each tuple of words (``joined``) at ``rows`` holds ``word``: one search of them all, laid
        end to end, each between separators of its own, rather than a search of each."""
        starts, stops = self._ends[rows], self._ends[rows + 1]
        separator = _SEPARATOR.encode(_ENCODING)
        tuples = map(self._view.__getitem__, map(slice, starts.tolist(), stops.tolist()))
        needle = separator + word.encode(_ENCODING, _ERRORS) + separator
        between = (separator + (2 * separator).join(tuples) + separator).split(needle)
        lengths = np.fromiter(map(len, between[:-1]), np.int64, len(between) - 1)
        found = np.cumsum(lengths) + len(needle) * np.arange(len(lengths))  # where each needle begins
        sizes = stops - starts
        begins = np.cumsum(sizes + 2) - sizes - 1  # where each tuple begins, laid out
        held = np.zeros(len(rows), np.bool_)
        held[np.searchsorted(begins, found + 1, side="right") - 1] = True
        return held

    def taken(self, rows: npt.NDArray[np.intp]) -> Strings:
        """A column of the strings at ``rows``, in that order."""
        starts, stops = self._ends[rows], self._ends[rows + 1]
        lengths = stops - starts
        ends = np.zeros(len(rows) + 1, np.int64)
        np.cumsum(lengths, out=ends[1:])
        places = np.repeat(starts - ends[:-1], lengths) + np.arange(int(ends[-1]))
        return Strings._of(self._data[places], ends, self._nones()[rows])

    @classmethod
    def concatenated(cls, columns: Sequence[Strings]) -> Strings:
        """A column of the strings of ``columns``, one column after another."""
        starts = np.cumsum([0, *(int(column._ends[-1]) for column in columns)])[:-1]
        ends = [column._ends[1:] + start for column, start in zip(columns, starts, strict=True)]
        nones = np.concatenate([column._nones() for column in columns])
        data = np.concatenate([column._data for column in columns])
        return cls._of(data, np.concatenate([np.zeros(1, np.int64), *ends]), nones)

    def _nones(self) -> npt.NDArray[np.bool_]:
        return np.zeros(len(self), np.bool_) if self._none is None else self._none

    @classmethod
    def _of(
        cls, data: npt.NDArray[np.uint8], ends: npt.NDArray[np.int64], none: npt.NDArray[np.bool_]
    ) -> Strings:
        column = cls.__new__(cls)
        column._hold(data, ends, none)
        return column

    def __getstate__(self) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        return self._data, self._ends, self._nones()

    def __setstate__(
        self, state: tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.bool_]]
    ) -> None:
        data, ends, none = state
        # numpy's own dtypes: an array unpickled has a copy of its dtype (``SearchIndex.__setstate__``)
        self._hold(data.view(np.uint8), ends.view(np.int64), none.view(np.bool_))


def joined(words: Sequence[str]) -> str:
    """Words (folded, so free of the separator) as one string, which ``split`` turns back into them."""
    return _SEPARATOR.join(words)


def split(held: str | None) -> tuple[str, ...]:
    """The words ``joined`` made one string of (none for the empty string)."""
    return tuple(held.split(_SEPARATOR)) if held else ()
