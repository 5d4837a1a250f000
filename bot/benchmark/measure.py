"""``parlbot bench search``: import a dataset, start the index as ``parlbot run`` does, run labelled
queries through the core, and compare with a naive fuzzy scan over the same strings.

Steps (docs/benchmarks.md says what each figure means):

1. Import: the dataset file through the real import path (``transfer.decode`` and ``commit_import`` into
   the shared scope, one transaction), into a fresh SQLite file unless a database is given. A given
   database that already records the file's ``dataset_version`` is used as it is (``import_s`` null).
2. Cold start: ``bot.benchmark.cold_start`` in a fresh process: ``Library.open`` and the RSS after it.
3. Ours: the library opened the same way in this process (saving its index to a snapshot file); each
   query through ``Library.answer`` (``incident``: resolve and render), ``Library.complete`` or
   ``Library.search``, timed.
4. The restart: the cold start again, in a fresh process, loading that snapshot (``bot.search.snapshots``).
5. Baseline: every searchable string of the documents the command looks at (labels, exact names,
   field texts, folded once), ``rapidfuzz.process.extract(query, strings, scorer=WRatio, limit=25)``,
   deduplicated to documents; on every query, or a deterministic sample of them.
"""

from __future__ import annotations

import json
import math
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

import bot
from bot.answers.render import Action, Choice, Reply
from bot.benchmark.cold_start import rss_mb
from bot.benchmark.queries import Query
from bot.curation import transfer
from bot.errors import ParlbotError
from bot.library import COMPLETE_ONLY, SEARCH_KINDS, TOPICS, Library, commit_import
from bot.search.documents import load_documents
from bot.search.index import Document, DocumentKind
from bot.search.text import fold
from db.models import SHARED_GUILD, DatasetVersion
from db.session import Database

BASELINE_LIMIT = 25
BASELINE_SAMPLE_SEED = 0
IMPORT_ACTOR = 0  # the user id the benchmark's import is audited as (the command line's)
_CHILD_KINDS = {kind.value: kind for kind in (DocumentKind.QUOTE, DocumentKind.RULING, DocumentKind.MOTION)}

Found = list[frozenset[str]]  # per result, best first: the keys it counts for (itself, its incident)


class BenchError(Exception):
    """The benchmark cannot run (an unreadable dataset, a refused import, a failed cold start)."""


@dataclass(slots=True)
class Outcome:
    """One query's run: how long it took, what it found, and whether it was answered outright."""

    query: Query
    ms: float
    found: Found
    answered: bool = False

    def hit(self, within: int) -> bool:
        return any(self.query.expect in keys for keys in self.found[:within])


@dataclass(slots=True)
class Run:
    outcomes: list[Outcome] = field(default_factory=list)

    def latency(self, command: str) -> dict[str, float | None]:
        times = sorted(o.ms for o in self.outcomes if o.query.command == command)
        return {"p50": percentile(times, 0.50), "p99": percentile(times, 0.99)}

    def recall(self, within: int, outcomes: Sequence[Outcome] | None = None) -> float | None:
        scored = [o for o in (self.outcomes if outcomes is None else outcomes) if o.query.expect is not None]
        return round(sum(o.hit(within) for o in scored) / len(scored), 4) if scored else None


def percentile(sorted_values: Sequence[float], share: float) -> float | None:
    """The nearest-rank percentile, in ms rounded to 3 places; None for no values."""
    if not sorted_values:
        return None
    return round(sorted_values[max(0, math.ceil(share * len(sorted_values)) - 1)], 3)


# --- import and cold start ----------------------------------------------------------------------


def _decoded(dataset: Path) -> object:
    try:
        return transfer.decode(dataset.read_bytes(), str(dataset))
    except OSError as error:
        raise BenchError(f"cannot read {dataset}: {error.strerror or error}") from None
    except transfer.UnreadableFile as error:
        raise BenchError(error.message) from None


def import_dataset(url: str, dataset: Path) -> float | None:
    """Seconds to read and import the file (None when the database already records its version)."""
    started = time.perf_counter()
    document = _decoded(dataset)
    version = document.get("dataset_version") if isinstance(document, dict) else None
    database = Database(url)
    try:
        database.ensure_ready(seed=False)
        with database.session() as session:
            recorded = session.get(DatasetVersion, SHARED_GUILD)
            if recorded is not None and recorded.version == version:
                return None
            try:
                commit_import(
                    database, session, document, guild_id=SHARED_GUILD, actor_id=IMPORT_ACTOR, consume=True
                )
            except ParlbotError as error:
                raise BenchError(f"the import was refused: {error.message.splitlines()[0]}") from None
    finally:
        database.dispose()
    return time.perf_counter() - started


