"""In-memory fuzzy search over incidents, people, parties, quotes, rulings and motions.

How a query is scored
---------------------
Everything is folded first (``bot.text.fold``). A document has ``exact`` names (slugs, aliases,
abbreviations) and weighted ``fields``. Scoring is token based:

1. Every query token is matched against the index's vocabulary (every distinct folded token of every
   field) with ``fuzz.ratio`` (typos: "jagmet" ~ "jagmeet"), a prefix rule (half-typed words: "poili"
   -> "poilievre") and a typo-tolerant prefix rule (``ratio`` against the vocabulary token cut to the
   query token's length). Numbers (years) match only exactly or, when typing, as a prefix: "2016"
   never matches "2018". The typo rules score only the vocabulary words a bigram count filter
   (``bot.search.ngrams``) lets through, every word ``ratio`` could accept and few others, in
   rapidfuzz's C code (``processor=None``): the same matches, in the same order, as a scan of the
   whole vocabulary, at a cost that grows far slower than the vocabulary.
   Typo-level matches count for ``typo_known`` (half) when the word itself is in the vocabulary
   ("canada" is not a typo of "canavan", "water" not of "after"), and so do words no longer than
   one being typed towards a longer word ("brown" for "brownl" when "brownlee" exists). The same
   letters in another order are a slip worth ``anagram_sim`` ("sihng" is Singh before "sing").
   Question words and fillers (``bot.search.vocabulary.STOP_WORDS``) are left out of coverage,
   unless nothing else is left ("i will not").
2. A document's *coverage* is the IDF-weighted mean, over query tokens, of the best
   ``similarity x field weight`` among its tokens. Word order does not matter, rare words ("rcmp")
   count for more than common ones ("motion"), and a word the document lacks pulls the score down.
   Two neighbouring query words that make a name somewhere ("new zealand") are a *name pair*: a
   document holding one of them in another name ("New Democratic") but not the pair gets
   ``piece_share`` of that word's credit.
3. A *phrase* term rewards the field that most resembles the whole query (``fuzz.ratio`` of the
   folded query and field, times the field's weight), so the quote "I will not" beats a long quote
   that merely contains those three words, and "Pierre Trudeau" the person beats a title naming him.

   ``score = 100 * ((1 - phrase_share) * coverage + phrase_share * phrase)``

A folded query equal to a document's exact name scores 100 and ranks first. ``search`` and
``complete`` drop hits scoring more than ``cut_gap`` behind the best (noise, not answers).
``resolve`` answers outright a clear winner (``clear_score``, ``clear_margin``), and also the one
entry holding a word of the query no other entry has, when no other hit holds such a word of its own
(a word only one entry holds is not a close call). ``filters`` (``bot.search.filters``) narrow what
is found by the documents' ``Facets``: chamber, year, kind of entry or of incident.

Grown labelled set (``python bench/search_bench.py --cases``; tests/search_cases.py: 279 queries on
the shipped dataset, 138 on a generated one with other names and countries, tests/generated_dataset.py;
"answered" is the share ``resolve`` answers outright, "wrong" the outright answers that are wrong).
"Before" is the scorer above without the rules of the last paragraphs (main at b34acbb, filters passed
as plain words since it read none)::

    dataset     scorer   queries  recall@1  recall@3  answered  wrong
    shipped     before       279     0.971     0.993     0.839      1   ("brownl" -> Gord Brown)
    shipped     now          279     0.996     0.996     0.964      0
    generated   before       138     0.993     1.000     0.812      1   ("ireland water" -> "after")
    generated   now          138     1.000     1.000     1.000      0

In French (34 more shipped queries: French titles and summaries, French words for what happened,
French question words): shipped 313 queries, recall@1 0.997, recall@3 1.000, answered 0.952, wrong 0;
every French query finds its entry first.

Latency on 10,162 documents (``python bench/search_bench.py``, ms p50 / p95 / p99), before -> now:
search 1.49 / 5.14 / 7.58 -> 1.76 / 5.11 / 6.29; resolve 0.35 / 1.10 / 1.78 -> 0.40 / 0.91 / 1.71;
complete (incidents) 0.56 / 2.20 / 3.65 -> 0.52 / 2.06 / 4.13; complete (all kinds) 1.54 / 6.00 /
16.60 -> 1.49 / 5.09 / 17.36. Memory per 1,000 documents 7.1 -> 8.2 MiB (each document's name
words and pairs). The first version of the name-pair rule also looked for the pair in long texts
and tripled search's p99; a word in a long text is not a piece of a name, so it no longer does.

Scale (``python bench/index_scale_bench.py --docs 100000``: 100,080 documents, 191,954 distinct
tokens from random accented syllables, queries in a guild with its own entries; before (main at
081abcf) and now run side by side on the same 2 cores, ms p50 / p99)::

    build s / RSS MB (whole process)     30.6 / 958   ->  42.7 / 883
    complete, typing (every keystroke)  115 / 516     ->  10.8 / 235
    complete, incidents                 1.2 / 56      ->  1.3 / 50
    complete, 1-2 letters                65 / 121     ->  0.02 / 56
    resolve, typos                      127 / 189     ->  9.4 / 31
    search, multiword                   329 / 542     ->  23 / 59
    write, then the empty autocomplete  184 / 249     ->  0.6 / 12
    write, then empty and 6 letters     407 / 606     ->  10 / 122

Now at 500,080 documents (945,176 distinct tokens): build 131 s, RSS 4.0 GB; complete (typing)
56 / 913, complete (incidents) 3.8 / 307, 1-2 letters 0.03 / 329, resolve (typos) 39 / 106, search
118 / 580, a write then the empty autocomplete 1.1 / 69.

Where the time went: ``_token_matches`` scanned the whole vocabulary with ``ratio`` for every query
word (now the bigram filter); the empty autocomplete re-sorted every visible document after each
write (now each bucket's documents stay sorted, ``bisect.insort``, and are merged as read); a one- or
two-letter query walked the default order until 25 names began with it (now only the documents with
a name word of that initial are walked, kept in the same order); documents tied on coverage each
had their phrase scored (now skipped where their fields' lengths cap it below the limit-th score).
The scorer's own Python per candidate document (a half-typed three-letter word prefixes thousands of
words whose postings reach tens of thousands of documents) is now columnar: each word's postings are
one numpy array of (slot, weight) rows, every bucket together (a dense slot -> bucket table says what
a query sees), a query word's best match per document is ``np.maximum.at`` over its matches' joined
postings, coverage is summed in dense arrays over slots, and ``_rank`` reads the documents by
coverage a sorted chunk at a time. Ties keep the order the dict walk found them in, so every hit,
score and order is the same (checked against main: 16,848 results of complete, search and resolve at
20k documents, before and after 1,400 writes). Old and new in one process, each query timed on both
in turn (the machine was loaded by other jobs; 100,080 documents, ms p50 / p99)::

    build s                              27.9         ->  22.0
    complete, typing                    6.1 / 92      ->  5.7 / 52
    complete, incidents                 0.61 / 22     ->  0.68 / 16
    resolve, typos                      4.3 / 17      ->  3.9 / 17
    search, multiword                   8.6 / 26      ->  8.4 / 25
    write, then empty and 6 letters     4.8 / 67      ->  4.6 / 48

What remains is not the coverage sum but the steps around it: matching the query words against the
vocabulary (the typo'd-prefix rule's bigram counts and ``ratio`` over thousands of candidates),
and the per-candidate work of ``_rank`` (since then its phrase terms and their length bounds are
computed a batch of candidates at a time, ``_phrase_terms``). A 2 ms p99 at 100k needs those cut too.
Since then ``complete`` and ``search``, which drop the hits scoring more than ``cut_gap`` behind the
best, do not score the candidates whose bound is already that far behind the best hit found: a rare
prefix whose only other match is a typo of a common word ("zis" ~ "is") scored thousands of documents
only to drop them (84 -> 1.7 ms), and complete's p50 at 10k went 1.97 -> 1.25 ms; every result is the
same (the 10k corpus's 3,245 queries compared). Candidates tied on coverage near the best ("de c",
"de l": a common word and a letter being typed) were then still judged one by one in Python, each
scored twice (its bound, then its score). Now a batch's bounds are computed in numpy and only the
candidates that can still enter the top are scored (since then, together: ``_scores``); batches grow
from 32 to 1,024; and
rapidfuzz is told the ratio a field needs to lift the batch's best document into the top, so it gives
up on the fields whose length alone rules that out (quotes and summaries against a few letters) without
comparing them. Every result the same (the 10k corpus's 3,702 queries, ``complete``, ``search`` and
``resolve``, with and without the incident filter); at 100k (600,435 documents), each query's best of
two, p99 / max: complete 80.8 / 348 -> 63.9 / 165 ms, search 90.7 / 730 -> 71.7 / 249 ms. A query
word's matches are weighed (``_weigh``) once until a document comes or goes: a letter typed after a word
matches thousands of vocabulary words (complete at 100k, p95 36-40 -> 33-36 ms).
Every upsert gives its document a new slot and frees the old one, so those dense arrays would grow
with every write ever made; once the slots given pass twice the live documents (and ``_SLOT_FLOOR``),
the live ones are renumbered 1, 2, 3, ... in their old order (postings through one remap array, the
default-order keys, the slot -> bucket table), which keeps every tie order. Re-upserting all 100,080
documents twice leaves the range at 199,137 instead of 300,241; the one renumbering held the lock
0.8 s, two thirds of it rebuilding the 1.6M default-order keys (a key holding a write counter that
is never renumbered instead of the slot would spare them).

Memory (``--docs 20000 --memory``, tracemalloc, the Documents themselves not counted): 8,568 ->
6,653 bytes per document with words and name pairs interned (one copy per distinct word) and
anagram groups as tuples. Of the 6.6 kB: the postings' per-(word, bucket) dicts of slot -> weight
1.9 kB (most words are rare, and a small dict costs ~200 bytes), folded field texts 0.55 kB, each
document's token -> weight dict and name-word set 0.44 kB each, the name-pair sets 0.37 kB, exact-name
sets 0.3 kB, the per-word postings dicts 0.25 kB, the bigram filter 0.16 kB. 1M documents in 300 MB
(300 bytes each, less than the folded texts alone) needs a columnar layout: postings as integer
arrays per word, documents as rows of arrays, no per-document dicts or sets.
Postings as arrays: the index at 10,171 documents (``bench/search_bench.py``) 6,736 -> 5,516 KiB per
1,000 documents; at 100,080 its share of RSS 694 -> 612 MB.
The documents are held without their raw texts (``without_texts``), which the index keeps folded by
slot (``_Texts``): at 600,606 documents the pickled index loads in 5.7-6.9 s instead of 10.0-10.2 s,
in 2,155 MB instead of 2,590 MB (an experiment on a loaded index, before the change).
Six cuts to the p95-p99 of lookups and completion at 600,606 documents (``docs/benchmarks.md``), every
answer the same: a query word that only re-scores the documents found seeks each of them in the rows of
its commonest matches (rows in use are in slot order), instead of reading all their rows (``_best_among``);
a phrase term leaves unread the texts whose length alone keeps them below the ratio needed (``_Texts``);
the thousands of words a few letters begin are read as one run of the postings, packed in vocabulary
order (``_Runs``), instead of a word at a time; a name pair's pieces are found from the rows, whose codes
say whether the word is one of the document's names (``_share_pieces``); a letter typed after a word is
looked up in its initial's list unless that is many times longer than the documents found; and whether
one entry alone holds a word is read a chunk of its rows at a time (``_sole_holder``).
A restart loads the index saved (``bot.search.snapshots``) with little left to unpickle one object at a
time: the documents are columns (``_Packed``: arrays, and ``Strings`` of UTF-8 bytes), each made an
object when a query first reads it (``_Held``; a walk of the default order tests heads read from the
columns, passing over thousands of documents); the default order's lists are arrays of slots; the snapshot's
arrays are mapped from its file, not read (``bot.search.mapped``); it holds each distinct folded text once;
and a word's view of the packed postings is made when the word is first read (``_Postings``).
Thousands of documents tied near the best ("mace", "de n" while typing) are read once: a two-word
prefix walks the default order of its rarest initial (``_rarest_initial``); a batch's phrase terms
compare each distinct text once (``_Texts._once``); the chunks of highest coverage come from one
partition; a batch is scored in numpy (``_scores``, rounded as Python's ``round``) and kept where it
reaches what a hit must score; and the best of those kept are told apart by score, kind and date from
the columns before any label is read (``_best``). At 100k, complete's p99 16.8 -> 11.1 ms, "Mácé"
69 -> 27 ms, every answer the same. A phrase term reads only the texts whose weight and length let them
reach their own document's need (a summary, weight 0.45, never lifts a document needing a name's ratio),
and a name pair's holders are found in one search of the candidates' pairs laid end to end
(``Strings.holding``), once a query for both words of the pair: "who threw a shoe in parliament" 33.1 ->
23.3 ms, "Sitting suspended leads" 69.1 -> 38.3 ms.
A build takes its documents one at a time (``bot.search.documents.each_document`` makes them as they are
taken, from rows read a batch of incidents at a time), packs them into columns as it goes
(``_Held.set_aside``, every ``_SET_ASIDE`` of them), holds each distinct text once as it adds them
(``_Texts._known``), gathers its postings in ``array``s rather than lists and packs them word by word out
of those: the documents are never all objects at once. Its end sorts every document into the default
order from the columns, by date in numpy and by label within a date (``_Packed.default_order``). A
document given twice ends the build where it comes again, and is written over.

The notes below are the original measurements on the first 101 queries.

Measured choices (``python bench/search_bench.py --sweep``: 101 labelled queries from
tests/search_cases.py against the shipped dataset, 162 documents). The field scorers rank each
document by its best ``weight x scorer(query, field)``; "answered" is the largest share of the set a
(min score, margin) rule can answer outright with no wrong answer and no ambiguous or nonsense query
answered, at the best rule for that scorer::

    scorer                              recall@1  recall@3  answered (min, margin)
    QRatio                                 0.881     0.950     0.861 (20, 10)
    token_sort_ratio                       0.911     0.960     0.881 (45, 8)
    partial_ratio                          0.931     1.000     0.881 (60, 1)
    WRatio                                 0.941     1.000     0.634 (90, 1)
    token_set_ratio                        0.931     1.000     0.881 (20, 8)
    WRatio + prefix bonus 15               0.990     1.000     0.941 (90, 1)
    token_set_ratio + prefix bonus 15      0.970     1.000     0.931 (45, 1)
    coverage only (phrase_share 0)         1.000     1.000     0.950 (20, 1)
    coverage + phrase (chosen)             1.000     1.000     0.990 (20, 2)

Years: WRatio gives 90 to every field holding "2016" and 73 to fields holding 2010, 2014 or 2018
(partial alignment of "201"), so a lone year drags in neighbouring years and, with a margin rule, a
year held by one incident looks like a clear answer while its neighbours sit 17 points behind for no
reason. Here a number matches only exactly: "2016" gives trudeau-2016 and skinner-2016 92 each
(Ambiguous) and nothing else.

Sweeps (same set; right = answered outright correctly, never a wrong answer at these values):
phrase_share 0/0.1 -> 98 right, 0.15-0.5 -> 100 (0.2 chosen: "i will not" beats a long quote holding
those words by more than the margin); token_cutoff 65-75 -> 100, 80 -> 99, 85 -> 97 (75 chosen: the
top of the plateau, fewer stray typo matches); prefix_sim 0.8-0.95 -> 100, 1.0 -> 99 (0.85);
clear_score 45-60 -> 100, 70 -> 97 (55: the middle of the plateau); clear_margin 3-10 -> 100, 12 -> 99,
15 -> 96 (8: the set tolerates 3, but near-equal documents outside it should be asked about).
suggest_score and ambiguous_window are judgement calls the set does not constrain.
"""

from __future__ import annotations

import array
import bisect
import datetime as dt
import functools
import heapq
import itertools
import math
import operator
import re
import sys
import threading
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, BinaryIO, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz, process

