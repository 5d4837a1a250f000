"""Measure ``SearchIndex`` at scale on a vocabulary as large as real names bring.

Run ``python bench/index_scale_bench.py [--docs N] [--seed S] [--profile CLASS] [--memory]``.
Documents are built directly (no database): incidents, people, quotes and rulings whose names and
words come from random syllables with accents, so the vocabulary holds well over 100k distinct
tokens at 100k documents. Every document is shared (guild 0); queries run in guild 1, which holds a
few documents of its own, so shadowing and the per-guild merge are on the path. The table gives the
build time, RSS, and p50 / p99 latency (ms) of each query class:

- ``complete, typing``: every keystroke of people's and incidents' names, all kinds;
- ``complete, incidents``: the same keystrokes with ``kinds=(incident,)``;
- ``complete, 1-2 letters``: one- and two-letter queries;
- ``resolve, typos``: a name with one letter changed, dropped, doubled or swapped;
- ``search, multiword``: three words of an incident's title and people, reordered;
- ``write, empty complete``: upsert an incident in guild 1, then the empty autocomplete;
- ``write then complete``: upsert an incident in guild 1, then the empty autocomplete and a prefix of
  its name, timed together.

``--memory`` adds a tracemalloc breakdown of the index (by source line), ``--profile CLASS`` a
cProfile of one class (its first letters are enough).
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import gc
import pstats
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.search.index import Document, DocumentKind, SearchIndex, TextField  # noqa: E402
from bot.search.text import fold  # noqa: E402

GUILD = 1
ONSETS = [
    "b",
    "c",
    "d",
    "f",
    "g",
    "h",
    "j",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "w",
    "z",
    "br",
    "ch",
    "dr",
    "gr",
    "kr",
    "pl",
    "sch",
    "sh",
    "st",
    "tr",
    "zh",
    "ł",
    "ś",
    "ž",
    "č",
    "ř",
    "ç",
]
VOWELS = [
    "a",
    "e",
    "i",
    "o",
    "u",
    "y",
    "é",
    "è",
    "ë",
    "á",
    "à",
    "ä",
    "ó",
    "ö",
    "ø",
    "ú",
    "ü",
    "í",
    "ï",
    "å",
    "ã",
    "õ",
    "ai",
    "ei",
    "ou",
    "ia",
]
CODAS = ["", "", "", "n", "r", "s", "l", "m", "k", "t", "nd", "rt", "sk", "ng"]
PROCEDURE = [
    "motion",
    "ruling",
    "speaker",
    "point",
    "order",
    "member",
    "house",
    "chamber",
    "vote",
    "question",
    "privilege",
    "named",
    "ejected",
    "withdraw",
    "apologise",
    "apologised",
    "unparliamentary",
    "language",
    "sitting",
    "suspended",
    "debate",
    "bill",
    "amendment",
    "committee",
    "minister",
    "opposition",
    "government",
    "leader",
    "deputy",
    "clerk",
    "mace",
    "division",
    "adjourned",
    "contempt",
]


def _word(rng: random.Random, syllables: tuple[int, int]) -> str:
    parts = [
        rng.choice(ONSETS) + rng.choice(VOWELS) + rng.choice(CODAS) for _ in range(rng.randint(*syllables))
    ]
    return "".join(parts)


def _pool(rng: random.Random, size: int, syllables: tuple[int, int]) -> list[str]:
    words: dict[str, None] = {}
    while len(words) < size:
        words[_word(rng, syllables).capitalize()] = None
    return list(words)


class Corpus:
    """Pools of first names, surnames, places and words, and documents drawn from them."""

    def __init__(self, docs: int, seed: int) -> None:
        self.rng = random.Random(seed)
        scale = max(docs // 100, 10)
        self.firsts = _pool(self.rng, 15 * scale, (1, 3))
        self.surnames = _pool(self.rng, 60 * scale, (2, 4))
        self.places = _pool(self.rng, 5 * scale, (2, 3))
        self.common = [w.lower() for w in _pool(self.rng, 2000, (1, 2))] + PROCEDURE * 20
        self.rare = [w.lower() for w in _pool(self.rng, 150 * scale, (2, 4))]

    def name(self) -> str:
        return f"{self.rng.choice(self.firsts)} {self.rng.choice(self.surnames)}"

    def text(self, count: int) -> str:
        # Half the words from a Zipf-like head of common ones, half from a long tail of rare ones.
        rng, common, rare = self.rng, self.common, self.rare
        return " ".join(
            common[min(int(rng.paretovariate(0.8)) - 1, len(common) - 1)]
            if rng.random() < 0.5
            else rng.choice(rare)
            for _ in range(count)
        )

    def date(self) -> dt.date:
        return dt.date(1950, 1, 1) + dt.timedelta(days=self.rng.randrange(27000))

    def incident(self, n: int, guild: int = 0) -> tuple[Document, list[Document]]:
        """An incident and its person, quote and ruling documents."""
        rng = self.rng
        people = [self.name(), self.name()]
        place = rng.choice(self.places)
        title = f"{people[0]} {self.text(rng.randint(1, 4))} {place}"
        date = self.date()
        slug = f"{fold(people[0]).replace(' ', '-')}-{date.year}-{n}"
        quote, summary = self.text(rng.randint(6, 20)), self.text(rng.randint(8, 25))
        incident = Document(
            kind=DocumentKind.INCIDENT,
            key=slug,
            label=title[:100],
            incident=slug,
            guild_id=guild,
            exact=(slug,),
            fields=(
                TextField(title),
                TextField(" ".join(people), 0.85),
                TextField(f"{place} {date.year}", 0.6),
                TextField(summary, 0.45),
                TextField(quote, 0.45),
            ),
            date=date,
        )
        person = Document(
            kind=DocumentKind.PERSON,
            key=f"{fold(people[1]).replace(' ', '-')}-{n}",
            label=people[1],
            guild_id=guild,
            exact=(people[1],),
            fields=(TextField(people[1]), TextField(place, 0.6), TextField(title, 0.45)),
            date=date,
        )
        children = [
            Document(
                kind=DocumentKind.QUOTE,
                key=f"quote:{n}",
                label=f"“{quote}” — {people[0]}"[:100],
                incident=slug,
                guild_id=guild,
                fields=(TextField(quote), TextField(people[0], 0.85)),
                date=date,
            ),
            Document(
                kind=DocumentKind.RULING,
                key=f"ruling:{n}",
                label=f"Ruling: {summary}"[:100],
                incident=slug,
                guild_id=guild,
                fields=(TextField(summary), TextField(title, 0.45)),
                date=date,
            ),
        ]
        return incident, [person, *children]

    def documents(self, count: int) -> list[Document]:
        docs: list[Document] = []
        n = 0
        while len(docs) < count:
            incident, others = self.incident(n)
            docs += [incident, *others]
            n += 1
        for m in range(20):  # the guild's own entries
            incident, others = self.incident(n + m, GUILD)
            docs += [incident, *others]
        return docs


def _typo(rng: random.Random, word: str) -> str:
    at = rng.randrange(1, len(word) - 1)
    edit = rng.choice(["change", "drop", "double", "swap"])
    if edit == "change":
        return word[:at] + rng.choice("aeioulnrst") + word[at + 1 :]
    if edit == "drop":
        return word[:at] + word[at + 1 :]
    if edit == "double":
        return word[:at] + word[at] + word[at:]
    return word[: at - 1] + word[at] + word[at - 1] + word[at + 1 :]


def query_classes(docs: Sequence[Document], rng: random.Random) -> dict[str, list[str]]:
    named = [doc for doc in docs if doc.kind in (DocumentKind.INCIDENT, DocumentKind.PERSON)]
    targets = rng.sample(named, 60)
    names = [
        doc.label if doc.kind is DocumentKind.PERSON else " ".join(doc.label.split()[:2]) for doc in targets
    ]
    typing = [name[:n] for name in names for n in range(1, len(name) + 1)]
    typos = []
    for name in names:
        first, last = name.split()[:2]
        typos.append(f"{first} {_typo(rng, last)}" if len(last) > 3 else name)
    multiword = []
    for doc in rng.sample([d for d in docs if d.kind is DocumentKind.INCIDENT], 100):
        words = doc.fields[0].text.split() + doc.fields[1].text.split()
        multiword.append(" ".join(rng.sample(words, min(3, len(words)))))
    letters = "abcdefghijklmnoprstuvwz"
    short = [
        *letters,
        *(a + b for a, b in zip(rng.choices(letters, k=60), rng.choices(letters, k=60), strict=True)),
    ]
    return {"typing": typing, "typos": typos, "multiword": multiword, "short": short}


def percentiles(samples: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(sorted(samples), n=100, method="inclusive")
    return q[49], q[98]


def timed(call: Callable[[str], object], queries: Sequence[str]) -> list[float]:
    samples = []
    for query in queries:
        start = time.perf_counter()
        call(query)
        samples.append((time.perf_counter() - start) * 1000.0)
    return samples


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def runs(
    index: SearchIndex, corpus: Corpus, queries: dict[str, list[str]]
) -> dict[str, Callable[[], list[float]]]:
    incidents = (DocumentKind.INCIDENT,)

    def write_then(*typed: int) -> list[float]:
        """Upsert a new incident, then autocomplete the first ``typed`` letters of its name."""
        samples = []
        for n in range(60):
            incident, _ = corpus.incident(10_000_000 + n, GUILD)
            start = time.perf_counter()
            index.upsert(incident)
            for size in typed:
                index.complete(incident.label[:size], guild_id=GUILD)
            samples.append((time.perf_counter() - start) * 1000.0)
        return samples

    return {
        "complete, typing": lambda: timed(lambda q: index.complete(q, guild_id=GUILD), queries["typing"]),
        "complete, incidents": lambda: timed(
            lambda q: index.complete(q, kinds=incidents, guild_id=GUILD), queries["typing"]
        ),
        "complete, 1-2 letters": lambda: timed(lambda q: index.complete(q, guild_id=GUILD), queries["short"]),
        "resolve, typos": lambda: timed(lambda q: index.resolve(q, guild_id=GUILD), queries["typos"]),
        "search, multiword": lambda: timed(lambda q: index.search(q, guild_id=GUILD), queries["multiword"]),
        "write, empty complete": lambda: write_then(0),
        "write then complete": lambda: write_then(0, 6),
    }


def memory_breakdown(docs: Sequence[Document]) -> None:
    gc.collect()
    tracemalloc.start(1)
    index = SearchIndex(docs)
    snapshot = tracemalloc.take_snapshot()
    total = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    print(f"\nindex memory (tracemalloc, documents themselves excluded): {total / 2**20:.1f} MiB,")
    print(f"{total / len(docs):.0f} bytes per document; by source line:")
    for stat in snapshot.statistics("lineno")[:14]:
        frame = stat.traceback[0]
        print(f"  {stat.size / 2**20:8.1f} MiB  {Path(frame.filename).name}:{frame.lineno}")
    del index


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--profile", help="cProfile this query class (its first letters)")
    parser.add_argument("--memory", action="store_true", help="tracemalloc breakdown of the index")
    args = parser.parse_args()

    corpus = Corpus(args.docs, args.seed)
    docs = corpus.documents(args.docs)
    queries = query_classes(docs, random.Random(args.seed))
    gc.collect()
    before = rss_mb()
    start = time.perf_counter()
    index = SearchIndex(docs)
    build = time.perf_counter() - start
    gc.collect()
    after = rss_mb()
    vocabulary = len({token for doc in docs for f in doc.fields for token in fold(f.text).split()})
    print(f"{len(docs)} documents, {vocabulary} distinct tokens; build {build:.1f} s;")
    print(f"RSS {after:.0f} MB ({after - before:.0f} MB for the index, {before:.0f} MB before it)\n")
    print(f"  {'class':<22} {'queries':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, run in runs(index, corpus, queries).items():
        if args.profile and name.startswith(args.profile):
            profile = cProfile.Profile()
            profile.enable()
            samples = run()
            profile.disable()
            pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        else:
            samples = run()
        p50, p99 = percentiles(samples)
        print(f"  {name:<22} {len(samples):>7} {p50:>8.2f} {p99:>8.2f} {max(samples):>8.2f}")
    if args.memory:
        del index
        memory_breakdown(docs)


if __name__ == "__main__":
    main()