def cold_start(url: str, snapshot: Path | None = None) -> dict[str, Any]:
    """``bot.benchmark.cold_start`` in a fresh interpreter (loading ``snapshot``, if given); adds
    ``process_s``, spawn to ready."""
    root = str(Path(bot.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH"))))}
    started = time.perf_counter()
    child = subprocess.run(  # noqa: S603  (this interpreter, this package's module, the URL given)
        [sys.executable, "-m", "bot.benchmark.cold_start", url, *([str(snapshot)] if snapshot else [])],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    elapsed = time.perf_counter() - started
    lines = child.stdout.strip().splitlines()
    if child.returncode != 0 or not lines:
        reason = (child.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchError(f"the cold-start process failed: {reason}")
    report: dict[str, Any] = json.loads(lines[-1])
    report["process_s"] = elapsed
    return report


@contextmanager
def database_url(given: str | None) -> Iterator[str]:
    """``given``, or a fresh SQLite file that is removed afterwards."""
    if given is not None:
        yield given
        return
    with tempfile.TemporaryDirectory(prefix="parlbot-bench-") as folder:
        yield f"sqlite:///{Path(folder) / 'bench.sqlite3'}"


# --- ours ----------------------------------------------------------------------------------------


def _keys(library: Library, key: str) -> frozenset[str]:
    """What a result with ``key`` counts for: itself and, for a quote, ruling or motion, its incident."""
    kind = _CHILD_KINDS.get(key.partition(":")[0]) if ":" in key else None
    document = library.index.get(kind, key) if kind else None
    return frozenset(filter(None, (key, document.incident if document else None)))


def answered_slugs(reply: Reply) -> tuple[Found, bool]:
    """What an ``/incident`` reply found: the incident it shows (its footer ends with the slug), or the
    did-you-mean candidates; and whether it answered outright."""
    if not reply.ephemeral and reply.embeds:
        footer = str(reply.embeds[0].get("footer", {}).get("text", ""))
        return [frozenset({footer.rpartition(" · ")[2]})], True
    return [frozenset({b.argument}) for b in reply.buttons if b.action == Action.INCIDENT], False


def _ask(library: Library, query: Query) -> object:
    """The call a query times: what the command runs in the core."""
    if query.command == "incident":
        return library.answer("incident", query.query, guild_id=None)
    if query.command == "complete":
        return library.complete(query.topic, query.query, guild_id=None)
    return library.search(query.query, guild_id=None)


def _found(library: Library, answer: object) -> tuple[Found, bool]:
    if isinstance(answer, Reply):
        return answered_slugs(answer)
    if isinstance(answer, list):
        keys = [item.argument if isinstance(item, Choice) else item[1] for item in answer]
        return [_keys(library, key) for key in keys], False
    return [], False  # a polite refusal (a filter that means nothing): found nothing


def _ours(library: Library, query: Query) -> Outcome:
    started = time.perf_counter()
    try:
        answer = _ask(library, query)
    except ParlbotError:
        answer = None
    ms = (time.perf_counter() - started) * 1000
    found, answered = _found(library, answer)
    return Outcome(query, ms, found, answered)


def run_ours(library: Library, queries: Sequence[Query]) -> Run:
    return Run([_ours(library, query) for query in queries])


# --- the naive baseline --------------------------------------------------------------------------


def kinds_of(query: Query) -> tuple[DocumentKind, ...]:
    """The kinds of document the command looks at, as ``Library`` reads its topic."""
    if query.command == "incident":
        return TOPICS["incident"].kinds
    if query.command == "search":
        return SEARCH_KINDS
    topic = query.topic
    return TOPICS[topic].kinds if topic in TOPICS else COMPLETE_ONLY.get(topic, SEARCH_KINDS)


class Baseline:
    """Every searchable string of the documents, folded once; a WRatio scan over them per query."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self.documents = [doc for doc in documents if not doc.removed]
        self._strings: dict[frozenset[DocumentKind], tuple[list[str], list[Document]]] = {}

    def strings(self, kinds: Sequence[DocumentKind]) -> tuple[list[str], list[Document]]:
        key = frozenset(kinds)
        if key not in self._strings:
            strings: list[str] = []
            owners: list[Document] = []
            for doc in self.documents:
                if doc.kind in key:
                    texts = {fold(t) for t in (doc.label, *doc.exact, *(f.text for f in doc.fields))}
                    texts.discard("")
                    strings.extend(texts)
                    owners.extend([doc] * len(texts))
            self._strings[key] = (strings, owners)
        return self._strings[key]

    def sizes(self) -> dict[str, int]:
        """How many strings each scan runs over, by the kinds it looks at ("incident,person": 1234)."""
        return {",".join(sorted(kinds)): len(strings) for kinds, (strings, _) in self._strings.items()}

    def run(self, query: Query) -> Outcome:
        strings, owners = self.strings(kinds_of(query))
        started = time.perf_counter()
        hits = process.extract(
            fold(query.query), strings, scorer=fuzz.WRatio, limit=BASELINE_LIMIT, processor=None
        )
        documents = list(dict.fromkeys(owners[index] for _, _, index in hits))
        ms = (time.perf_counter() - started) * 1000
        return Outcome(query, ms, [frozenset(filter(None, (doc.key, doc.incident))) for doc in documents])


def sample(queries: Sequence[Query], size: int | None) -> list[int]:
    """The positions of the queries the baseline runs: all, or ``size`` drawn with a fixed seed."""
    if size is None or size >= len(queries):
        return list(range(len(queries)))
    drawn = random.Random(BASELINE_SAMPLE_SEED)  # noqa: S311  (a reproducible sample, not a secret)
    return sorted(drawn.sample(range(len(queries)), size))


# --- the report ----------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    model = None
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        model = next(
            (line.split(":", 1)[1].strip() for line in cpuinfo.splitlines() if "model name" in line), None
        )
    except OSError:
        pass
    return {
        "cores": os.cpu_count(),
        "cpu": model or platform.processor() or None,
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def by_style(run: Run) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in run.outcomes:
        groups[f"{outcome.query.command}/{outcome.query.style or '-'}"].append(outcome)
    return {
        name: {
            "queries": len(group),
            "scored": sum(o.query.expect is not None for o in group),
            "recall_at_1": run.recall(1, group),
            "recall_at_5": run.recall(5, group),
        }
        for name, group in sorted(groups.items())
    }


def _latencies(run: Run) -> dict[str, Any]:
    return {
        "complete_ms": run.latency("complete"),
        "resolve_ms": run.latency("incident"),
        "search_ms": run.latency("search"),
        "recall_at_1": run.recall(1),
        "recall_at_5": run.recall(5),
    }


def report(
    *,
    documents: int,
    import_s: float | None,
    started: dict[str, Any],
    restarted: dict[str, Any],
    ours: Run,
    baseline: Run,
    total: int,
) -> dict[str, Any]:
    """The figures, as ``--json`` prints them."""
    nonsense = [o for o in ours.outcomes if o.query.command == "incident" and o.query.expect is None]
    positions = _positions(baseline, ours)
    sampled = [outcome for n, outcome in enumerate(ours.outcomes) if n in positions]
    ratio = None
    ours_p99, naive_p99 = ours.latency("complete")["p99"], baseline.latency("complete")["p99"]
    if ours_p99 and naive_p99:
        ratio = round(naive_p99 / ours_p99, 1)
    counts = defaultdict(int, {"total": total})
    for outcome in ours.outcomes:
        counts[outcome.query.command] += 1
    counts["scored"] = sum(o.query.expect is not None for o in ours.outcomes)
    return {
        "documents": documents,
        "import_s": None if import_s is None else round(import_s, 2),
        "cold_start_s": round(started["cold_start_s"], 3),
        "process_start_s": round(started["process_s"], 3),
        "rss_mb": _rounded(started["rss_mb"]),
        "snapshot_start_s": round(restarted["cold_start_s"], 3),
        "snapshot_rss_mb": _rounded(restarted["rss_mb"]),
        "snapshot_loaded": restarted["from_snapshot"],
        **_latencies(ours),
        "unexpected_answers": {"queries": len(nonsense), "answered": sum(o.answered for o in nonsense)},
        "baseline": {
            **_latencies(baseline),
            "queries": len(baseline.outcomes),
            "sampled": len(baseline.outcomes) < total,
            "ours_recall_at_1": ours.recall(1, sampled),
            "ours_recall_at_5": ours.recall(5, sampled),
        },
        "speedup": ratio,
        "queries": dict(counts),
        "by_style": by_style(ours),
        "machine": machine(),
        "in_process_rss_mb": _rounded(rss_mb()),
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _positions(baseline: Run, ours: Run) -> set[int]:
    """Where the baseline's queries sit in the full run (the same query objects, in order)."""
    ids = {id(o.query) for o in baseline.outcomes}
    return {n for n, o in enumerate(ours.outcomes) if id(o.query) in ids}


def benchmark(
    dataset: Path,
    queries: Sequence[Query],
    *,
    database: str | None,
    baseline_queries: int | None,
    stage: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Import, cold start, our run and the baseline's; the report ``--json`` prints. ``stage`` hears
    what is starting ("importing ..."), for a long run."""
    with database_url(database) as url, tempfile.TemporaryDirectory(prefix="parlbot-bench-") as folder:
        stage(f"importing {dataset}")
        import_s = import_dataset(url, dataset)
        stage("cold start in a fresh process")
        started = cold_start(url)
        stage("opening the library, saving its index")
        snapshot = Path(folder) / "index.snapshot"
        library = Library.open(url, seed=False, snapshot=snapshot)
        try:
            stage(f"running {len(queries):,} queries")
            ours = run_ours(library, queries)
            positions = sample(queries, baseline_queries)
            stage(f"running the naive baseline on {len(positions):,} queries")
            with library.database.session() as session:  # with their texts, which the index holds folded
                naive = Baseline(load_documents(session, guild_id=SHARED_GUILD))
            baseline = Run([naive.run(queries[n]) for n in positions])
            strings = naive.sizes()
            documents = len(library.index)
        finally:
            library.close()
        stage("cold start in a fresh process, from the saved index")
        restarted = cold_start(url, snapshot)
    figures = report(
        documents=documents,
        import_s=import_s,
        started=started,
        restarted=restarted,
        ours=ours,
        baseline=baseline,
        total=len(queries),
    )
    figures["baseline"]["strings"] = strings
    return figures