from bot import limits
from bot.messages.catalogue import in_language
from bot.search import mapped
from bot.search.columns import Strings, joined, split
from bot.search.filters import Filters
from bot.search.ngrams import BigramFilter
from bot.search.text import fold, is_numeric
from bot.search.vocabulary import meaningful

__all__ = [
    "COMPLETE_MAX",
    "LABEL_MAX",
    "SHARED_GUILD",
    "TUNING",
    "Ambiguous",
    "Clear",
    "Document",
    "DocumentKind",
    "Exact",
    "Facets",
    "Hit",
    "NoMatch",
    "Place",
    "Resolution",
    "SearchIndex",
    "TextField",
    "Tuning",
]

SHARED_GUILD = 0
LABEL_MAX = limits.CHOICE_NAME  # a label is shown as an autocomplete choice
COMPLETE_MAX = limits.CHOICES
CANDIDATES_MAX = 5  # did-you-mean candidates and suggestions


@dataclass(frozen=True, slots=True)
class Tuning:
    """Every knob of the scorer and of ``resolve``; the defaults are the measured choices above."""

    token_cutoff: float = 75.0  # fuzz.ratio a vocabulary token needs to count as a typo of a query token
    prefix_sim: float = 0.85  # similarity of a proper prefix ("poili" -> "poilievre")
    prefix_min: int = 3  # shortest query token read as a prefix (while typing, the last one: 1)
    typo_prefix_min: int = 4  # shortest query token whose typo'd prefix is tried ("poilev" ~ "poilie")
    phrase_share: float = 0.2  # weight of the whole-query-vs-field term
    clear_score: float = 55.0  # a non-exact answer needs at least this score ...
    clear_margin: float = 8.0  # ... and this lead over the runner-up
    suggest_score: float = 35.0  # below this the best hit is not even a plausible did-you-mean
    ambiguous_window: float = 20.0  # did-you-mean candidates score within this of the best
    typo_known: float = 0.5  # a typo-level match of a word the vocabulary holds exactly counts this much
    anagram_sim: float = 0.95  # the same letters in another order ("sihng" -> "singh"): a slip, not a typo
    piece_share: float = 0.3  # a word matched only as a piece of another name ("new" of "New Democratic")
    cut_gap: float = 30.0  # search() drops hits scoring this far behind the best


TUNING = Tuning()


def _by_fields(self: Any) -> tuple[type, tuple[object, ...]]:
    """How the index's slotted dataclasses pickle (``bot.search.snapshots``): their class called with their
    fields in order (a slotted dataclass's ``__slots__``). It loads faster than the state dataclasses
    pickle by default, which looks their fields up for each object (60,606 documents: 1.37 -> 1.08 s)."""
    return (type(self), tuple(getattr(self, name) for name in self.__slots__))


class DocumentKind(StrEnum):
    """What a document stands for; the order here breaks ties between equal scores."""

    INCIDENT = "incident"
    PERSON = "person"
    PARTY = "party"
    QUOTE = "quote"
    RULING = "ruling"
    MOTION = "motion"
    TERM = "term"


_KIND_ORDER = {kind: rank for rank, kind in enumerate(DocumentKind)}
_KINDS = tuple(DocumentKind)


@dataclass(frozen=True, slots=True)
class TextField:
    """A searchable text and how much a match in it counts (1.0 for a name or title)."""

    __reduce__ = _by_fields

    text: str
    weight: float = 1.0

    def __post_init__(self) -> None:
        if not 0.0 < self.weight <= 1.0:
            raise ValueError(f"field weight must be in (0, 1], got {self.weight}")


@dataclass(frozen=True, slots=True)
class Place:
    """A chamber as ``chamber:`` filters name it: its slug and the names people call it by."""

    __reduce__ = _by_fields

    slug: str
    names: tuple[str, ...]  # its name, French name, country, the country's abbreviations and demonyms
    name_fr: str | None = None  # its French name, where the data has one

    @property
    def shown(self) -> str:
        """Its name in the language being spoken (``in_language``), else its slug."""
        return in_language(self.names[0], self.name_fr) if self.names else self.slug


@dataclass(frozen=True, slots=True)
class Facets:
    """What filters test (``bot.search.filters``): a document's chambers, years and incident kinds."""

    __reduce__ = _by_fields

    chambers: tuple[Place, ...] = ()
    years: tuple[int, ...] = ()
    incident_kinds: tuple[str, ...] = ()  # IncidentKind values


@dataclass(frozen=True, slots=True)
class Document:
    """One searchable entry.

    ``key`` is unique per (kind, guild): the slug for incidents, people and parties, ``"quote:<id>"``
    and the like for child rows. ``exact`` names win outright when the folded query equals one of
    them, and are searchable like a weight-1 field. ``date`` orders the empty-query default. ``detail``
    is shown beside the label where two choices would otherwise read the same.

    ``label_fr`` and ``detail_fr`` are the label and detail in French, held only where they read
    differently from the English (a French title, French names, a ruling worded in French); ``shown``
    and ``shown_detail`` pick them by the language being spoken (``bot.messages.catalogue``).

    A ``removed`` document is a tombstone: a guild removed the entry, so the document is never found
    but still shadows the shared document with its (kind, key) in that guild.
    """

    __reduce__ = _by_fields

    kind: DocumentKind
    key: str
    label: str
    incident: str | None = None
    guild_id: int = SHARED_GUILD
    exact: tuple[str, ...] = ()
    fields: tuple[TextField, ...] = ()
    date: dt.date | None = None
    removed: bool = False
    detail: str | None = None  # a few words telling it from a namesake (a ruling's summary)
    facets: Facets = Facets()
    label_fr: str | None = None
    detail_fr: str | None = None

    @property
    def entry(self) -> tuple[str, str]:
        """The curated entry this document belongs to, as (kind, key): an incident holds its quotes,
        rulings and motions."""
        return (
            (DocumentKind.INCIDENT.value, self.incident)
            if self.incident is not None
            else (self.kind, self.key)
        )

    def __post_init__(self) -> None:
        if not self.key:
            raise ValueError("a document needs a key")
        for label in (self.label, self.label_fr):
            if label is not None and (not label or len(label) > LABEL_MAX):
                raise ValueError(f"label must be 1-{LABEL_MAX} characters: {label!r}")
        # A French text the same as the English is not kept twice (the index holds many documents).
        if self.label_fr == self.label:
            object.__setattr__(self, "label_fr", None)
        if self.detail_fr == self.detail:
            object.__setattr__(self, "detail_fr", None)

    @property
    def shown(self) -> str:
        """The label in the language being spoken: the French where the document has one."""
        return in_language(self.label, self.label_fr)

    @property
    def shown_detail(self) -> str | None:
        """The detail in the language being spoken: the French where the document has one."""
        return in_language(self.detail, self.detail_fr) if self.detail is not None else None

    @property
    def ident(self) -> tuple[DocumentKind, str, int]:
        return (self.kind, self.key, self.guild_id)


@dataclass(frozen=True, slots=True)
class Hit:
    document: Document
    score: float  # 0-100


@dataclass(frozen=True, slots=True)
class Exact:
    """The folded query is one of the document's exact names (slug, alias, abbreviation)."""

    hit: Hit


@dataclass(frozen=True, slots=True)
class Clear:
    """A fuzzy match scored high enough and far enough ahead of the runner-up to answer."""

    hit: Hit


@dataclass(frozen=True, slots=True)
class Ambiguous:
    """Several plausible matches: ask which one (best first, at most five)."""

    candidates: tuple[Hit, ...]


@dataclass(frozen=True, slots=True)
class NoMatch:
    """Nothing close. ``suggestions``: the faint matches there are, else the newest entries."""

    suggestions: tuple[Hit, ...]


Resolution = Exact | Clear | Ambiguous | NoMatch


@dataclass(frozen=True, slots=True)
class _Narrowing:
    """Filters made concrete: the chamber slugs a ``chamber:`` value means, years, incident kinds."""

    chambers: frozenset[str] | None = None
    years: tuple[int, int] | None = None
    incident_kinds: frozenset[str] = frozenset()

    def admits(self, doc: Document) -> bool:
        facets = doc.facets
        if self.chambers is not None and not any(place.slug in self.chambers for place in facets.chambers):
            return False
        if self.years is not None:
            first, last = self.years
            if not any(first <= year <= last for year in facets.years):
                return False
        return not self.incident_kinds or not self.incident_kinds.isdisjoint(facets.incident_kinds)


_OPEN = _Narrowing()

_Ident = tuple[DocumentKind, str, int]  # kind, key, guild
_Shared = tuple[_Ident, ...] | dict[_Ident, None]
"""The documents one exact name belongs to: a tuple while they are few (most names are one document's),
past ``_FEW_SHARE`` a dict, so that adding or removing one is not a walk through all the others."""
_FEW_SHARE = 16
_Bucket = tuple[DocumentKind, int]  # kind, guild: a query sees the documents of a few buckets
_OrderKey = tuple[int, str, int]  # a document's place in its bucket's default order (``_order_key``)
_K = TypeVar("_K")
_V = TypeVar("_V")

# A query token whose matches reach more documents than this only re-scores documents that rarer
# tokens already found, instead of adding every document that contains "the" as a candidate.
_OPEN_COST = 2000
# A letter typed after a word credits the documents found whose name or title words begin with it: read
# from the documents of that initial, unless they outnumber those found this many times (reading one's
# heads took ten times as long as listing one of an initial, at 100k).
_HEADS_COST = 8
_FIRST_ROWS = 64  # a word's rows first read to tell whether one document alone holds it (``_sole_holder``)
# A one- or two-letter word being typed that is a word of its own ("d", "o") but begins more words than
# this is completed from names' initials, as a letter that is no word is.
_PREFIX_WORDS_MAX = 500
_MATCH_CACHE_MAX = 4096
# A word's postings are rows (slot, weight code): the documents holding it, and its weight in each as its
# place in the index's table of the weights fields have (``_weight_table``: a few distinct values). Both
# are int32, so that joining many words' postings is one plain copy, at 8 bytes a row.
# The first ``_df[word] + _dead.get(word, 0)`` rows are in use: the documents, and rows of documents since
# unlinked (their slot's bucket is _NO_BUCKET, so no query sees them), left in place rather than searched
# for; the rest are room for more, (_NO_SLOT, 0) rows. A word whose dead rows come to outnumber its
# documents has its rows compacted, and renumbering the slots compacts every word's.
# The rows in use are in slot order: a document joins with a slot above every other, compacting keeps the
# order, and renumbering keeps the slots' order. Read as one int64 (``_keyed``), a row is its slot times
# 2**32 plus its code, the slot in the high half whatever the machine's byte order, so a document is
# sought in a word's rows by bisection (``_seek``).
_SLOT, _WEIGHT = (1, 0) if sys.byteorder == "little" else (0, 1)
_CODE_BITS = 32
_CODE_MASK = (1 << _CODE_BITS) - 1
_NO_ROWS = np.zeros((0, 2), np.int32)  # a new word's postings, before ``_with_room`` gives them room
_NO_SLOTS = np.zeros(0, np.intc)  # the slots of no list of the default order
_RUN_START = np.zeros(1, np.int64)  # the offsets of no words' rows
_NO_WEIGHT = 0  # the code of weight 0: a spare row's
_NO_SLOT = 0  # never given to a document: its bucket is _NO_BUCKET, so no query sees a spare row
_ROOM = 0.25  # a word's postings grow by this share of their length (and at least 4 rows) when full
_NOT_FOUND = np.iinfo(np.int64).max  # when a document was first found, for one never found
_NO_BUCKET = -1  # a free slot's bucket: never among a query's buckets
# Every upsert gives its document a new slot and frees the old one: once the slots given outnumber
# twice the live documents and this many more, the live ones are renumbered 1, 2, 3, ... in order.
_SLOT_FLOOR = 1024
# A text's length as ``_Texts`` holds it: a longer text's is held as this, which only loosens its bound
_LENGTH_MAX = np.iinfo(np.uint16).max
_EPSILON = 1e-9  # rapidfuzz compares floats: never leave out a text by a hair less than the cutoff
_ROUNDING = 0.06  # more than ``_scores``' rounding to a tenth may lift a score above its unrounded value
_LAST_CHARACTER = chr(sys.maxunicode)  # every word beginning with w sorts below w + this character
# A pickle's postings: the words, every word's rows one after the other, and how many rows each has.
_PackedPostings = tuple[list[str], npt.NDArray[np.int32], npt.NDArray[np.int64]]
# What a copy of the index does not carry: ``__setstate__`` remakes it
_UNPICKLED = frozenset({"_lock", "_match_cache", "_weighed", "_tally", "_runs"})
_HYPHENATED = re.compile(r"\w+(?:[-‐‑–]\w+)+")


@dataclass(slots=True)
class _IndexedDocument:
    """A document with its folded texts, computed once at upsert. Its sets of words are tuples, each
    word once: a few words each, looked through with ``in``, at a fraction of a frozenset's memory."""

    __reduce__ = _by_fields

    doc: Document
    exact: tuple[str, ...]  # its folded exact names and its key
    compounds: tuple[str, ...]  # its hyphenated words joined: tokens not among its texts' words
    heads: str  # " token token ...": words of names and titles, for one- and two-letter completion
    pairs: tuple[str, ...]  # "new zealand": neighbouring words of its names (fields of a few words)
    names: tuple[str, ...]  # the words of its names
    slot: int = -1  # its number in the postings, given when it joins the index


_W_HEAD = 0.85
_NAME_WORDS = 5  # a field of at most this many words is a name, whose neighbouring words are a pair
_ANAGRAM_MIN = 4  # shortest word whose reordered letters are read as a slip


class _TokenPlan(NamedTuple):
    """How one query word is applied in ``_coverage``."""

    cost: int  # postings its matches reach, all buckets together
    short: bool  # a one- or two-letter word still being typed
    weight: float  # IDF of its best match
    matches: dict[str, float]  # vocabulary token -> similarity
    best: str  # its best match ("" for none)
    prefix: str | None  # the word, where its first matches are the vocabulary words it begins (``_Runs``)


class _Weighed(NamedTuple):
    """A query word's matches, weighed (``SearchIndex._weigh``)."""

    cost: int  # postings they reach
    weight: float  # IDF of the best
    best: str  # the best ("" for none)


class _Prepared(NamedTuple):
    """A document folded for the index (``_prepare``): what it holds of it, and what it keeps elsewhere."""

    entry: _IndexedDocument
    texts: tuple[str, ...]  # its folded texts, heaviest first (kept by slot: ``_Texts``)
    text_weights: tuple[float, ...]  # each text's weight
    tokens: dict[str, float]  # its tokens (``SearchIndex._tokens``), each with the weight its postings keep


class _Folded(NamedTuple):
    """One raw text as the index reads it."""

    text: str  # folded
    words: tuple[str, ...]  # its words, interned: every document holding a word shares one copy of it
    compounds: tuple[str, ...]  # its hyphenated words joined ("Maipi-Clarke" -> "maipiclarke"), interned


@functools.lru_cache(maxsize=1 << 16)
def _folded(raw: str) -> _Folded:
    """``raw`` folded, remembered: most texts recur from document to document (a party's or chamber's
    name, the everyday words for an incident's kind, a member's name), so a build folds each once."""
    text = fold(raw)
    compounds = tuple(sys.intern(fold(compound).replace(" ", "")) for compound in _HYPHENATED.findall(raw))
    return _Folded(text, tuple(sys.intern(word) for word in text.split()), compounds)


