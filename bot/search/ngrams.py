"""A bigram count filter that finds every vocabulary token ``fuzz.ratio`` could score above a cutoff.

``fuzz.ratio(a, b)`` is ``200 * L / (|a| + |b|)`` with ``L`` the length of their longest common
subsequence, so ``ratio >= c`` needs ``L >= c * (|a| + |b|) / 200`` (and ``L <= min(|a|, |b|)``,
which bounds the lengths). A common subsequence of length ``L`` keeps many bigrams: pad both strings
(``^a$``, ``|a| + 1`` bigrams each); each of the ``|a| - L`` characters dropped from ``a`` breaks at
most two of its bigrams, and each of the ``|b| - L`` characters inserted into ``b`` splits at most one
more, so at least ``3L + 1 - |a| - |b|`` bigrams (counted with repeats) are common to both. Cut to a
query's length ``n`` (the typo'd prefix rule compares ``a`` with ``b[:n]``) with only the start
padded, the bound is ``3L - 2n``.

The filter counts, for every vocabulary token at once, the bigrams it shares with the query
(``numpy.bincount`` over the postings of the query's bigrams) and keeps the tokens whose count and
length can reach the cutoff: a superset of what ``ratio`` accepts, never losing one, which rapidfuzz
then scores. Postings hold each bigram's ``j``-th occurrence (``j`` = 1, 2, ...) with its position,
so counts respect repeats and a prefix's bigrams are those before position ``n``.

Tokens join and leave one at a time; a removed token's postings stay (its length reads 0, which no
cutoff admits) until they outnumber the live ones, when the postings are rebuilt.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz, process

__all__ = ["BigramFilter"]

_START, _END = "\x02", "\x03"  # padding no folded token holds
_NEVER = 1 << 30  # a count no token reaches: the length cannot score the cutoff
_EPSILON = 1e-9  # rapidfuzz compares floats: never demand a hair more than the cutoff does
_REBUILD_MIN = 1024  # dead tokens tolerated before a rebuild is considered
_BEGINNING_MAX = 24  # characters of each token kept as a numpy string, for typo'd beginnings

_Gram = tuple[str, int]  # bigram, occurrence (1 for its first in the token, 2 for its second, ...)


def _grams(padded: str) -> list[tuple[_Gram, int]]:
    """Each bigram of ``padded`` with its occurrence number, and its position."""
    seen: dict[str, int] = {}
    grams = []
    for position in range(len(padded) - 1):
        gram = padded[position : position + 2]
        seen[gram] = seen.get(gram, 0) + 1
        grams.append(((gram, seen[gram]), position))
    return grams


def _least_common(cutoff: float, total: int) -> int:
    """The shortest common subsequence two strings of ``total`` characters need to reach ``cutoff``."""
    return max(math.ceil(cutoff * total / 200.0 - _EPSILON), 0)


class BigramFilter:
    """The tokens of a vocabulary, indexed by bigram, for ``ratio`` candidates."""

    def __init__(self, tokens: Iterable[str] = ()) -> None:
        self._ids: dict[str, int] = {}
        self._tokens: list[str | None] = []
        # Each token's first _BEGINNING_MAX characters by id, as numpy strings ("" for a removed one)
        self._beginnings = np.empty(0, f"U{_BEGINNING_MAX}")
        self._lengths = array("i")  # by id; 0 for a removed token
        self._postings: dict[_Gram, tuple[array[int], array[int]]] = {}  # ids and positions
        self._longest = 0
        self._dead = 0
        for token in tokens:
            self.add(token)

    def __len__(self) -> int:
        return len(self._ids)

    def add(self, token: str) -> None:
        if token in self._ids:
            return
        token_id = self._ids[token] = len(self._tokens)
        self._tokens.append(token)
        self._lengths.append(len(token))
        self._longest = max(self._longest, len(token))
        if token_id >= len(self._beginnings):
            grown = np.zeros(max(2 * len(self._beginnings), 1024), self._beginnings.dtype)
            grown[: len(self._beginnings)] = self._beginnings
            self._beginnings = grown
        self._beginnings[token_id] = token[:_BEGINNING_MAX]
        for gram, position in _grams(f"{_START}{token}{_END}"):
            posting = self._postings.get(gram)
            if posting is None:
                posting = self._postings[gram] = (array("i"), array("i"))
            posting[0].append(token_id)
            posting[1].append(position)

    def remove(self, token: str) -> None:
        token_id = self._ids.pop(token, None)
        if token_id is None:
            return
        self._tokens[token_id] = None
        self._lengths[token_id] = 0
        self._beginnings[token_id] = ""
        self._dead += 1
        if self._dead > _REBUILD_MIN and self._dead > len(self._ids):
            rebuilt = BigramFilter(self._ids)
            vars(self).update(vars(rebuilt))

    def candidates(self, query: str, cutoff: float) -> list[str]:
        """Every token ``t`` with possibly ``fuzz.ratio(query, t) >= cutoff``, sorted."""
        size = len(query)
        thresholds = [_NEVER] * (max(self._longest, size) + 1)
        for length in range(1, len(thresholds)):
            least = _least_common(cutoff, size + length)
            if least <= min(size, length):
                thresholds[length] = 3 * least + 1 - size - length
        return self._counted(_grams(f"{_START}{query}{_END}"), thresholds, before=None)

    def prefix_matches(self, query: str, cutoff: float) -> list[tuple[str, float]]:
        """Every token ``t`` longer than ``query`` with ``fuzz.ratio(query, t[:len(query)]) >= cutoff``,
        with that score, as ``process.extract`` over the sorted candidates gives them: best first, ties
        in token order.

        A few letters typed begin tens of thousands of candidates: they are cut to the query's length
        as numpy strings in one step, and each distinct beginning is scored once."""
        size = len(query)
        least = _least_common(cutoff, 2 * size)
        if least > size:
            return []
        thresholds = [_NEVER] * (size + 1) + [3 * least - 2 * size] * max(self._longest - size, 0)
        chosen = self._chosen(_grams(f"{_START}{query}"), thresholds, before=size)
        if size <= _BEGINNING_MAX:
            cut = self._beginnings[chosen].astype(f"U{size}")
        else:
            cut = np.array([(self._tokens[i] or "")[:size] for i in chosen.tolist()], f"U{size}")
        beginnings, each = np.unique(cut, return_inverse=True)
        scores = process.cdist(
            [query],
            beginnings.tolist(),
            scorer=fuzz.ratio,
            processor=None,
            score_cutoff=cutoff,
            dtype=np.float64,
        )[0][each.reshape(-1)]
        kept = scores >= cutoff
        named = zip(map(self._tokens.__getitem__, chosen[kept].tolist()), scores[kept].tolist(), strict=True)
        matched = [(token, score) for token, score in named if token is not None]
        return sorted(matched, key=lambda match: (-match[1], match[0]))

    def _counted(
        self, grams: list[tuple[_Gram, int]], thresholds: list[int], *, before: int | None
    ) -> list[str]:
        """Tokens sharing at least ``thresholds[their length]`` of ``grams`` (those of their bigrams
        starting ``before`` a position, if given), sorted."""
        tokens = self._tokens
        chosen = self._chosen(grams, thresholds, before=before)
        return sorted(token for token in (tokens[i] for i in chosen.tolist()) if token is not None)

    def _chosen(
        self, grams: list[tuple[_Gram, int]], thresholds: list[int], *, before: int | None
    ) -> npt.NDArray[np.intp]:
        """The ids of ``_counted``'s tokens."""
        if not self._tokens:
            return np.empty(0, np.intp)
        hits: list[npt.NDArray[np.intc]] = []
        for gram, _ in grams:
            posting = self._postings.get(gram)
            if posting is None:
                continue
            ids = np.frombuffer(posting[0], dtype=np.intc)
            if before is not None:
                ids = ids[np.frombuffer(posting[1], dtype=np.intc) < before]
            hits.append(ids)
        count = len(self._tokens)
        shared = np.bincount(np.concatenate(hits), minlength=count) if hits else np.zeros(count, np.intp)
        floor = min(thresholds)  # no token sharing fewer can pass: test the lengths of the others only
        chosen = np.flatnonzero(shared >= floor) if floor > 0 else np.arange(count)
        lengths = np.frombuffer(self._lengths, dtype=np.intc)[chosen]
        return chosen[shared[chosen] >= np.asarray(thresholds, dtype=np.int64)[lengths]]
