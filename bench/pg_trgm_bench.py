"""The typo-candidate step: the in-memory index against PostgreSQL's pg_trgm with a GIN index.

Run ``python bench/pg_trgm_bench.py --dataset FILE --queries FILE --database URL`` (the files
``parlbot bench corpus`` writes; the database a PostgreSQL one the script may create a table in).

The step measured is the one whose cost grows with the data: finding the vocabulary words within
``Tuning.token_cutoff`` (``fuzz.ratio``) of a query word. The vocabulary is every folded word of
every string in the dataset file. Three ways of finding them, for every word of every query:

- *brute force*: rapidfuzz's ``process.extract`` over the whole vocabulary (the oracle);
- *index*: ``SearchIndex``'s own typo matching (its candidate filter, then rapidfuzz on survivors);
- *pg_trgm*: ``SELECT word FROM bench_vocabulary WHERE word % :query`` at several
  ``pg_trgm.similarity_threshold`` values (GIN ``gin_trgm_ops`` index), then the same ``fuzz.ratio``
  cutoff on what it returns, as the index would have to.

Recall is the share of the brute-force matches each way finds (the index must find all of them).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.benchmark.measure import percentile  # noqa: E402
from bot.search.index import TUNING, Document, DocumentKind, SearchIndex, TextField  # noqa: E402
from bot.search.text import fold, is_numeric  # noqa: E402

THRESHOLDS = (0.3, 0.2, 0.1)
CHUNK = 50  # vocabulary words per synthetic document of the index


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def vocabulary(dataset: Path) -> list[str]:
    words = {word for string in _strings(json.loads(dataset.read_text())) for word in fold(string).split()}
    return sorted(word for word in words if not is_numeric(word))


def query_words(queries: Path) -> list[str]:
    words: set[str] = set()
    for line in queries.read_text().splitlines():
        if line.strip():
            words.update(word for word in fold(json.loads(line)["query"]).split() if not is_numeric(word))
    return sorted(words)


def brute_force(vocab: Sequence[str]) -> Callable[[str], set[str]]:
    def find(word: str) -> set[str]:
        found = process.extract(
            word, vocab, scorer=fuzz.ratio, processor=None, score_cutoff=TUNING.token_cutoff, limit=None
        )
        return {candidate for candidate, _, _ in found}

    return find


def in_index(vocab: Sequence[str]) -> Callable[[str], set[str]]:
    chunks = [vocab[start : start + CHUNK] for start in range(0, len(vocab), CHUNK)]
    index = SearchIndex(
        Document(DocumentKind.TERM, f"words-{n}", f"words {n}", fields=(TextField(" ".join(chunk)),))
        for n, chunk in enumerate(chunks)
    )

    def find(word: str) -> set[str]:
        found: dict[str, float] = {}
        index._add_typo_matches(word, found)  # the step measured: typo candidates over the vocabulary
        return set(found)

    return find


@contextmanager
def in_postgres(url: str, threshold: float) -> Iterator[Callable[[str], set[str]]]:
    """pg_trgm's candidates at ``threshold``, on one connection, closed after (so that nothing holds the
    table when ``drop_vocabulary`` drops it)."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            connection.execute(
                text("SELECT set_config('pg_trgm.similarity_threshold', :t, false)"), {"t": str(threshold)}
            )
            query = text("SELECT word FROM bench_vocabulary WHERE word % :word")

            def find(word: str) -> set[str]:
                rows = connection.execute(query, {"word": word}).scalars()
                return {row for row in rows if fuzz.ratio(word, row) >= TUNING.token_cutoff}

            yield find
    finally:
        engine.dispose()


def load_postgres(url: str, vocab: Sequence[str]) -> float:
    engine = create_engine(url)
    begin = time.perf_counter()
    with engine.begin() as connection:
        connection.execute(text("CREATE EXTENSION IF NOT EXISTS pg_trgm"))
        connection.execute(text("DROP TABLE IF EXISTS bench_vocabulary"))
        connection.execute(text("CREATE TABLE bench_vocabulary (word text PRIMARY KEY)"))
        connection.execute(text("INSERT INTO bench_vocabulary VALUES (:w)"), [{"w": w} for w in vocab])
        connection.execute(text("CREATE INDEX ON bench_vocabulary USING gin (word gin_trgm_ops)"))
        connection.execute(text("ANALYZE bench_vocabulary"))
    engine.dispose()
    return time.perf_counter() - begin


def drop_vocabulary(url: str) -> None:
    """Leave the database as the run found it: without the table ``load_postgres`` made."""
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE IF EXISTS bench_vocabulary"))
    engine.dispose()


def measure(
    name: str, find: Callable[[str], set[str]], words: Sequence[str], truth: dict[str, set[str]]
) -> str:
    times: list[float] = []
    found = wanted = 0
    for word in words:
        begin = time.perf_counter()
        got = find(word)
        times.append((time.perf_counter() - begin) * 1000.0)
        found += len(got & truth[word])
        wanted += len(truth[word])
    recall = found / wanted if wanted else 1.0
    p99 = percentile(sorted(times), 0.99) or 0.0
    return f"{name:<22} {statistics.median(times):>8.2f} {p99:>8.2f} {max(times):>8.2f} {recall:>7.3f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, required=True)
    parser.add_argument("--queries", type=Path, required=True)
    parser.add_argument("--database", required=True, help="a PostgreSQL URL (postgresql+psycopg://...)")
    args = parser.parse_args(argv)
    vocab = vocabulary(args.dataset)
    words = query_words(args.queries)
    oracle = brute_force(vocab)
    truth = {word: oracle(word) for word in words}
    load_s = load_postgres(args.database, vocab)
    try:
        print(
            f"vocabulary {len(vocab):,} words; {len(words):,} distinct query words; "
            f"pg load + GIN {load_s:.1f} s"
        )
        print(f"{'candidates by':<22} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'recall':>7}")
        print(measure("brute force", oracle, words, truth))
        print(measure("index", in_index(vocab), words, truth))
        for threshold in THRESHOLDS:
            with in_postgres(args.database, threshold) as found_by:
                print(measure(f"pg_trgm (sim >= {threshold})", found_by, words, truth))
    finally:
        drop_vocabulary(args.database)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