def _prepare(doc: Document) -> _Prepared:
    """The document as the index holds it, its texts, and its tokens with the weight of each (that of the
    best field holding it)."""
    texts: dict[str, float] = dict.fromkeys(filter(None, (_folded(raw).text for raw in doc.exact)), 1.0)
    split: dict[str, tuple[str, ...]] = {}
    # an autocomplete value (the key) resolves exactly when submitted
    exact = tuple(dict.fromkeys((*texts, fold(doc.key))))
    joined: dict[str, float] = {}
    for raw, weight in [*((raw, 1.0) for raw in doc.exact), *((f.text, f.weight) for f in doc.fields)]:
        folded = _folded(raw)
        if folded.text:
            split[folded.text] = folded.words
            if texts.get(folded.text, 0.0) < weight:
                texts[folded.text] = weight
        for token in folded.compounds:
            if joined.get(token, 0.0) < weight:
                joined[token] = weight
    token_weights: dict[str, float] = {}
    for text, weight in texts.items():
        for token in split[text]:
            if token_weights.get(token, 0.0) < weight:
                token_weights[token] = weight
    for token, weight in joined.items():
        if token_weights.get(token, 0.0) < weight:
            token_weights[token] = weight
    heads = "".join(f" {token}" for token, weight in token_weights.items() if weight >= _W_HEAD)
    fields = sorted(texts.items(), key=lambda item: item[1], reverse=True)
    named = [words for words in split.values() if len(words) <= _NAME_WORDS]
    pairs = dict.fromkeys(
        sys.intern(f"{first} {second}") for words in named for first, second in itertools.pairwise(words)
    )
    indexed = _IndexedDocument(
        without_texts(doc),
        exact,
        tuple(joined),
        heads,
        tuple(pairs),
        tuple(dict.fromkeys(word for words in named for word in words)),
    )
    held = tuple(text for text, _ in fields)
    return _Prepared(indexed, held, tuple(weight for _, weight in fields), token_weights)


def without_texts(doc: Document) -> Document:
    """``doc`` as the index holds it and finds it: without its raw texts (``exact``, ``fields``), which the
    index keeps folded, by slot (``_Texts``). Quotes and summaries are most of a document's memory, and
    nothing shown of a hit reads them."""
    return replace(doc, exact=(), fields=()) if doc.exact or doc.fields else doc


def _searched(entry: _IndexedDocument) -> tuple[object, ...]:
    """What of an indexed document a search reads, but for its texts and weights (``_Texts``)."""
    return (entry.doc, entry.exact, entry.compounds, entry.heads, entry.pairs, entry.names)


def _letters(token: str) -> str:
    return "".join(sorted(token))


class SearchIndex:
    """Documents from every guild, searchable with guild visibility and shadowing.

    A query in guild G sees shared documents (guild 0) and G's own; a G document (a tombstone too)
    shadows a shared one with the same (kind, key), and a G incident document shadows every shared
    document of that incident (its quotes, rulings and motions). ``guild_id=None`` sees shared
    documents only. Updates are incremental: ``upsert`` and ``remove`` touch only the document's own
    tokens and names.

    One lock serialises every public method, writes and reads alike, so a reader in any thread (the
    event loop serving autocomplete, a worker thread resolving a command) sees each document either
    fully indexed or not at all, never a write half done: reads walk the postings and fill caches
    that writes change. A write folds the document's text before it takes the lock, so it holds the
    lock only to link the document in (a fraction of a millisecond); a read holds it for one query.

    Built from ``documents``, it holds the last version of each, as writing them one by one leaves them.
    """

    def __init__(self, documents: Iterable[Document] = (), *, tuning: Tuning = TUNING) -> None:
        self.tuning = tuning
        self._lock = threading.RLock()
        self._next_slot = _NO_SLOT + 1
        self._entries: dict[_Ident, int] = {}  # each linked document's slot
        self._slots = _Held()
        self._tally = _Tally()  # a query's scratch (``_coverage``), under the lock as every read
        self._texts = _Texts()
        self._runs = _Runs()  # the postings as last packed, in vocabulary order
        self._postings = _Postings(self._runs)  # token -> rows, every bucket
        # a posting's weight, and whether its word is one of the document's names (``_share_pieces``)
        self._weight_codes: dict[tuple[float, bool], int] = {(0.0, False): _NO_WEIGHT}
        self._weight_table = np.zeros(1)  # code -> weight
        self._named_codes = np.zeros(1, np.bool_)  # code -> whether the word is one of the document's names
        self._building: dict[str, tuple[array.array[int], array.array[int]]] = {}  # postings while built
        self._slot_buckets = np.full(0, _NO_BUCKET, np.int32)  # slot -> its bucket's number
        self._bucket_numbers: dict[_Bucket, int] = {}
        self._df: dict[str, int] = {}  # documents holding each token, all buckets together
        self._dead: dict[str, int] = {}  # rows of unlinked documents in a token's postings, where any
        self._exact: dict[str, _Shared] = {}  # the documents with each exact name
        self._guild_keys: dict[int, set[tuple[DocumentKind, str]]] = {}  # guild -> its own (kind, key)s
        # guild (the shared scope too) -> curated entry (``Document.entry``) -> its documents' (kind, key)s
        self._entry_keys: dict[int, dict[tuple[str, str], tuple[tuple[DocumentKind, str], ...]]] = {}
        self._tombstones: dict[_Ident, Document] = {}
        self._places: dict[str, Place] = {}  # chambers by slug, as the documents name them
        self._pairs: dict[str, int] = {}  # documents holding each name pair
        self._anagrams: dict[str, tuple[str, ...]] = {}  # sorted letters -> vocabulary tokens
        self._vocab: list[str] = []  # sorted: prefix ranges by bisect
        self._grams = BigramFilter()  # the vocabulary by bigram: which tokens ratio() could accept
        self._match_cache: dict[tuple[str, bool], dict[str, float]] = {}
        # A query word's matches weighed (``_weigh``): they hang on every document frequency, so any
        # document linked or unlinked forgets them all.
        self._weighed: dict[tuple[str, bool], _Weighed] = {}
        # Each bucket's slots in the default order (``_order_key``): every document (under ""), and under
        # each one- or two-letter initial the documents with a name or title word starting with it.
        self._ordered: dict[str, dict[_Bucket, array.array[int]]] = {}
        self._building_order: dict[str, dict[_Bucket, array.array[int]]] = {}  # unordered, while built
        self._bulk = True
        for built, doc in enumerate(documents, 1):
            if doc.ident in self._entries or doc.ident in self._tombstones:
                self._end_build()  # a document given again: the build so far ends, and this is a write
            self.upsert(doc)
            if self._bulk and built % _SET_ASIDE == 0:
                self._slots.set_aside()
        self._end_build()

    def _end_build(self) -> None:
        """Make the default orders, the packed postings and the columns from what the build gathered (once:
        documents given after this are written one by one)."""
        if not self._bulk:
            return
        self._bulk = False
        building, self._building = self._building, {}
        for token, (slots, _) in building.items():  # in the order the documents first hold them
            self._df[token] = len(slots)
            self._add_anagram(token)
        self._vocab = sorted(building)
        lengths = np.fromiter(map(self._df.__getitem__, self._vocab), np.int64, len(self._vocab))
        self._runs.unpickled(self._vocab, _packed_rows(building, self._vocab), lengths)
        self._grams = BigramFilter(self._vocab)
        self._slots = self._slots.packed(consume=True)
        # Every list in one order, the documents' default order (``_order_key``), sorted once.
        ordered = self._slots.in_default_order()
        rank = np.zeros(self._next_slot, np.int64)
        rank[ordered] = np.arange(len(ordered))
        for initial, lists in self._building_order.items():
            self._ordered[initial] = {
                bucket: _slot_array(_in_order(slots, rank)) for bucket, slots in lists.items()
            }
        self._building_order = {}
        self._texts.built()

    # -- maintenance ---------------------------------------------------------------------------

    def __getstate__(self) -> dict[str, object]:
        """A copy's state (pickle, copy): everything but the lock, which each copy makes its own, the cache
        of query words' matches, which it fills anew, and the slot -> document table, which it makes from
        the documents (their slot numbers shared, as in this index). The postings go packed (``_Runs``): one
        array of every word's rows in use, in vocabulary order, and each word's count of them."""
        with self._lock:
            state = {name: value for name, value in vars(self).items() if name not in _UNPICKLED}
            lengths = np.fromiter(map(self._used, self._vocab), np.int64, len(self._vocab))
            if self._runs.current(self._vocab):
                rows = self._runs.rows  # as they were packed, with no copy
            else:
                used = zip(map(self._postings.read, self._vocab), lengths.tolist(), strict=True)
                rows = np.concatenate([rows[:count] for rows, count in used]) if self._vocab else _NO_ROWS
            state["_postings"] = (list(self._vocab), rows, lengths)
            state["_slots"] = self._slots.packed()
            return state

    def __setstate__(self, state: dict[str, object]) -> None:
        words, rows, lengths = cast(_PackedPostings, state.pop("_postings"))  # as ``__getstate__`` made it
        vars(self).update(state)
        self._runs = _Runs()
        self._lock = threading.RLock()
        self._match_cache = {}
        self._weighed = {}
        self._tally = _Tally()
        # Views in numpy's own dtypes: an array unpickled has a copy of its dtype, and numpy took a path
        # ten times slower in ``_best_matches`` for values read through the weight table unpickled.
        self._weight_table = self._weight_table.view(np.float64)
        self._named_codes = self._named_codes.view(np.bool_)
        self._slot_buckets = self._slot_buckets.view(np.int32)
        self._runs.unpickled(words, rows.view(np.int32), lengths)
        self._postings = _Postings(self._runs)

    def dump(self, file: BinaryIO) -> None:
        """Pickle the index to ``file``, its arrays laid out to be mapped when loaded (``bot.search.mapped``),
        under its lock: no write, nor a read filling its caches, changes it while it is written
        (``bot.search.snapshots``)."""
        with self._lock:
            mapped.dump(self, file)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def get(self, kind: DocumentKind, key: str, guild_id: int = SHARED_GUILD) -> Document | None:
        with self._lock:
            slot = self._entries.get((kind, key, guild_id))
            return None if slot is None else self._slots[slot].doc

    def documents(self) -> list[Document]:
        """Every document held, each as ``without_texts`` makes it, tombstones aside."""
        with self._lock:
            return [self._slots[slot].doc for slot in self._entries.values()]

    def guild_documents(self, guild_id: int) -> list[Document]:
        """A guild's own documents, tombstones included."""
        with self._lock:
            return self._held([(kind, key, guild_id) for kind, key in self._guild_keys.get(guild_id, ())])

    def entry_documents(self, guild_id: int, entries: Collection[tuple[str, str]]) -> list[Document]:
        """The documents (tombstones included) the index holds for these curated entries of the guild's
        own scope (the shared scope's, for ``SHARED_GUILD``), each entry as ``Document.entry`` names it."""
        with self._lock:
            held = self._entry_keys.get(guild_id, {})
            return self._held(
                [(kind, key, guild_id) for entry in entries for kind, key in held.get(entry, ())]
            )

    def _held(self, idents: Iterable[_Ident]) -> list[Document]:
        return [
            self._tombstones[i] if i in self._tombstones else self._slots[self._entries[i]].doc
            for i in idents
        ]

    def holds(self, doc: Document) -> bool:
        """Whether the index holds ``doc`` as upserting it would leave it: the same document
        (``without_texts``), with the same folded texts, weights and names. Such a document need not be
        upserted again (``refresh``)."""
        prepared = None if doc.removed else _prepare(doc)  # the folding, before taking the lock
        with self._lock:
            return self._holds(doc, prepared)

    def _holds(self, doc: Document, prepared: _Prepared | None) -> bool:
        if prepared is None:
            return self._tombstones.get(doc.ident) == doc
        slot = self._entries.get(doc.ident)
        if slot is None:
            return False
        entry = self._slots[slot]
        return (
            _searched(entry) == _searched(prepared.entry)
            and self._texts.of(entry.slot) == list(prepared.texts)
            and self._texts.weights_of(entry.slot) == list(prepared.text_weights)
        )

    def texts(self, kind: DocumentKind, key: str, guild_id: int = SHARED_GUILD) -> list[str]:
        """The folded texts a document is searched on, heaviest first (none for a document not held)."""
        with self._lock:
            slot = self._entries.get((kind, key, guild_id))
            return [] if slot is None else self._texts.of(slot)

    def upsert(self, doc: Document) -> None:
        """Add ``doc``, or replace the document with the same (kind, key, guild); effective at once."""
        prepared = None if doc.removed else _prepare(doc)  # the folding, before taking the lock
        with self._lock:
            self._store(doc, prepared)

    def refresh(self, doc: Document) -> bool:
        """Upsert ``doc`` unless the index holds it as it is (``holds``), folding it once for both; whether
        it was upserted."""
        prepared = None if doc.removed else _prepare(doc)
        with self._lock:
            if self._holds(doc, prepared):
                return False
            self._store(doc, prepared)
            return True

    def _store(self, doc: Document, prepared: _Prepared | None) -> None:
        self._forget(doc.ident)
        if doc.guild_id != SHARED_GUILD:
            self._guild_keys.setdefault(doc.guild_id, set()).add((doc.kind, doc.key))
        held = self._entry_keys.setdefault(doc.guild_id, {})
        held[doc.entry] = (*held.get(doc.entry, ()), (doc.kind, doc.key))  # ``_forget`` took it out
        if prepared is None:
            self._tombstones[doc.ident] = doc
        else:
            self._link(prepared)
        if not self._bulk:
            self._keep_slots_dense()

    def _link(self, prepared: _Prepared) -> None:
        self._weighed.clear()
        entry, weights = prepared.entry, prepared.tokens
        doc = entry.doc
        ident = doc.ident
        entry.slot = self._next_slot
        self._next_slot += 1
        self._entries[ident] = entry.slot
        self._slots.add(entry)
        bucket = (doc.kind, doc.guild_id)
        self._place_in_bucket(entry.slot, bucket)
        self._texts.add(entry.slot, prepared.texts, prepared.text_weights)
        for place in doc.facets.chambers:
            self._places[place.slug] = place
        for pair in entry.pairs:
            self._pairs[pair] = self._pairs.get(pair, 0) + 1
        for name in entry.exact:
            _share(self._exact, name, ident)
        lists = self._building_order if self._bulk else self._ordered
        key = None if self._bulk else _order_key(entry)
        for initial in ("", *self._initials_of(entry)):
            ordered = lists.setdefault(initial, {}).setdefault(bucket, _slot_array([]))
            if key is None:  # a build: the slots alone, put in order when it ends
                ordered.append(entry.slot)
            else:
                ordered.insert(bisect.bisect_left(ordered, key, key=self._slots.order_key), entry.slot)
        if self._bulk:  # the postings as lists, made arrays (and counted) when the build ends
            building = self._building
            for token, weight in weights.items():
                rows = building.get(token)
                if rows is None:
                    rows = building[token] = (array.array("i"), array.array("i"))
                rows[0].append(entry.slot)
                rows[1].append(self._weight_code(weight, token in entry.names))
            return
        for token, weight in weights.items():
            if token not in self._df:
                self._df[token] = 0
                self._add_anagram(token)
                bisect.insort(self._vocab, token)
                self._grams.add(token)
                self._vocabulary_changed()
            self._post(token, entry.slot, self._weight_code(weight, token in entry.names))
            self._df[token] += 1

    def _weight_code(self, weight: float, named: bool) -> int:
        """A posting's weight, and whether its word is one of the document's names, as a place in
        ``_weight_table`` and ``_named_codes``, which a new pair of them joins."""
        code = self._weight_codes.get((weight, named))
        if code is None:
            code = self._weight_codes[weight, named] = len(self._weight_table)
            self._weight_table = np.append(self._weight_table, weight)
            self._named_codes = np.append(self._named_codes, named)
        return code

    def _place_in_bucket(self, slot: int, bucket: _Bucket) -> None:
        """Note the slot's bucket (which postings a query sees), growing the table as slots are given."""
        if slot >= len(self._slot_buckets):
            grown = np.full(max(2 * len(self._slot_buckets), 1024), _NO_BUCKET, np.int32)
            grown[: len(self._slot_buckets)] = self._slot_buckets
            self._slot_buckets = grown
        self._slot_buckets[slot] = self._bucket_numbers.setdefault(bucket, len(self._bucket_numbers))

    def _used(self, token: str) -> int:
        """How many of a token's rows are in use: its documents', and rows of documents since unlinked."""
        return self._df[token] + self._dead.get(token, 0)

    def _post(self, token: str, slot: int, code: int) -> None:
        """Add a document to a token's postings (before ``_df`` counts it), in place while they have room."""
        used = self._used(token)
        postings = self._postings[token] if used else None
        if postings is None or used == len(postings):
            postings = self._postings[token] = _with_room(_NO_ROWS if postings is None else postings)
            self._runs.unpack(token)
        postings[used, _SLOT], postings[used, _WEIGHT] = slot, code

    def _unpost(self, token: str) -> None:
        """Take an unlinked document (its slot's bucket already ``_NO_BUCKET``) out of a token's postings,
        before ``_df`` stops counting it: its row stays, dead, until the token's rows are compacted."""
        held = self._df[token]
        if held == 1:
            self._postings.pop(token, None)
            self._dead.pop(token, None)
            self._runs.unpack(token)
            return
        dead = self._dead[token] = self._dead.get(token, 0) + 1
        if dead > held - 1:
            self._compact(token)

    def _compact(self, token: str) -> None:
        """Drop the token's dead rows, keeping the live ones in their order (and room for more)."""
        used = self._df[token] + self._dead.pop(token, 0)
        postings = self._postings[token]
        slots = postings[:used, _SLOT].astype(np.intp)
        self._postings[token] = _with_room(postings[:used][self._slot_buckets[slots] != _NO_BUCKET])
        self._runs.unpack(token)

    def remove(self, kind: DocumentKind, key: str, guild_id: int = SHARED_GUILD) -> bool:
        """Forget a document or tombstone (effective at once); returns whether it was there."""
        ident = (DocumentKind(kind), key, guild_id)
        with self._lock:
            forgotten = self._forget(ident)
            self._keep_slots_dense()
            return forgotten

    def _forget(self, ident: _Ident) -> bool:
        if ident in self._entries:
            doc = self._slots[self._entries[ident]].doc
            self._unlink(ident)
        else:
            tombstone = self._tombstones.pop(ident, None)
            if tombstone is None:
                return False
            doc = tombstone
        kind, key, guild_id = ident
        entries = self._entry_keys[guild_id]
        _drop(entries, doc.entry, (kind, key))
        if not entries:
            del self._entry_keys[guild_id]
        if guild_id != SHARED_GUILD:
            own = self._guild_keys[guild_id]
            own.discard((kind, key))
            if not own:
                del self._guild_keys[guild_id]
        return True

    def _unlink(self, ident: _Ident) -> None:
        self._weighed.clear()
        entry = self._slots[self._entries.pop(ident)]
        self._slot_buckets[entry.slot] = _NO_BUCKET
        kind, _, guild_id = ident
        for name in entry.exact:
            _unshare(self._exact, name, ident)
        for pair in entry.pairs:
            self._pairs[pair] -= 1
            if not self._pairs[pair]:
                del self._pairs[pair]
        bucket = (kind, guild_id)
        key = _order_key(entry)
        for initial in ("", *self._initials_of(entry)):
            lists = self._ordered[initial]
            ordered = lists[bucket]
            del ordered[bisect.bisect_left(ordered, key, key=self._slots.order_key)]
            if not ordered:
                del lists[bucket]
                if not lists:
                    del self._ordered[initial]
        self._slots.remove(entry.slot)  # once out of the default order, which reads it to find its place
        for token in self._tokens(entry):
            self._unpost(token)
            self._df[token] -= 1
            if not self._df[token]:
                del self._df[token]
                self._forget_anagram(token)
                del self._vocab[bisect.bisect_left(self._vocab, token)]
                self._grams.remove(token)
                self._vocabulary_changed()

    def _tokens(self, entry: _IndexedDocument) -> dict[str, None]:
        """The tokens a linked document is posted under: the words of its texts and its joined compounds,
        each once. Derived when it is unlinked rather than held (a document has dozens)."""
        words = (word for text in self._texts.of(entry.slot) for word in text.split())
        return dict.fromkeys(itertools.chain(words, entry.compounds))

    @property
    def slot_range(self) -> int:
        """How many slot numbers a query's dense arrays span: the live documents, the slots freed since
        they were last renumbered, and the reserved ``_NO_SLOT``."""
        with self._lock:
            return self._next_slot

    def _keep_slots_dense(self) -> None:
        """Renumber the slots once freed ones outnumber the live: at least (live + ``_SLOT_FLOOR``) / 2
        writes come between two renumberings, each of which costs a pass over the index."""
        if self._next_slot > 2 * len(self._entries) + _SLOT_FLOOR:
            self._renumber_slots()

    def _renumber_slots(self) -> None:
        """Give the live documents slots 1, 2, 3, ... in the order of their old slots, so every order
        that slots break ties in (coverage found at once, the default order) stays as it was."""
        for token in list(self._dead):  # no dead row's slot number may outlive its renumbering
            self._compact(token)
        old = self._slots.slots()
        remap = np.zeros(self._next_slot, np.intp)  # old slot -> new; _NO_SLOT (spare rows) stays
        remap[old] = np.arange(_NO_SLOT + 1, _NO_SLOT + 1 + len(old))
        self._slots.renumber(old)
        new = remap.tolist()
        self._entries = {ident: new[slot] for ident, slot in self._entries.items()}
        self._texts.renumber(old)
        self._next_slot = _NO_SLOT + 1 + len(old)
        buckets = np.full(max(2 * self._next_slot, 1024), _NO_BUCKET, np.int32)
        buckets[_NO_SLOT + 1 : self._next_slot] = self._slot_buckets[old]
        self._slot_buckets = buckets
        for postings in map(self._postings.__getitem__, self._vocab):
            postings[:, _SLOT] = remap[postings[:, _SLOT].astype(np.intp)]
        self._runs.pack(self._postings, self._vocab, [self._df[token] for token in self._vocab])
        for lists in self._ordered.values():
            for bucket, ordered in lists.items():
                lists[bucket] = _slot_array(remap[np.frombuffer(ordered, np.intc)])

    def _add_anagram(self, token: str) -> None:
        if len(token) >= _ANAGRAM_MIN:
            letters = _letters(token)
            self._anagrams[letters] = (*self._anagrams.get(letters, ()), token)

    def _forget_anagram(self, token: str) -> None:
        letters = _letters(token)
        others = tuple(other for other in self._anagrams.get(letters, ()) if other != token)
        if others:
            self._anagrams[letters] = others
        else:
            self._anagrams.pop(letters, None)

    def _vocabulary_changed(self) -> None:
        self._match_cache.clear()

    # -- visibility ----------------------------------------------------------------------------

    def _buckets(self, kinds: frozenset[DocumentKind] | None, guild_id: int | None) -> list[_Bucket]:
        wanted = list(DocumentKind) if kinds is None else [kind for kind in DocumentKind if kind in kinds]
        guilds = [SHARED_GUILD] if guild_id in (None, SHARED_GUILD) else [SHARED_GUILD, guild_id]
        return [(kind, guild) for kind in wanted for guild in guilds]

    def _shadowed(self, entry: _IndexedDocument, guild_id: int | None) -> bool:
        """Whether a guild's own document hides this shared one: same (kind, key), or its incident."""
        doc = entry.doc
        if guild_id is None or guild_id == SHARED_GUILD or doc.guild_id != SHARED_GUILD:
            return False
        own = self._guild_keys.get(guild_id)
        if own is None:
            return False
        return (doc.kind, doc.key) in own or (
            doc.incident is not None and (DocumentKind.INCIDENT, doc.incident) in own
        )

    def _admits(self, entry: _IndexedDocument, guild_id: int | None, narrowing: _Narrowing) -> bool:
        """Whether a document found in the query's buckets is neither shadowed nor ruled out by a filter."""
        return not self._shadowed(entry, guild_id) and narrowing.admits(entry.doc)

    def _visible(
        self, entry: _IndexedDocument, kinds: frozenset[DocumentKind] | None, guild_id: int | None
    ) -> bool:
        doc = entry.doc
        if kinds is not None and doc.kind not in kinds:
            return False
        if doc.guild_id == SHARED_GUILD:
            return not self._shadowed(entry, guild_id)
        return doc.guild_id == guild_id

    # -- token matching ------------------------------------------------------------------------

    def _token_matches(self, token: str, *, allow_prefix: bool) -> dict[str, float]:
        """Vocabulary tokens similar to a query token, with a similarity in (0, 1]."""
        cache_key = (token, allow_prefix)
        cached = self._match_cache.get(cache_key)
        if cached is not None:
            return cached
        matches: dict[str, float] = {}
        known = token in self._df
        if known:
            matches[token] = 1.0
        if allow_prefix:
            self._add_prefix_matches(token, matches)
        if not is_numeric(token):  # a number matches only exactly, or as a prefix while typing
            self._add_typos(token, matches, allow_prefix=allow_prefix, known=known)
        if len(self._match_cache) >= _MATCH_CACHE_MAX:
            self._match_cache.clear()
        self._match_cache[cache_key] = matches
        return matches

    def _add_typos(self, token: str, matches: dict[str, float], *, allow_prefix: bool, known: bool) -> None:
        """Typo-level matches. They count for less (``typo_known``) when the word itself is in the
        vocabulary ("canada" is not a typo of "canavan"), and so do words no longer than one being
        typed on its way to a longer one ("brown" for "brownl" or "bronw", when "bronwyn" and
        "brownlee" exist)."""
        tune = self.tuning
        typos: dict[str, float] = {}
        self._add_typo_matches(token, typos)
        if allow_prefix and len(token) >= tune.typo_prefix_min:
            self._add_typo_prefix_matches(token, typos)
        for candidate in self._anagrams.get(_letters(token), ()):
            if candidate != token:
                typos[candidate] = max(typos.get(candidate, 0.0), tune.anagram_sim)
        typed_past = any(sim == tune.prefix_sim for sim in matches.values())
        for candidate, sim in typos.items():
            if known or (typed_past and len(candidate) <= len(token)):
                sim *= tune.typo_known
            if sim > matches.get(candidate, 0.0):
                matches[candidate] = sim

    def _add_prefix_matches(self, token: str, matches: dict[str, float]) -> None:
        """Longer vocabulary tokens ``token`` begins ("poili" -> "poilievre")."""
        start = bisect.bisect_left(self._vocab, token)
        end = bisect.bisect_left(self._vocab, token + _LAST_CHARACTER, start)
        exact = matches.get(token)
        matches.update(dict.fromkeys(self._vocab[start:end], self.tuning.prefix_sim))
        if exact is not None:  # the word itself keeps its own similarity
            matches[token] = exact

    def _add_typo_matches(self, token: str, matches: dict[str, float]) -> None:
        """Vocabulary words within ``token_cutoff`` of ``token`` ("jagmet" ~ "jagmeet"), never numbers.

        Only the words the bigram filter lets through are scored: all that can reach the cutoff, in
        vocabulary order, so the matches and their order are those of a scan of the whole vocabulary.
        """
        for candidate, score, _ in process.extract(
            token,
            self._grams.candidates(token, self.tuning.token_cutoff),
            scorer=fuzz.ratio,
            processor=None,
            score_cutoff=self.tuning.token_cutoff,
            limit=None,
        ):
            sim = score / 100.0
            if not is_numeric(candidate) and sim > matches.get(candidate, 0.0):
                matches[candidate] = sim

    def _add_typo_prefix_matches(self, token: str, matches: dict[str, float]) -> None:
        """Longer vocabulary tokens that begin with a typo of ``token`` ("poilev" ~ "poilievre")."""
        tune = self.tuning
        for candidate, score in self._grams.prefix_matches(token, tune.token_cutoff):
            sim = score / 100.0 * tune.prefix_sim
            if sim > matches.get(candidate, 0.0):
                matches[candidate] = sim

    def _idf(self, token: str) -> float:
        total = max(len(self._entries), 1)
        return math.log(1.0 + total / self._df.get(token, 1))

    # -- scoring -------------------------------------------------------------------------------

    def _coverage(self, words: Sequence[str], buckets: Sequence[_Bucket], *, typing: bool) -> _Coverage:
        """IDF-weighted share of the query tokens each document in ``buckets`` matches, in [0, 1].

        Tokens are applied rarest first; a token matching very many documents (or a one- or
        two-letter word still being typed) only re-scores documents that earlier tokens found.
        Totals are tallied in numpy at the slots the matched tokens' postings reach (``_Tally``).
        """
        plans = self._plans(words, typing=typing)
        weight_sum = sum(plan.weight for plan in plans)
        if weight_sum == 0.0:
            return _Coverage.nothing()
        pieces = self._name_pairs(plans)
        holders: dict[str, _Holders] = {}  # the documents whose pairs were read, and which hold each pair
        ranks = self._bucket_ranks(buckets)
        tally = self._tally
        tally.fit(self._next_slot)
        found: list[npt.NDArray[np.intp]] = []  # the slots each token that opens candidates found
        among: npt.NDArray[np.intp] | None = None  # those slots, each once, sorted: once a token opens none
        steps = sorted(range(len(plans)), key=lambda n: (plans[n].short, plans[n].cost))
        try:
            for step, position in enumerate(steps):
                plan = plans[position]
                if plan.short and found:
                    # A one- or two-letter word being typed prefixes hundreds of vocabulary tokens;
                    # checking the candidates' name and title words is far cheaper than their postings.
                    self._add_head_bonus(tally, found, buckets, words[-1], plan.weight)
                    continue
                opens = not found or (plan.cost <= _OPEN_COST and not plan.short)
                if not opens and among is None:
                    among = tally.among(found)
                slots = self._best_matches(plan, ranks, tally, step, among=None if opens else among)
                pairs = pieces.get(position, ())
                if pairs:
                    self._share_pieces(tally.best, plan.best, pairs, ranks, holders)
                tally.credit(slots, plan.weight)
                if opens and len(slots):
                    found.append(slots)
                    among = None
            slots = tally.distinct(found)
            coverage = _Coverage(slots, tally.totals[slots] / weight_sum, tally.found_at[slots])
        except BaseException:
            tally.clear()
            raise
        tally.clear(slots)
        return coverage

    def _name_pairs(self, plans: Sequence[_TokenPlan]) -> dict[int, list[str]]:
        """Neighbouring query words that together make a name ("new zealand"), by word position: a
        document holding one of them in another name but not this one gets ``piece_share`` of its
        credit (a word in a longer text, as "dodgy Dave" in a quote, is not a piece of a name)."""
        pieces: dict[int, list[str]] = {}
        for position in range(len(plans) - 1):
            first, second = plans[position], plans[position + 1]
            pair = f"{first.best} {second.best}"
            if first.best and second.best and not second.short and pair in self._pairs:
                pieces.setdefault(position, []).append(pair)
                pieces.setdefault(position + 1, []).append(pair)
        return pieces

    def _plans(self, words: Sequence[str], *, typing: bool) -> list[_TokenPlan]:
        """Each query word's vocabulary matches, IDF weight and postings cost, in query order."""
        tune = self.tuning
        plans: list[_TokenPlan] = []
        last = len(words) - 1
        for position, word in enumerate(words):
            typed = typing and position == last
            allow_prefix = typed or len(word) >= tune.prefix_min
            matches = self._token_matches(word, allow_prefix=allow_prefix)
            cost, weight, best = self._weigh(word, matches, allow_prefix=allow_prefix)
            short = typed and len(word) < tune.prefix_min
            plans.append(_TokenPlan(cost, short, weight, matches, best, word if allow_prefix else None))
        return plans

    def _weigh(self, word: str, matches: dict[str, float], *, allow_prefix: bool) -> _Weighed:
        """The postings ``matches`` reach, and the weight and token of the best of them (of the most
        similar, the first of the rarest; none: the weight of the rarest word): remembered, since a word
        being typed ("de n") may match thousands of tokens, until a document comes or goes."""
        key = (word, allow_prefix)
        weighed = self._weighed.get(key)
        if weighed is None:
            best = ""
            if matches:
                top = max(matches.values())
                best = min((token for token, sim in matches.items() if sim == top), key=self._df.__getitem__)
            weighed = _Weighed(sum(map(self._df.__getitem__, matches)), self._idf(best), best)
            if len(self._weighed) >= _MATCH_CACHE_MAX:
                self._weighed.clear()
            self._weighed[key] = weighed
        return weighed

    def _add_head_bonus(
        self,
        tally: _Tally,
        found: Sequence[npt.NDArray[np.intp]],
        buckets: Sequence[_Bucket],
        word: str,
        weight: float,
    ) -> None:
        """Credit the documents found so far whose name or title words begin with ``word`` (one or two
        letters): read from the documents of that initial in the query's buckets (the default order's
        lists, ``_ordered``), or where they outnumber ``_HEADS_COST`` times those found, from the heads of
        the documents found."""
        initials = self._ordered.get(word, {})
        listed = [initials[bucket] for bucket in buckets if bucket in initials]
        if sum(map(len, listed)) < _HEADS_COST * sum(map(len, found)):
            slots = np.concatenate([np.frombuffer(slots, np.intc) for slots in listed] or [_NO_SLOTS])
            heads = slots[tally.found_at[slots] != _NOT_FOUND]
        else:
            needle = f" {word}"
            heads = np.array(
                [s for s in tally.distinct(found).tolist() if needle in self._slots.heads(s)], np.intp
            )
        tally.totals[heads] += weight * self.tuning.prefix_sim * _W_HEAD

    def _bucket_ranks(self, buckets: Sequence[_Bucket]) -> npt.NDArray[np.int64]:
        """Bucket number -> its place in ``buckets`` (-1 for a bucket the query does not see, and for
        ``_NO_BUCKET``, the last entry)."""
        ranks = np.full(len(self._bucket_numbers) + 1, -1, np.int64)
        for rank, bucket in enumerate(buckets):
            number = self._bucket_numbers.get(bucket)
            if number is not None:
                ranks[number] = rank
        return ranks

    def _sole_holder(self, token: str, ranks: npt.NDArray[np.int64]) -> int | None:
        """The slot of the one document holding ``token`` in the query's buckets, if one alone does. The rows
        are read a chunk at a time, each eight times the last, until a second such document turns up: a
        common word's first few rows settle it."""
        if token not in self._df:
            return None
        postings = self._postings[token]
        visible: list[int] = []
        start, chunk, used = 0, _FIRST_ROWS, self._used(token)
        while start < used and len(visible) < 2:
            slots = postings[start : min(start + chunk, used), _SLOT].astype(np.intp)
            visible += slots[ranks[self._slot_buckets[slots]] >= 0][:2].tolist()
            start, chunk = start + chunk, chunk * 8
        return visible[0] if len(visible) == 1 else None

    def _gather(self, plan: _TokenPlan) -> _Gathered:
        """The rows a query word's matches reach: those of the words it begins as one run of the packed
        postings where none of them is unpacked (``_Runs``), then each other match's own."""
        span = self._runs.span(plan.prefix) if plan.prefix is not None else None
        run, run_rows, starts = 0, _NO_ROWS, _RUN_START
        if span is not None:
            first, end = span
            run, offsets = end - first, self._runs.offsets[first : end + 1]
            run_rows, starts = self._runs.rows[offsets[0] : offsets[-1]], offsets - offsets[0]
        arrays = list(map(self._postings.__getitem__, itertools.islice(plan.matches, run, None)))
        lengths = np.concatenate((np.diff(starts), np.fromiter(map(len, arrays), np.int64, len(arrays))))
        return _Gathered(run_rows, starts, arrays, lengths.astype(np.intp))

    def _best_matches(
        self,
        plan: _TokenPlan,
        ranks: npt.NDArray[np.int64],
        tally: _Tally,
        step: int,
        *,
        among: npt.NDArray[np.intp] | None,
    ) -> npt.NDArray[np.intp]:
        """Each document's best ``similarity x field weight`` over the plan's matches, set in ``tally.best``
        (only the documents ``among``, already found, unless the token opens new candidates: None); the
        slots set, as often as the document holds one of the matches.

        ``tally.found_at`` records when the token that opens a document found it: (step, the matched
        token's place in ``matches``, its bucket's rank), the order in which the walk of the postings,
        token by token and bucket by bucket, first reached it; documents of equal coverage rank in that
        order.
        """
        matches = plan.matches
        if not matches:
            return np.empty(0, np.intp)
        gathered = self._gather(plan)
        sims = np.fromiter(matches.values(), np.float64, len(matches))
        if among is not None:
            return self._best_among(plan, gathered, sims, tally, among)
        postings, lengths = gathered.joined(), gathered.lengths
        slots = postings[:, _SLOT].astype(np.intp)
        bucket_ranks = ranks[self._slot_buckets[slots]]
        kept = bucket_ranks >= 0
        slots = slots[kept]
        values = np.repeat(sims, lengths)[kept] * self._weight_table[postings[:, _WEIGHT][kept]]
        np.maximum.at(tally.best, slots, values)
        tokens = np.repeat(np.arange(len(matches), dtype=np.int64), lengths)[kept]
        np.minimum.at(tally.found_at, slots, (step << 48) | (tokens << 8) | bucket_ranks[kept])
        return slots

    def _best_among(
        self,
        plan: _TokenPlan,
        gathered: _Gathered,
        sims: npt.NDArray[np.float64],
        tally: _Tally,
        among: npt.NDArray[np.intp],
    ) -> npt.NDArray[np.intp]:
        """``_best_matches`` for a word that opens no candidates: only the documents ``among`` (those found,
        sorted) are credited. A match held by many times more documents ("parliament" for "parlament"), and
        by more than ``_SEEK_ROWS_MIN``, is not read through: each document found is sought in its rows,
        which are in slot order."""
        lengths = gathered.lengths
        sought = lengths > max(_SEEK_SHARE * len(among), _SEEK_ROWS_MIN)
        slots: list[npt.NDArray[np.intp]] = []
        values: list[npt.NDArray[np.float64]] = []
        if sought.any():
            words = list(plan.matches)
            for n in np.flatnonzero(sought).tolist():
                hit, rows = self._seek(words[n], among)
                slots.append(among[hit])
                values.append(sims[n] * self._weight_table[rows[hit] & _CODE_MASK])
        read = ~sought
        if read.any():
            postings = gathered.joined(read)
            reached = postings[:, _SLOT].astype(np.intp)
            kept = tally.in_among[reached]  # a document found by this query is in its buckets
            slots.append(reached[kept])
            values.append(
                np.repeat(sims[read], lengths[read])[kept] * self._weight_table[postings[:, _WEIGHT][kept]]
            )
        credited = np.concatenate(slots) if len(slots) > 1 else slots[0]
        np.maximum.at(tally.best, credited, np.concatenate(values) if len(values) > 1 else values[0])
        return credited

    def _seek(
        self, token: str, slots: npt.NDArray[np.intp]
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        """Which of ``slots`` (sorted) hold ``token``, each sought in its rows (in slot order) by bisection;
        and for each, the row found (``_keyed``: its slot, then its code), which is the slot's own where it
        holds the token."""
        held = _keyed(self._postings[token], self._used(token))
        rows = held[np.minimum(np.searchsorted(held, slots.astype(np.int64) << _CODE_BITS), len(held) - 1)]
        return (rows >> _CODE_BITS) == slots, rows

    def _share_pieces(
        self,
        best: npt.NDArray[np.float64],
        word: str,
        pairs: Sequence[str],
        ranks: npt.NDArray[np.int64],
        holders: dict[str, _Holders],
    ) -> None:
        """Cut to ``piece_share`` the credit of the documents holding ``word`` only as a piece of
        another name: those credited that have ``word`` in a name (its rows say so) but not every one of
        the query's ``pairs`` ("new zealand"). Those lacking the other word of a pair in a name lack the
        pair; the others' pairs are read from the columns (``_holding``)."""
        rows = self._postings[word][: self._used(word)]
        slots = rows[:, _SLOT].astype(np.intp)
        named = slots[self._named_codes[rows[:, _WEIGHT]] & (ranks[self._slot_buckets[slots]] >= 0)]
        named = named[best[named] > 0.0]  # in slot order, as a word's rows are
        whole = np.ones(len(named), np.bool_)  # may hold every pair: has each pair's other word in a name
        for pair in pairs:
            first, _, second = pair.partition(" ")
            found, other = self._seek(second if first == word else first, named)
            whole &= found & self._named_codes[other & _CODE_MASK]
        for pair in pairs:
            whole[whole] = self._holding(named[whole], pair, holders)
        best[named[~whole]] *= self.tuning.piece_share  # a word's postings hold each document once

    def _holding(
        self, slots: npt.NDArray[np.intp], pair: str, holders: dict[str, _Holders]
    ) -> npt.NDArray[np.bool_]:
        """Which documents at ``slots`` (sorted) have the name pair ``pair`` (``_Held.holding_pair``), those
        read for the pair's other word not read again: ``holders`` has, by pair, the last slots read and
        the answer for each."""
        held = np.empty(len(slots), np.bool_)
        read = np.zeros(len(slots), np.bool_)
        known = holders.get(pair)
        if known is not None and len(known.slots):
            at = np.minimum(np.searchsorted(known.slots, slots), len(known.slots) - 1)
            read = known.slots[at] == slots
            held[read] = known.held[at[read]]
        held[~read] = self._slots.holding_pair(slots[~read], pair)
        holders[pair] = _Holders(slots, held)
        return held

    def _rank(
        self,
        query: str,
        kinds: frozenset[DocumentKind] | None,
        guild_id: int | None,
        limit: int,
        *,
        typing: bool,
        narrowing: _Narrowing = _OPEN,
        cut: bool = False,
    ) -> list[Hit]:
        """The best ``limit`` hits for the folded ``query``. With ``cut``, the caller drops those scoring
        more than ``cut_gap`` behind the best (``_cut``), so candidates that cannot score that high are
        not scored at all: the hits that survive the cut are the same."""
        if limit <= 0:
            return []
        if not query:  # filters alone: what they admit, in the default order
            if narrowing is _OPEN:
                return []
            listed = (e for e in self._default_entries(kinds, guild_id) if narrowing.admits(e.doc))
            return [Hit(entry.doc, 0.0) for entry, _ in zip(listed, range(limit), strict=False)]
        named = (self._slots[self._entries[ident]] for ident in self._exact.get(query, ()))
        exact = [e for e in named if self._visible(e, kinds, guild_id) and narrowing.admits(e.doc)]
        hits = sorted((Hit(entry.doc, 100.0) for entry in exact), key=_hit_order)
        words = meaningful(query.split())  # "who", "the", "someone" weigh nothing
        short = len(words) == 1 and len(words[0]) < self.tuning.prefix_min
        if typing and short and (query not in self._df or self._begins_many(query)):
            # too short to read as a prefix, and no word of its own (as "uk" or "nz" are), or a word
            # ("d" of "d'Arcy") that begins so many others that all their postings would be walked: initials
            return (hits + self._initials(query, kinds, guild_id, limit, exact, narrowing))[:limit]
        coverage = self._coverage(words, self._buckets(kinds, guild_id), typing=typing)
        # Threshold algorithm: the phrase term adds at most `share`, so once a document's best possible
        # score falls below the limit-th score found, no later one (of no more coverage) can enter the top.
        share = self.tuning.phrase_share
        scores: list[float] = []  # those of the candidates kept, made hits once the best are known
        kept: list[int] = []  # their slots
        best_scores = np.empty(0)  # the `limit` best scores so far
        # A candidate is read (made an object, ``_Held``) to judge it only where a filter or a guild's own
        # entries may rule it out: judging thousands of candidates tied near the best made each an object.
        judged_alone = narrowing is not _OPEN or guild_id in self._guild_keys  # a guild's own: ``_shadowed``
        # The score below which ``_cut`` will drop a hit rises with the best score found: a candidate
        # below it now is below it at the end, as is one below the limit-th score found.
        gap = self.tuning.cut_gap if cut else math.inf
        floor = (100.0 if hits else -math.inf) - gap
        # Candidates a batch at a time: their phrase terms and scores computed together, in numpy and one
        # call into rapidfuzz (``_phrase_terms``); those that reach what a hit must score when the batch
        # begins are kept (and judged, where they must be). Many documents may tie on coverage ("de c"
        # while typing): batches grow, so that those are read in few calls.
        for slots, covered in coverage.batches(skip={entry.slot for entry in exact}):
            full = len(best_scores) >= limit
            least = max(float(best_scores.min()) if full else -math.inf, floor)  # what a hit must score
            if 100.0 * ((1.0 - share) * covered[0] + share) + _ROUNDING < least:
                break  # the batch's best bound, and every later one, is behind
            # what weight x ratio a text needs for its document to reach ``least``
            needed = np.maximum((least - _ROUNDING - 100.0 * (1.0 - share) * covered) / share, 0.0)
            phrases = self._texts.phrase_terms(query, slots, at_least=needed)
            reachable = np.flatnonzero(
                100.0 * ((1.0 - share) * covered + share * phrases) + _ROUNDING >= least
            )
            found = _scores(covered[reachable], phrases[reachable], share)
            entering = found >= least
            found, found_slots = found[entering], slots[reachable[entering]]
            if judged_alone:
                admitted = [
                    n
                    for n, slot in enumerate(found_slots.tolist())
                    if self._admits(self._slots[slot], guild_id, narrowing)
                ]
                found, found_slots = found[admitted], found_slots[admitted]
            if not len(found):
                continue
            scores += found.tolist()
            kept += found_slots.tolist()
            floor = max(floor, float(found.max()) - gap)
            best_scores = np.concatenate([best_scores, found])
            if len(best_scores) > limit:
                best_scores = np.partition(best_scores, len(best_scores) - limit)[len(best_scores) - limit :]
        best = self._best(scores, kept, limit - len(hits))
        return (hits + [Hit(self._slots[slot].doc, score) for score, slot in best])[:limit]

    def _best(self, scores: list[float], slots: list[int], count: int) -> list[tuple[float, int]]:
        """The ``count`` best (score, slot) pairs, best first, ties in ``_tie_order`` and then in the order
        given. Thousands may tie near the best ("mace" while typing): those that cannot be among the best
        are told by their score, then by their kind and date (``_Held.tie_keys``), from the columns, and
        only the rest are ordered by their labels too."""
        if count <= 0:
            return []
        if len(scores) > count:
            values = np.array(scores)
            least = np.partition(values, len(values) - count)[len(values) - count]  # the count-th best
            above, tied = np.flatnonzero(values > least), np.flatnonzero(values == least)
            keys = self._slots.tie_keys(np.array(slots, np.intp)[tied])
            last = np.partition(keys, count - len(above) - 1)[count - len(above) - 1]
            chosen = np.sort(np.concatenate([above, tied[keys <= last]])).tolist()
            scores, slots = [scores[n] for n in chosen], [slots[n] for n in chosen]
        found = sorted(
            zip(scores, slots, strict=True), key=lambda pair: (-pair[0], *self._slots.tie_order(pair[1]))
        )
        return found[:count]

    def _initials(
        self,
        prefix: str,
        kinds: frozenset[DocumentKind] | None,
        guild_id: int | None,
        limit: int,
        skip: Sequence[_IndexedDocument],
        narrowing: _Narrowing,
    ) -> list[Hit]:
        """Completion of a one- or two-letter query: default order, names starting with it."""
        share = self.tuning.phrase_share
        initial = self._rarest_initial(prefix, self._buckets(kinds, guild_id))
        listed = (
            entry
            for entry in self._default_entries(kinds, guild_id, initial, heads_with=prefix)
            if entry not in skip and narrowing.admits(entry.doc)
        )
        found = list(itertools.islice(listed, limit))
        phrases = self._texts.phrase_terms(prefix, np.fromiter((e.slot for e in found), np.intp, len(found)))
        phrases = phrases.tolist()
        return [
            Hit(entry.doc, round(100.0 * ((1.0 - share) * self.tuning.prefix_sim + share * phrase), 1))
            for entry, phrase in zip(found, phrases, strict=True)
        ]

    def _rarest_initial(self, prefix: str, buckets: Sequence[_Bucket]) -> str:
        """The one- or two-letter beginning (``_initials_of``) of a word of ``prefix`` that the fewest
        documents of ``buckets`` have: a document with a head run beginning with ``prefix`` ("de n": a head
        "de", then one beginning with "n") has a head beginning with each of its words' beginnings, so its
        list, in the default order as every list is, holds every document that the whole order would."""
        beginnings = {word[: self.tuning.prefix_min - 1] for word in prefix.split(" ") if word}
        if not beginnings:
            return ""

        def listed(initial: str) -> int:
            lists = self._ordered.get(initial, {})
            return sum(len(lists.get(bucket, ())) for bucket in buckets)

        return min(sorted(beginnings), key=listed)

    def _begins_many(self, prefix: str) -> bool:
        """Whether more than ``_PREFIX_WORDS_MAX`` vocabulary words begin with ``prefix``."""
        start = bisect.bisect_left(self._vocab, prefix)
        end = start + _PREFIX_WORDS_MAX  # the (max + 1)-th word from the first that may begin with it
        return end < len(self._vocab) and self._vocab[end].startswith(prefix)

    def _initials_of(self, entry: _IndexedDocument) -> set[str]:
        """The one- and two-letter (up to ``prefix_min - 1``) beginnings of its name and title words."""
        short = range(1, self.tuning.prefix_min)
        return {word[:size] for word in entry.heads.split() for size in short if len(word) >= size}

    def _default_entries(
        self,
        kinds: frozenset[DocumentKind] | None,
        guild_id: int | None,
        initial: str = "",
        *,
        heads_with: str | None = None,
    ) -> Iterator[_IndexedDocument]:
        """Visible documents (those with a name or title word beginning with ``initial``), incidents
        newest first, then the other kinds: each kind's shared and guild buckets, kept in order as
        documents come and go, merged as they are read. With ``heads_with``, only those with a name or
        title word (a head) beginning with it: told from their heads as held, before each is made an
        object (``_Held``), since a walk may pass thousands ("de n" walks every document with a head "de",
        or every one with a head beginning with "n")."""
        ordered = self._ordered.get(initial, {})
        for _, buckets in itertools.groupby(self._buckets(kinds, guild_id), key=lambda bucket: bucket[0]):
            lists = [ordered.get(bucket, ()) for bucket in buckets]
            for slot in heapq.merge(*lists, key=self._slots.order_key) if len(lists) > 1 else lists[0]:
                if heads_with is not None and f" {heads_with}" not in self._slots.heads(slot):
                    continue
                entry = self._slots[slot]
                if self._visible(entry, kinds, guild_id):
                    yield entry

    # -- public queries ------------------------------------------------------------------------

    def places(self) -> list[Place]:
        """The chambers the documents name, by slug."""
        with self._lock:
            return [self._places[slug] for slug in sorted(self._places)]

    def places_named(self, value: str) -> frozenset[str]:
        """Slugs of the chambers a ``chamber:`` value means: every word of it in one of their names."""
        wanted = set(fold(value).split())
        with self._lock:
            places = list(self._places.values())
        return frozenset(
            place.slug
            for place in places
            if wanted and any(wanted <= set(fold(name).split()) for name in (place.slug, *place.names))
        )

    def _narrow(
        self, kinds: Iterable[DocumentKind] | None, filters: Filters | None
    ) -> tuple[frozenset[DocumentKind] | None, _Narrowing]:
        kind_set = _kind_set(kinds)
        if not filters:
            return kind_set, _OPEN
        if filters.kinds:
            wanted = frozenset(DocumentKind(kind) for kind in filters.kinds)
            kind_set = wanted if kind_set is None else kind_set & wanted
        chambers = self.places_named(filters.chamber) if filters.chamber else None
        return kind_set, _Narrowing(chambers, filters.years, filters.incident_kinds)

    def search(
        self,
        query: str,
        *,
        kinds: Iterable[DocumentKind] | None = None,
        guild_id: int | None = None,
        limit: int = 10,
        filters: Filters | None = None,
    ) -> list[Hit]:
        """Ranked hits for ``query``: exact-name hits first (score 100), then by score.

        ``filters`` narrow what is found; with no words, the hits are what they admit, newest first.
        """
        folded = fold(query)
        kind_set, narrowing = self._narrow(kinds, filters)
        with self._lock:
            hits = self._rank(folded, kind_set, guild_id, limit, typing=False, narrowing=narrowing, cut=True)
        return self._cut(hits) if folded else hits

    def _cut(self, hits: list[Hit]) -> list[Hit]:
        """The hits without those scoring far behind the best (noise, not answers)."""
        floor = hits[0].score - self.tuning.cut_gap if hits else 0.0
        return [hit for hit in hits if hit.score >= floor]

    def resolve(
        self,
        query: str,
        *,
        kinds: Iterable[DocumentKind] | None = None,
        guild_id: int | None = None,
        filters: Filters | None = None,
    ) -> Resolution:
        """Decide what ``query`` means: one exact or clear answer, a did-you-mean, or nothing."""
        tune = self.tuning
        folded = fold(query)
        kind_set, narrowing = self._narrow(kinds, filters)
        with self._lock:
            hits = self._rank(
                folded, kind_set, guild_id, CANDIDATES_MAX + 1, typing=False, narrowing=narrowing
            )
            if not folded and hits:  # filters alone: one entry is an answer, more are a question
                return Clear(hits[0]) if len(hits) == 1 else Ambiguous(tuple(hits[:CANDIDATES_MAX]))
            exact = [hit for hit in hits if hit.score >= 100.0]
            if len(exact) == 1:
                return Exact(exact[0])
            if exact:
                return Ambiguous(tuple(exact[:CANDIDATES_MAX]))
            if not hits or hits[0].score < tune.suggest_score:
                # Faint matches make the best suggestions; with none at all, offer the newest entries.
                newest = itertools.islice(self._default_entries(kind_set, guild_id), CANDIDATES_MAX)
                suggestions = hits or [Hit(entry.doc, 0.0) for entry in newest]
                return NoMatch(tuple(suggestions[:CANDIDATES_MAX]))
            best = hits[0]
            runner_up = hits[1].score if len(hits) > 1 else 0.0
            if best.score >= tune.clear_score and best.score - runner_up >= tune.clear_margin:
                return Clear(best)
            if self._alone_in_holding(folded, hits, self._buckets(kind_set, guild_id)):
                return Clear(best)
        close = tuple(hit for hit in hits if hit.score >= best.score - tune.ambiguous_window)
        return Ambiguous(close[:CANDIDATES_MAX])

    def _alone_in_holding(self, query: str, hits: Sequence[Hit], buckets: Sequence[_Bucket]) -> bool:
        """Whether the best hit is the one entry here holding some word of the query exactly, and no
        other hit is the one entry holding another: a word only one entry has is not a close call."""
        holders = {hit.document.ident for hit in hits}
        sole: set[_Ident] = set()
        ranks = self._bucket_ranks(buckets)
        for word in meaningful(query.split()):
            slot = self._sole_holder(word, ranks)
            holder = None if slot is None else self._slots[slot].doc.ident
            if holder in holders:
                sole.add(holder)
        return sole == {hits[0].document.ident}

    def complete(
        self,
        query: str,
        *,
        kinds: Iterable[DocumentKind] | None = None,
        guild_id: int | None = None,
        limit: int = COMPLETE_MAX,
        filters: Filters | None = None,
    ) -> list[Hit]:
        """Autocomplete choices (at most 25): the last word may be half typed; empty lists recent ones."""
        limit = min(limit, COMPLETE_MAX)
        folded = fold(query)
        kind_set, narrowing = self._narrow(kinds, filters)
        with self._lock:
            if folded:
                return self._cut(
                    self._rank(folded, kind_set, guild_id, limit, typing=True, narrowing=narrowing, cut=True)
                )
            if narrowing is not _OPEN:
                return self._rank(folded, kind_set, guild_id, limit, typing=True, narrowing=narrowing)
            if limit <= 0:
                return []
            return [
                Hit(entry.doc, 0.0)
                for entry in itertools.islice(self._default_entries(kind_set, guild_id), limit)
            ]


class _Runs:
    """The postings as last packed: every word's rows in use one after another, the words in vocabulary
    order, so that the words a prefix begins are one run of rows, read as one slice (``SearchIndex._gather``)
    rather than a word at a time (thousands for a few letters typed).

    The index's postings are views of these rows until a word's rows move (a write that finds no room, a
    compaction) or the word comes or goes: such a word is *unpacked*, and a prefix that begins any unpacked
    word is read word by word. The index packs its postings when it is built, loaded and renumbered."""

    def __init__(self) -> None:
        self.words: list[str] = []  # sorted
        self.offsets = _RUN_START  # a word's rows are ``rows[offsets[n] : offsets[n + 1]]``
        self.rows = _NO_ROWS
        self._unpacked: list[str] = []  # sorted

    def pack(self, postings: _Postings, words: Sequence[str], used: Sequence[int]) -> None:
        """Pack the first ``used`` rows of each of ``words`` (the vocabulary, sorted), which ``postings``
        then read as views (``view``)."""
        held = zip(map(postings.__getitem__, words), used, strict=True)
        rows = np.concatenate([rows[:count] for rows, count in held]) if words else _NO_ROWS
        self.unpickled(words, rows, np.asarray(used, np.int64))
        postings.clear()

    def unpickled(
        self, words: Sequence[str], rows: npt.NDArray[np.int32], lengths: npt.NDArray[np.int64]
    ) -> None:
        """Hold ``rows``, packed as ``pack`` packs them, as the rows of ``words``."""
        self.words, self.rows = list(words), rows
        self.offsets = np.concatenate((_RUN_START, np.cumsum(lengths)))
        self._unpacked = []

    def view(self, word: str) -> npt.NDArray[np.int32]:
        """A packed word's rows, as a view of the packed rows (KeyError for a word not packed)."""
        at = bisect.bisect_left(self.words, word)
        if at == len(self.words) or self.words[at] != word or self._is_unpacked(word):
            raise KeyError(word)
        start, end = self.offsets[at : at + 2].tolist()
        return self.rows[start:end]

    def current(self, words: Sequence[str]) -> bool:
        """Whether these rows are every word's in use, for the vocabulary ``words``: no word unpacked since
        they were packed (a write that moved or took out a word's rows, a word come or gone)."""
        return not self._unpacked and self.words == words

    def _is_unpacked(self, word: str) -> bool:
        at = bisect.bisect_left(self._unpacked, word)
        return at < len(self._unpacked) and self._unpacked[at] == word

    def unpack(self, word: str) -> None:
        """Note that ``word``'s rows are no longer (or never were) the packed ones."""
        at = bisect.bisect_left(self._unpacked, word)
        if at == len(self._unpacked) or self._unpacked[at] != word:
            self._unpacked.insert(at, word)

    def span(self, prefix: str) -> tuple[int, int] | None:
        """The packed words ``prefix`` begins, ``words[first:end]``; None where it begins an unpacked one."""
        end = prefix + _LAST_CHARACTER
        at = bisect.bisect_left(self._unpacked, prefix)
        if at < len(self._unpacked) and self._unpacked[at] < end:
            return None
        first = bisect.bisect_left(self.words, prefix)
        return first, bisect.bisect_left(self.words, end, first)


class _Postings(dict[str, npt.NDArray[np.int32]]):
    """Each word's postings rows: a packed word's a view of the packed rows (``_Runs``), made the first time
    it is read, an unpacked word's its own array. A load makes no view (366,797 words at 100k incidents:
    0.3 s of a restart); ask ``_df`` whether a word is in the vocabulary, not this."""

    def __init__(self, runs: _Runs) -> None:
        super().__init__()
        self._runs = runs

    def __missing__(self, word: str) -> npt.NDArray[np.int32]:
        rows = self[word] = self._runs.view(word)
        return rows

    def read(self, word: str) -> npt.NDArray[np.int32]:
        """A word's rows, as ``self[word]`` gives them, without keeping a view made for it."""
        rows = self.get(word)
        return self._runs.view(word) if rows is None else rows


class _Holders(NamedTuple):
    """Documents whose name pairs a query read for one pair (``SearchIndex._holding``)."""

    slots: npt.NDArray[np.intp]  # sorted
    held: npt.NDArray[np.bool_]  # whether each has the pair


class _Gathered(NamedTuple):
    """The rows a query word's matches reach (``SearchIndex._gather``), in the order of its matches."""

    run_rows: npt.NDArray[np.int32]  # the first matches' rows, one run of the packed postings
    starts: npt.NDArray[np.int64]  # where each of those matches' rows begin in the run, and its end
    arrays: list[npt.NDArray[np.int32]]  # each later match's rows
    lengths: npt.NDArray[np.intp]  # each match's count of rows

    def joined(self, keep: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.int32]:
        """The rows of every match (those ``keep`` marks, where given), one after another."""
        run = len(self.starts) - 1
        arrays = self.arrays if keep is None else list(itertools.compress(self.arrays, keep[run:].tolist()))
        parts = [self.run_rows] if run else []
        if run and keep is not None and not keep[:run].all():
            left_out = np.flatnonzero(~keep[:run])  # split the run around them: the pieces between are kept
            parts = np.split(
                self.run_rows, np.column_stack((self.starts[left_out], self.starts[left_out + 1])).ravel()
            )[0::2]
        parts += arrays
        return parts[0] if len(parts) == 1 else np.concatenate(parts)


class _Coverage:
    """The documents a query found: their slots, coverage, and when they were found (``found_at``)."""

    _FIRST_CHUNK = 64  # documents sorted before the threshold loop reads them; then 4 times more each time
    _FIRST_BATCH = 32  # documents the threshold loop first scores together (``_phrase_terms``)
    _BATCH_MAX = 1024

    def __init__(
        self, slots: npt.NDArray[np.intp], coverage: npt.NDArray[np.float64], found_at: npt.NDArray[np.int64]
    ) -> None:
        self.slots = slots
        self.coverage = coverage
        self.found_at = found_at

    @classmethod
    def nothing(cls) -> _Coverage:
        return cls(np.empty(0, np.intp), np.empty(0, np.float64), np.empty(0, np.int64))

    def batches(self, *, skip: set[int]) -> Iterator[tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]]:
        """(slots, coverage), highest coverage first, ties in the order found, ``skip`` left out: in
        batches of ``_FIRST_BATCH`` documents, then twice as many each time up to ``_BATCH_MAX``.

        Sorted a chunk at a time, the threshold loop reading them seldom gets far: the ``_FIRST_CHUNK`` of
        highest coverage (and those tied with the last), then up to four times as many, and so on, each
        chunk's least coverage found by one partition of them all."""
        rest = np.flatnonzero(~np.isin(self.slots, list(skip))) if skip else np.arange(len(self.slots))
        coverage = self.coverage[rest]
        places = []  # where, in coverage partitioned, each chunk's least is
        size = self._FIRST_CHUNK
        while size < len(rest):
            places.append(len(rest) - size)
            size *= 4
        floors = np.partition(coverage, places)[places].tolist() if places else []
        batch, above = self._FIRST_BATCH, math.inf
        for floor in (*floors, -math.inf):
            top = rest[(coverage >= floor) & (coverage < above)]
            above = floor
            top = top[np.lexsort((self.slots[top], self.found_at[top], -self.coverage[top]))]
            while len(top):
                part, top = top[:batch], top[batch:]
                yield self.slots[part], self.coverage[part]
                batch = min(2 * batch, self._BATCH_MAX)


class _Texts:
    """Every linked document's folded texts, heaviest first: in arrays, each text's place in ``distinct``
    (the texts themselves), its weight (as its place in ``weight_table``: fields have a few weights) and
    its length; a slot's are ``count[slot]`` of them from ``start[slot]`` on. Most texts recur from
    document to document (at 100k incidents 6.8M texts, 0.7M distinct): a build, a load and a renumbering
    hold each distinct text once, and a document linked in between adds its own. A document unlinked leaves
    its texts in place until the slots are renumbered (``renumber``), as its postings rows stay."""

    def __init__(self) -> None:
        self.distinct: list[str] = []
        self.size = 0  # the texts held: the first ``size`` of ``which``, ``codes`` and ``lengths``
        self.which = np.zeros(1024, np.int32)  # each text's place in ``distinct``
        self.codes = np.zeros(1024, np.uint16)  # each text's weight, as its place in ``weight_table``
        self.weight_table = np.zeros(0)
        self._weight_codes: dict[float, int] = {}  # weight -> its place in ``weight_table``
        self.lengths = np.zeros(1024, np.uint16)  # the texts' lengths, at most _LENGTH_MAX
        self.start = np.zeros(1024, np.int64)  # by slot
        self.count = np.zeros(1024, np.int32)  # by slot; 0 for a slot never given
        self._seen_at = np.zeros(0, np.intp)  # a query's scratch (``_once``), by place in ``distinct``
        # While a build adds texts (from the first until ``built``), each distinct one's place in
        # ``distinct``: a batch's phrase terms compare each distinct text once (``_once``), and a build holds
        # each once as it goes, not every document's own until it ends (at 1M incidents 68M texts).
        self._known: dict[str, int] | None = {}
        self._repeats = False  # whether ``distinct`` may hold a text twice (as a write adds its texts)

    def built(self) -> None:
        """Add texts as they come again (a write's few are not worth looking up), and keep room for an
        eighth more than those held: a build's arrays grew by doubling."""
        self._known = None
        room = self.size + max(self.size // 8, 1024)
        self.which = _grown(self.which[: self.size], room)
        self.codes = _grown(self.codes[: self.size], room)
        self.lengths = _grown(self.lengths[: self.size], room)

    def _held_once(self) -> tuple[list[str], npt.NDArray[np.int32]]:
        """``distinct`` with each text once, and ``which`` pointing into it."""
        once: dict[str, int] = {}
        place = np.fromiter(
            (once.setdefault(t, len(once)) for t in self.distinct), np.int32, len(self.distinct)
        )
        which = np.zeros_like(self.which)
        which[: self.size] = place[self.which[: self.size]]
        return list(once), which

    def __getstate__(self) -> dict[str, object]:
        """The state, with each distinct text once: a list of every text took 1.1 s to unpickle at 100k
        incidents, a string or a reference to one at a time."""
        distinct, which = self._held_once() if self._repeats else (self.distinct, self.which)
        state = {name: value for name, value in vars(self).items() if name not in ("_seen_at", "_known")}
        return {**state, "distinct": distinct, "which": which}

    def __setstate__(self, state: dict[str, object]) -> None:
        vars(self).update(state)
        self._seen_at = np.zeros(0, np.intp)
        self._known = None
        self._repeats = False  # as ``__getstate__`` made them
        # numpy's own dtypes (as ``SearchIndex.__setstate__``'s)
        self.weight_table = self.weight_table.view(np.float64)
        self.which, self.codes, self.lengths, self.start, self.count = (
            self.which.view(np.int32),
            self.codes.view(np.uint16),
            self.lengths.view(np.uint16),
            self.start.view(np.int64),
            self.count.view(np.int32),
        )

    def add(self, slot: int, texts: Sequence[str], weights: Sequence[float]) -> None:
        """Keep a newly linked document's texts, at its slot."""
        if slot >= len(self.start):
            size = max(2 * len(self.start), slot + 1)
            self.start = _grown(self.start, size)
            self.count = _grown(self.count, size)
        first, end = self.size, self.size + len(texts)
        if end > len(self.codes):
            size = max(2 * len(self.codes), end)
            self.which, self.codes = _grown(self.which, size), _grown(self.codes, size)
            self.lengths = _grown(self.lengths, size)
        known = self._known
        if known is None:
            self.which[first:end] = np.arange(len(self.distinct), len(self.distinct) + len(texts))
            self.distinct.extend(texts)
            self._repeats = self._repeats or bool(texts)
        else:
            self.which[first:end] = [self._place(known, text) for text in texts]
        self.codes[first:end] = list(map(self._code, weights))
        self.lengths[first:end] = [min(len(text), _LENGTH_MAX) for text in texts]
        self.start[slot], self.count[slot], self.size = first, len(texts), end

    def _place(self, known: dict[str, int], text: str) -> int:
        """The text's place in ``distinct`` while a build adds texts (``known``), where it is put the first
        time."""
        place = known.setdefault(text, len(known))
        if place == len(self.distinct):
            self.distinct.append(text)
        return place

    def _code(self, weight: float) -> int:
        """A text's weight as its place in ``weight_table``, which a new weight joins."""
        code = self._weight_codes.get(weight)
        if code is None:
            if len(self.weight_table) > np.iinfo(np.uint16).max:
                raise ValueError("a search index holds texts of at most 65,536 distinct weights")
            code = self._weight_codes[weight] = len(self.weight_table)
            self.weight_table = np.append(self.weight_table, weight)
        return code

    def _run(self, slot: int) -> slice:
        """Where a slot's texts and their weights are."""
        first = int(self.start[slot])
        return slice(first, first + int(self.count[slot]))

    def _texts(self, which: npt.NDArray[np.int32]) -> list[str]:
        """The texts at these places in ``distinct``."""
        return list(map(self.distinct.__getitem__, which.tolist()))

    def of(self, slot: int) -> list[str]:
        return self._texts(self.which[self._run(slot)])

    def weights_of(self, slot: int) -> list[float]:
        weights: list[float] = self.weight_table[self.codes[self._run(slot)]].tolist()
        return weights

    def _places(self, slots: npt.NDArray[np.intp]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """Where the texts of ``slots`` are, slot after slot, and where each slot's run of them begins."""
        counts = self.count[slots].astype(np.intp)
        runs = np.cumsum(counts) - counts
        return np.repeat(self.start[slots] - runs, counts) + np.arange(int(counts.sum())), runs

    def renumber(self, slots: npt.NDArray[np.intp]) -> None:
        """The texts of ``slots`` only, which are now slots 1, 2, 3, ... in that order."""
        places, runs = self._places(slots)
        used, which = np.unique(self.which[places], return_inverse=True)
        self.distinct = list(map(self.distinct.__getitem__, used.tolist()))
        size = max(2 * len(places), 1024)
        self.which = _grown(which.astype(np.int32), size)
        self.codes, self.lengths = _grown(self.codes[places], size), _grown(self.lengths[places], size)
        self.size = len(places)
        size = max(2 * (len(slots) + 1), 1024)
        counts = self.count[slots]
        self.start, self.count = np.zeros(size, np.int64), np.zeros(size, np.int32)
        self.start[_NO_SLOT + 1 : len(slots) + 1] = runs
        self.count[_NO_SLOT + 1 : len(slots) + 1] = counts

    def phrase_terms(
        self, query: str, slots: npt.NDArray[np.intp], *, at_least: npt.NDArray[np.float64] | float = 0.0
    ) -> npt.NDArray[np.float64]:
        """For each slot's document, its phrase term for ``query``: the best ``weight x ratio(query,
        text)``, in [0, 1]; every text's at once, in numpy and in one call into rapidfuzz, each distinct
        text compared once. A text whose ``weight x ratio`` falls below its slot's ``at_least`` (0-100)
        counts as none, and those whose weight and length alone rule that out are not even read: a
        summary (weight 0.45) where a name is needed, a quote against a few letters being typed
        (``_reachable``)."""
        phrases = np.zeros(len(slots))
        places, _ = self._places(slots)
        owners = np.repeat(np.arange(len(slots)), self.count[slots])  # each text's place in ``slots``
        weights = self.weight_table[self.codes[places]]
        needed = np.broadcast_to(np.asarray(at_least, np.float64), len(slots))[owners]
        ratio_needed = needed / weights
        compared = np.flatnonzero(_reachable(len(query), self.lengths[places], ratio_needed))
        texts, each = self._once(self.which[places[compared]])
        least = float(ratio_needed[compared].min()) if len(compared) else 0.0
        ratios = process.cdist(
            [query],
            self._texts(texts),
            scorer=fuzz.ratio,
            processor=None,
            score_cutoff=max(least - _EPSILON, 0.0),  # no text below it counts
            dtype=np.float64,
        )[0][each]
        weighted = weights[compared] * ratios
        counted = np.flatnonzero((weighted >= needed[compared]) & (ratios > 0.0))
        np.maximum.at(phrases, owners[compared[counted]], weighted[counted] / 100.0)
        return phrases

    def _once(self, which: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.intp]]:
        """The distinct texts of ``which`` (places in ``distinct``), and where each of ``which`` is among
        them: documents tied near the best share most of their texts ("de n": 113k texts, 13k distinct),
        so each is read and compared once. Found through a table by place in ``distinct`` rather than by
        sorting, in time linear in ``which``."""
        if len(self._seen_at) < len(self.distinct):
            self._seen_at = np.zeros(2 * len(self.distinct), np.intp)
        order = np.arange(len(which))
        self._seen_at[which] = order  # where a text recurs, one of its places in ``which`` stays
        seen = self._seen_at[which]
        kept = np.flatnonzero(seen == order)  # each distinct text, at the place that stayed
        place = np.empty(len(which), np.intp)
        place[kept] = np.arange(len(kept))
        return which[kept], place[seen]


_LABEL, _HEADS = 1, 6  # the columns of labels and of heads in ``_Packed._texts``
_PAIRS = 2  # the column of name pairs in ``_Packed._words``


class _Packed:
    """Linked documents as columns, a row each: an array for each number (kind, guild, date), a table of
    the distinct facets, and a ``Strings`` column for each text and each tuple of words. It unpickles at
    once, however many rows it holds; a row is made a document only when read (``entry``)."""

    def __init__(self, entries: Sequence[_IndexedDocument] = ()) -> None:
        docs = [entry.doc for entry in entries]
        self._kinds = np.array([_KIND_ORDER[doc.kind] for doc in docs], np.uint8)
        self._guilds = np.array([doc.guild_id for doc in docs], np.int64)
        self._dates = np.array([doc.date.toordinal() if doc.date else 0 for doc in docs], np.int32)
        distinct: dict[Facets, int] = {}
        self._facets_of = np.array([distinct.setdefault(doc.facets, len(distinct)) for doc in docs], np.int32)
        self._facets = list(distinct)
        texts = ("key", "label", "incident", "detail", "label_fr", "detail_fr")  # and the heads (``_HEADS``)
        self._texts = (
            *(Strings(map(operator.attrgetter(name), docs)) for name in texts),
            Strings(entry.heads for entry in entries),
        )
        words = ("exact", "compounds", "pairs", "names")  # ``_PAIRS`` among them
        self._words = tuple(Strings(map(joined, map(operator.attrgetter(name), entries))) for name in words)

    def __setstate__(self, state: dict[str, object]) -> None:
        vars(self).update(state)
        # numpy's own dtypes (``SearchIndex.__setstate__``)
        self._kinds, self._guilds = self._kinds.view(np.uint8), self._guilds.view(np.int64)
        self._dates, self._facets_of = self._dates.view(np.int32), self._facets_of.view(np.int32)

    def entry(self, row: int, slot: int) -> _IndexedDocument:
        """The document of ``row``, at ``slot``."""
        key, label, incident, detail, label_fr, detail_fr, heads = (column[row] for column in self._texts)
        exact, compounds, pairs, names = (split(column[row]) for column in self._words)
        date = int(self._dates[row])
        doc = Document(
            _KINDS[self._kinds[row]],
            cast(str, key),
            cast(str, label),
            incident,
            int(self._guilds[row]),
            date=dt.date.fromordinal(date) if date else None,
            detail=detail,
            facets=self._facets[self._facets_of[row]],
            label_fr=label_fr,
            detail_fr=detail_fr,
        )
        return _IndexedDocument(doc, exact, compounds, cast(str, heads), pairs, names, slot)

    def order_key(self, row: int, slot: int) -> _OrderKey:
        """``_order_key`` of the row's document, at ``slot``."""
        return (-int(self._dates[row]), cast(str, self._texts[_LABEL][row]), slot)

    def default_order(self, rows: npt.NDArray[np.int32]) -> npt.NDArray[np.intp]:
        """The places of ``rows`` in their documents' default order (``_order_key``): newest first, then by
        label, rows of one date and label in the order given. The dates are sorted in numpy, and the labels
        of each date alone in Python: no key is made for every document at once."""
        newest_first = -self._dates[rows].astype(np.int64)
        order = np.argsort(newest_first, kind="stable")
        bounds = [0, *(np.flatnonzero(np.diff(newest_first[order])) + 1).tolist(), len(order)]
        labels, held = self._texts[_LABEL], rows.tolist()
        for start, end in itertools.pairwise(bounds):
            if end - start > 1:
                order[start:end] = sorted(order[start:end].tolist(), key=lambda n: cast(str, labels[held[n]]))
        return order

    def tie_order(self, row: int) -> tuple[int, int, str]:
        """``_tie_order`` of the row's document."""
        return (int(self._kinds[row]), -int(self._dates[row]), cast(str, self._texts[_LABEL][row]))

    def tie_keys(self, rows: npt.NDArray[np.int32]) -> npt.NDArray[np.int64]:
        """``_Held.tie_keys`` of the rows."""
        return _tie_key(self._kinds[rows].astype(np.int64), self._dates[rows].astype(np.int64))

    def heads(self, row: int) -> str:
        return cast(str, self._texts[_HEADS][row])

    def holding_pair(self, rows: npt.NDArray[np.intp], pair: str) -> npt.NDArray[np.bool_]:
        """Whether each of the rows' documents has the name pair ``pair``."""
        return self._words[_PAIRS].holding(rows, pair)

    def taken(self, rows: npt.NDArray[np.intp]) -> _Packed:
        """The rows ``rows``, in that order."""
        packed = _Packed()
        packed._kinds, packed._guilds, packed._dates = (
            self._kinds[rows],
            self._guilds[rows],
            self._dates[rows],
        )
        packed._facets, packed._facets_of = self._facets, self._facets_of[rows]
        packed._texts = tuple(column.taken(rows) for column in self._texts)
        packed._words = tuple(column.taken(rows) for column in self._words)
        return packed

    def __len__(self) -> int:
        return len(self._kinds)

    @classmethod
    def concatenated(cls, parts: Sequence[_Packed], *, consume: bool = False) -> _Packed:
        """The rows of ``parts``, one part after another. With ``consume``, the parts give up their text
        columns, each let go once it is joined: the columns are never all held twice (the end of a build
        joins every part it set aside)."""
        packed = cls()
        packed._kinds = np.concatenate([part._kinds for part in parts])
        packed._guilds = np.concatenate([part._guilds for part in parts])
        packed._dates = np.concatenate([part._dates for part in parts])
        places: dict[Facets, int] = {}  # each distinct facets once, in the order they come
        moved = [
            np.array([places.setdefault(f, len(places)) for f in part._facets], np.int32) for part in parts
        ]
        packed._facets = list(places)
        packed._facets_of = np.concatenate(
            [moves[part._facets_of] for moves, part in zip(moved, parts, strict=True)]
        )
        texts = [list(part._texts) for part in parts]
        words = [list(part._words) for part in parts]
        if consume:
            for part in parts:
                part._texts = part._words = ()
        packed._texts, packed._words = _joined(texts), _joined(words)
        return packed


def _joined(parts: list[list[Strings]]) -> tuple[Strings, ...]:
    """The columns of ``parts`` (each part's list of columns), each joined across the parts, one column at a
    time: each part's column is taken out of its list as it is joined."""
    joined = []
    while parts and parts[0]:
        joined.append(Strings.concatenated([columns.pop(0) for columns in parts]))
    return tuple(joined)


_NO_ROW = -1
_SET_ASIDE = 65_536  # a build packs its documents after each this many (``_Held.set_aside``)


class _Held:
    """The linked documents by slot (``SearchIndex._slots``). Those the index held when it was last packed
    (built, saved, loaded) are ``_Packed`` rows, made objects the first time they are read; those linked
    since are objects. Unpickling 600,606 documents' objects was most of a restart (4.1 of 5.4 s at 100k
    incidents), and the objects most of the index's memory."""

    def __init__(self) -> None:
        self._objects: dict[int, _IndexedDocument] = {}  # the documents linked since packing, and those read
        self._whole = _Packed()
        self._parts: list[_Packed] = []  # rows set aside after ``_whole``'s, joined to it when read
        self._rows = np.full(1024, _NO_ROW, np.int32)  # slot -> its row in ``_packed``, if it has one

    @property
    def _packed(self) -> _Packed:
        """The packed rows, those set aside joined to the others first."""
        if self._parts:
            self._whole, self._parts = _Packed.concatenated([self._whole, *self._parts]), []
        return self._whole

    def __getitem__(self, slot: int) -> _IndexedDocument:
        entry = self._objects.get(slot)
        if entry is None:
            row = int(self._rows[slot])
            if row == _NO_ROW:
                raise KeyError(slot)
            entry = self._objects[slot] = self._packed.entry(row, slot)
        return entry

    def add(self, entry: _IndexedDocument) -> None:
        """Hold a document just linked, at its slot."""
        if entry.slot >= len(self._rows):
            grown = np.full(max(2 * len(self._rows), entry.slot + 1), _NO_ROW, np.int32)
            grown[: len(self._rows)] = self._rows
            self._rows = grown
        self._objects[entry.slot] = entry

    def remove(self, slot: int) -> None:
        self._objects.pop(slot, None)
        self._rows[slot] = _NO_ROW

    def order_key(self, slot: int) -> _OrderKey:
        """The document's place in its bucket's default order (``_order_key``), read without making it an
        object."""
        entry = self._objects.get(slot)
        return _order_key(entry) if entry is not None else self._packed.order_key(int(self._rows[slot]), slot)

    def tie_order(self, slot: int) -> tuple[int, int, str]:
        """``_tie_order`` of the document, read without making it an object."""
        entry = self._objects.get(slot)
        return _tie_order(entry.doc) if entry is not None else self._packed.tie_order(int(self._rows[slot]))

    def tie_keys(self, slots: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        """``_tie_order`` of the documents but for their labels, a number each (by kind, then newest first),
        read from the columns but for documents linked since they were packed."""
        rows = self._rows[slots]
        packed = rows != _NO_ROW
        keys = np.empty(len(slots), np.int64)
        keys[packed] = self._packed.tie_keys(rows[packed])
        for n in np.flatnonzero(~packed).tolist():
            kind, newest, _ = _tie_order(self._objects[int(slots[n])].doc)
            keys[n] = _tie_key(kind, -newest)
        return keys

    def holding_pair(self, slots: npt.NDArray[np.intp], pair: str) -> npt.NDArray[np.bool_]:
        """Whether each document has the name pair ``pair``, read from the columns but for documents linked
        since they were packed: a name pair of a query reads those of thousands of documents
        (``_share_pieces``)."""
        rows = self._rows[slots]
        packed = rows != _NO_ROW
        held = np.empty(len(slots), np.bool_)
        held[packed] = self._packed.holding_pair(rows[packed].astype(np.intp), pair)
        held[~packed] = [pair in self._objects[slot].pairs for slot in slots[~packed].tolist()]
        return held

    def heads(self, slot: int) -> str:
        """The document's ``heads``, read without making it an object."""
        entry = self._objects.get(slot)
        return entry.heads if entry is not None else self._packed.heads(int(self._rows[slot]))

    def in_default_order(self) -> npt.NDArray[np.intp]:
        """The slots held in their documents' default order (``_order_key``), read from the columns: every
        document is a packed row (``packed``)."""
        slots = self.slots()
        return slots[self._packed.default_order(self._rows[slots])]

    def slots(self) -> npt.NDArray[np.intp]:
        """The slots held, in order."""
        linked = np.fromiter(self._objects, np.intp, len(self._objects))
        return np.union1d(np.flatnonzero(self._rows != _NO_ROW), linked)

    def set_aside(self) -> None:
        """Pack the documents linked since the last packing, as rows after those held, and let every object
        go: a build does this as it goes, so that its documents are never all objects at once."""
        fresh = [slot for slot in sorted(self._objects) if self._rows[slot] == _NO_ROW]
        held = len(self._whole) + sum(map(len, self._parts))
        self._parts.append(_Packed([self._objects[slot] for slot in fresh]))
        self._rows[fresh] = np.arange(held, held + len(fresh), dtype=np.int32)
        self._objects = {}

    def packed(self, *, consume: bool = False) -> _Held:
        """These documents, every one a ``_Packed`` row: the rows held, then the documents linked since. With
        ``consume`` (the end of a build), these may give up their columns as they are joined: read them no
        more."""
        slots = self.slots()
        rows = self._rows[slots]
        fresh = rows == _NO_ROW
        kept = rows[~fresh].astype(np.intp)
        parts = [self._whole, *self._parts]
        in_order = len(kept) == sum(map(len, parts)) and bool((kept == np.arange(len(kept))).all())
        held = _Held()
        linked = _Packed([self._objects[slot] for slot in slots[fresh].tolist()])
        if not in_order:
            held._whole = _Packed.concatenated([self._packed.taken(kept), linked])
        elif self._parts or len(linked):
            held._whole = _Packed.concatenated([*parts, linked], consume=consume)
        else:  # nothing to join (a save with no write since the last packing): no copy
            held._whole = self._whole
        held._rows = np.full(len(self._rows), _NO_ROW, np.int32)
        held._rows[np.concatenate([slots[~fresh], slots[fresh]])] = np.arange(len(slots), dtype=np.int32)
        return held

    def renumber(self, old: npt.NDArray[np.intp]) -> None:
        """Move the documents of the slots ``old`` (every one held, in order) to slots 1, 2, 3, ..."""
        new = dict(zip(old.tolist(), range(_NO_SLOT + 1, _NO_SLOT + 1 + len(old)), strict=True))
        self._objects = {new[slot]: entry for slot, entry in self._objects.items()}
        for slot, entry in self._objects.items():
            entry.slot = slot
        rows = np.full(max(2 * (len(old) + 1), 1024), _NO_ROW, np.int32)
        rows[_NO_SLOT + 1 : len(old) + 1] = self._rows[old]
        self._rows = rows

    def __setstate__(self, state: dict[str, object]) -> None:
        vars(self).update(state)
        self._rows = self._rows.view(np.int32)  # numpy's own dtype (``SearchIndex.__setstate__``)


_GrownArray = TypeVar(
    "_GrownArray",
    npt.NDArray[np.float64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int32],
    npt.NDArray[np.uint16],
)


def _grown(array: _GrownArray, size: int) -> _GrownArray:
    """``array`` in a new array of ``size`` (zeros after it)."""
    grown = np.zeros(size, array.dtype)
    grown[: len(array)] = array
    return grown


# ``_Tally`` reads or sets back slots one by one while they are fewer than a quarter of the query's slot
# range, else passes over the whole range: in order, it is quicker than reaching as many in no order.
_SCAN_SHARE = 4
# A word's rows are read through when they are at most this many times the documents a query found, and
# else each document found is sought in them (``SearchIndex._best_among``): a bisection reaches a dozen
# rows here and there, a read goes through all of them in order.
_SEEK_SHARE = 8
# Nor is a word with at most this many rows sought: a seek costs a dozen calls into numpy, a word's rows
# read are gathered with every other word's in one.
_SEEK_ROWS_MIN = 4000


class _Tally:
    """Arrays over slots in which ``_coverage`` tallies a query, kept from query to query: a query works
    on the slots its tokens' postings reach, where they are few, and sets back those it touched; fresh
    arrays for each query and token would be passes over all the slots of a large index."""

    def __init__(self) -> None:
        self.totals = np.zeros(0)  # credit so far
        self.found_at = np.full(0, _NOT_FOUND, np.int64)  # ``_best_matches``
        # the slots of ``among``, as a mask: read for many rows at a time, a byte a slot is read faster
        self.in_among = np.zeros(0, np.bool_)
        self.best = np.zeros(0)  # one token's best match (``credit`` sets it back)
        self._place = np.zeros(0, np.intp)  # scratch for ``distinct``: never read before it is written
        self._range = 0  # the query's slot range

    def fit(self, slot_range: int) -> None:
        """Start a query over ``slot_range`` slots, making room for them (the arrays are as fresh ones)."""
        self._range = slot_range
        if len(self.totals) < slot_range:
            size = max(slot_range, 2 * len(self.totals))
            self.totals, self.best = np.zeros(size), np.zeros(size)
            self.found_at = np.full(size, _NOT_FOUND, np.int64)
            self.in_among = np.zeros(size, np.bool_)
            self._place = np.zeros(size, np.intp)

    def _few(self, slots: npt.NDArray[np.intp]) -> bool:
        return len(slots) * _SCAN_SHARE <= self._range

    def credit(self, slots: npt.NDArray[np.intp], weight: float) -> None:
        """Add ``weight`` x ``best`` to the totals of ``slots`` (the slots ``best`` was set at, some maybe
        twice: numpy reads each slot's total before it writes any, so each is added to once), and set
        ``best`` back."""
        if self._few(slots):
            self.totals[slots] += weight * self.best[slots]
            self.best[slots] = 0.0
        else:
            whole = slice(0, self._range)
            self.totals[whole] += weight * self.best[whole]
            self.best[whole] = 0.0

    def distinct(self, found: Sequence[npt.NDArray[np.intp]]) -> npt.NDArray[np.intp]:
        """The slots ``found`` (lists of slots, some in several), each once, in no particular order."""
        if not found:
            return np.empty(0, np.intp)
        slots = np.concatenate(found) if len(found) > 1 else found[0]
        if not self._few(slots):
            return np.flatnonzero(self.found_at[: self._range] != _NOT_FOUND)
        places = np.arange(len(slots))
        self._place[slots] = places
        last: npt.NDArray[np.bool_] = self._place[slots] == places  # a slot's last place in ``slots``
        return slots[last]

    def among(self, found: Sequence[npt.NDArray[np.intp]]) -> npt.NDArray[np.intp]:
        """The slots ``found``, each once, sorted; marked in ``in_among`` too (set back by ``clear``)."""
        slots = np.sort(self.distinct(found))
        self.in_among[slots] = True
        return slots

    def clear(self, slots: npt.NDArray[np.intp] | None = None) -> None:
        """Set back the slots a query found (every slot after a failure, ``best`` too)."""
        if slots is not None and self._few(slots):
            self.totals[slots] = 0.0
            self.found_at[slots] = _NOT_FOUND
            self.in_among[slots] = False
        else:
            self.totals.fill(0.0)
            self.found_at.fill(_NOT_FOUND)
            self.in_among.fill(False)
            if slots is None:
                self.best.fill(0.0)


def _share(held: dict[str, _Shared], name: str, ident: _Ident) -> None:
    """Add ``ident`` to the documents of ``name``."""
    sharing = held.get(name, ())
    if isinstance(sharing, dict):
        sharing[ident] = None
    elif len(sharing) < _FEW_SHARE:
        held[name] = (*sharing, ident)
    else:
        held[name] = dict.fromkeys((*sharing, ident))


def _unshare(held: dict[str, _Shared], name: str, ident: _Ident) -> None:
    """Take ``ident`` out of the documents of ``name``, and ``name`` out once it has none."""
    sharing = held[name]
    if isinstance(sharing, dict):
        del sharing[ident]
    else:
        sharing = held[name] = tuple(other for other in sharing if other != ident)
    if not sharing:
        del held[name]


def _drop(held: dict[_K, tuple[_V, ...]], key: _K, value: _V) -> None:
    """Take ``value`` out of ``held[key]``, and the key out of ``held`` once it holds nothing."""
    rest = tuple(other for other in held[key] if other != value)
    if rest:
        held[key] = rest
    else:
        del held[key]


def _with_room(rows: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """``rows`` followed by room for more postings, (_NO_SLOT, _NO_WEIGHT) rows: ``_ROOM`` of them, at
    least 4."""
    grown = np.zeros((len(rows) + max(int(len(rows) * _ROOM), 4), 2), np.int32)
    grown[: len(rows)] = rows
    return grown


def _keyed(rows: npt.NDArray[np.int32], used: int) -> npt.NDArray[np.int64]:
    """A word's first ``used`` rows, each as one int64 key: its slot in the high half, its code in the low."""
    return rows[:used].view(np.int64).reshape(used)


def _in_order(slots: array.array[int], rank: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """``slots`` in the order of their ``rank``."""
    held = np.frombuffer(slots, np.intc).astype(np.intp)
    return held[np.argsort(rank[held], kind="stable")]


def _packed_rows(
    building: dict[str, tuple[array.array[int], array.array[int]]], words: Sequence[str]
) -> npt.NDArray[np.int32]:
    """The postings a build gathered, as ``_Runs`` packs them: the rows of ``words``, one word after another,
    each word's arrays taken out of ``building`` as they are packed (no array of its own for each word first,
    and never every word's twice)."""
    rows = np.empty((sum(len(building[word][0]) for word in words), 2), np.int32)
    at = 0
    for word in words:
        slots, codes = building.pop(word)
        rows[at : at + len(slots), _SLOT] = np.frombuffer(slots, np.intc)
        rows[at : at + len(slots), _WEIGHT] = np.frombuffer(codes, np.intc)
        at += len(slots)
    return rows


def _reachable(
    size: int, lengths: npt.NDArray[np.uint16], needed: npt.NDArray[np.float64]
) -> npt.NDArray[np.bool_]:
    """Whether texts of these lengths may reach the ``ratio`` each needs with a query of ``size`` characters:
    ``ratio`` is at most ``200 * min(a, b) / (a + b)`` for lengths ``a`` and ``b``, which rises to ``size``
    and falls after it."""
    lengths = lengths.astype(np.float64)
    return 200.0 * np.minimum(lengths, size) / (lengths + size) >= needed - _EPSILON


def _scores(
    coverage: npt.NDArray[np.float64], phrase: npt.NDArray[np.float64], share: float
) -> npt.NDArray[np.float64]:
    """Fuzzy hits' scores, rounded to a tenth: never above a bound made of bounds on their terms. Rounded as
    Python's ``round`` rounds (numpy's ``round`` may differ in the last place), each distinct score once."""
    unrounded, where = np.unique(
        np.minimum(100.0 * ((1.0 - share) * coverage + share * phrase), 99.9), return_inverse=True
    )
    return np.array([round(score, 1) for score in unrounded.tolist()])[where]


def _kind_set(kinds: Iterable[DocumentKind] | None) -> frozenset[DocumentKind] | None:
    return None if kinds is None else frozenset(DocumentKind(kind) for kind in kinds)


def _hit_order(hit: Hit) -> tuple[float, int, int, str]:
    return (-hit.score, *_tie_order(hit.document))


def _tie_order(doc: Document) -> tuple[int, int, str]:
    """How hits of one score are ordered: by kind, newest first, then by label."""
    return (_KIND_ORDER[doc.kind], -(doc.date.toordinal() if doc.date else 0), doc.label)


_Number = TypeVar("_Number", int, npt.NDArray[np.int64])


def _tie_key(kind: _Number, date: _Number) -> _Number:
    """A document's kind (its place in ``_KIND_ORDER``) and date (an ordinal, 0 for none) as one number that
    orders as ``_tie_order`` does, but for the label: by kind, then newest first."""
    return kind * (1 << 32) - date


def _slot_array(slots: Iterable[int] | npt.NDArray[np.intp]) -> array.array[int]:
    """Slots as one of ``_ordered``'s lists: an array of C ints, which pickles as its bytes and takes a
    slot in or out in place."""
    if isinstance(slots, np.ndarray):
        return array.array("i", slots.astype(np.intc).tobytes())
    return array.array("i", slots)


def _order_key(entry: _IndexedDocument) -> _OrderKey:
    """Where a document stands in its bucket's default order: newest first, then by label, then the
    oldest in the index first (its slot)."""
    doc = entry.doc
    return (-(doc.date.toordinal() if doc.date else 0), doc.label, entry.slot)
