"""``parlbot bench corpus`` and ``parlbot bench search``, through ``bot.cli.main`` on small corpora.

No timed assertions: speed is what the benchmark prints (docs/benchmarks.md), not what tests check.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench import query_tail
from bot.benchmark.measure import Outcome
from bot.benchmark.queries import Query, read_queries
from bot.benchmark.table import table
from bot.cli import main
from bot.library import Library
from db.dataset.files import read_dataset

INCIDENTS = 30
LATENCY_KEYS = ("complete_ms", "resolve_ms", "search_ms")


def corpus(folder: Path, *, incidents: int = INCIDENTS, seed: int = 7) -> Path:
    assert main(["bench", "corpus", "--incidents", str(incidents), "--seed", str(seed), str(folder)]) == 0
    return folder


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 30-incident corpus, written once for the module."""
    return corpus(tmp_path_factory.mktemp("corpus"))


def search_json(capsys: pytest.CaptureFixture[str], folder: Path, *extra: str) -> dict[str, object]:
    dataset, queries = str(folder / "dataset.json"), str(folder / "queries.jsonl")
    code = main(["bench", "search", "--dataset", dataset, "--queries", queries, "--json", *extra])
    out = capsys.readouterr().out
    assert code == 0
    report: dict[str, object] = json.loads(out)
    return report


def test_the_same_seed_writes_the_same_files_and_another_seed_others(tmp_path: Path) -> None:
    first, again, other = corpus(tmp_path / "a"), corpus(tmp_path / "b"), corpus(tmp_path / "c", seed=8)

    for name in ("dataset.json", "queries.jsonl"):
        assert (first / name).read_bytes() == (again / name).read_bytes()
        assert (first / name).read_bytes() != (other / name).read_bytes()


def test_the_dataset_passes_db_check(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["db", "check", str(small / "dataset.json")])

    assert code == 0
    assert "holds" in capsys.readouterr().out


def test_the_dataset_imports_through_db_import(
    small: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{workdir / 'fresh.sqlite3'}")

    code = main(["db", "import", str(small / "dataset.json")])

    assert code == 0
    assert "Imported into the shared dataset" in capsys.readouterr().out


def test_each_incident_has_two_people_two_quotes_a_ruling_a_motion_and_a_source(small: Path) -> None:
    dataset = read_dataset(small / "dataset.json")

    assert len(dataset.incidents) == INCIDENTS
    for incident in dataset.incidents:
        assert len(incident.participants) == 2
        assert len(incident.quotes) == 2
        assert len(incident.rulings) == 1
        assert len(incident.motions) == 1
        assert incident.sources
    assert 20 <= len(dataset.chambers) <= 40
    assert len(dataset.parties) >= 200


def test_people_recur_and_names_keep_their_accents(tmp_path: Path) -> None:
    dataset = read_dataset(corpus(tmp_path, incidents=300) / "dataset.json")

    appearances = Counter(p.person for incident in dataset.incidents for p in incident.participants)
    assert max(appearances.values()) >= 3
    accented = [person.name for person in dataset.people if not person.name.isascii()]
    assert len(accented) >= len(dataset.people) // 4


def test_queries_cover_every_command_and_style_and_expect_entries_that_exist(small: Path) -> None:
    dataset = read_dataset(small / "dataset.json")
    queries = read_queries(small / "queries.jsonl")
    keys = {i.slug for i in dataset.incidents} | {p.slug for p in dataset.people}

    assert {q.command for q in queries} == {"incident", "complete", "search"}
    styles = {q.style for q in queries}
    assert styles >= {"prefix", "typo", "reordered", "dropped", "accents", "question", "name", "nonsense"}
    assert {q.expect for q in queries if q.expect is not None} <= keys
    assert all(q.expect is None for q in queries if q.style == "nonsense")


def test_keystroke_prefixes_grow_a_letter_at_a_time(small: Path) -> None:
    prefixes = [q.query for q in read_queries(small / "queries.jsonl") if q.style == "prefix"]

    assert prefixes[0] == prefixes[1][:1]
    assert prefixes[1] == prefixes[2][:2]


def test_bench_search_json_prints_the_documented_figures(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = search_json(capsys, small, "--baseline-queries", "40")

    assert isinstance(report["documents"], int)
    assert report["documents"] > INCIDENTS * 5
    for key in ("import_s", "cold_start_s", "rss_mb", "snapshot_start_s", "snapshot_rss_mb"):
        assert isinstance(report[key], float)
        assert report[key] > 0
    baseline = report["baseline"]
    assert isinstance(baseline, dict)
    for figures in (report, baseline):
        for key in LATENCY_KEYS:
            latency = figures[key]
            assert latency["p50"] <= latency["p99"]
        assert 0.0 <= figures["recall_at_1"] <= figures["recall_at_5"] <= 1.0
    assert report["recall_at_5"] >= 0.8
    assert baseline["queries"] == 40
    assert all(count > 0 for count in baseline["strings"].values())
    assert baseline["sampled"] is True
    assert isinstance(report["speedup"], float)
    assert report["unexpected_answers"]["queries"] >= 1
    assert report["machine"]["cores"] >= 1


def test_the_restart_loads_the_index_the_benchmark_saved_instead_of_building_it(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = search_json(capsys, small, "--baseline-queries", "5")

    assert report["snapshot_loaded"] is True
    assert "refused" not in table(report)


def test_a_restart_that_built_its_index_says_so_in_the_table(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = search_json(capsys, small, "--baseline-queries", "5")

    shown = table({**report, "snapshot_loaded": False})

    line = next(line for line in shown.splitlines() if line.startswith("cold start from a snapshot"))
    assert line.endswith(" s (refused: built)")


def test_bench_search_on_a_database_holding_the_dataset_skips_the_import(
    small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'bench.sqlite3'}"
    first = search_json(capsys, small, "--database", url, "--baseline-queries", "5")

    again = search_json(capsys, small, "--database", url, "--baseline-queries", "5")

    assert isinstance(first["import_s"], float)
    assert again["import_s"] is None
    assert again["documents"] == first["documents"]


def test_bench_search_prints_an_aligned_table(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dataset, queries = str(small / "dataset.json"), str(small / "queries.jsonl")

    code = main(["bench", "search", "--dataset", dataset, "--queries", queries, "--baseline-queries", "5"])

    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[0].split() == [
        "ours",
        "naive",
        "WRatio",
        "(5",
        "of",
        f"{len(read_queries(Path(queries))):,}",
        "queries)",
    ]
    assert any(line.startswith("recall@5 ") for line in lines)
    assert any(line.startswith("complete/prefix ") for line in lines)


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("{not json", ":2: not JSON"),
        ('{"command": "lookup", "query": "x", "expect": null}', ":2: command must be one of"),
        (
            '{"command": "complete", "query": "x", "expect": null, "topic": "mood"}',
            ":2: topic must be one of",
        ),
        ('{"command": "search", "expect": "x"}', ":2: 'query' must be a string"),
    ],
)
def test_a_bad_query_line_is_a_one_line_usage_error(
    small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, problem: str
) -> None:
    queries = tmp_path / "queries.jsonl"
    queries.write_text(
        '{"command": "search", "query": "mace", "expect": null}\n' + line + "\n", encoding="utf-8"
    )

    code = main(["bench", "search", "--dataset", str(small / "dataset.json"), "--queries", str(queries)])

    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("parlbot: error: ")
    assert problem in err
    assert len(err.splitlines()) == 1


def test_a_missing_dataset_is_a_one_line_usage_error(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "search", "--dataset", "nowhere.json", "--queries", str(small / "queries.jsonl")])

    err = capsys.readouterr().err
    assert code == 2
    assert err == "parlbot: error: cannot read nowhere.json: no such file\n"


def test_a_dataset_that_is_not_json_is_refused_in_one_line(
    small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")

    code = main(["bench", "search", "--dataset", str(broken), "--queries", str(small / "queries.jsonl")])

    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("parlbot: error: ")
    assert len(err.splitlines()) == 1


def test_query_tail_lists_no_query_when_asked_for_none() -> None:
    outcomes = [
        Outcome(Query("complete", text, expect=None), ms, found=[])
        for text, ms in [("singh", 1.0), ("poilievre", 3.0), ("zzz", 2.0)]
    ]

    assert query_tail.table(outcomes, slowest=1).splitlines()[2:] == ["         3.00  'poilievre'"]
    assert query_tail.table(outcomes, slowest=0).splitlines()[1:] == [
        "complete          3      2.00      3.00      3.00      3.00"
    ]


def test_query_tail_lists_each_commands_percentiles_and_its_slowest_queries(
    small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'bench.sqlite3'}"
    search_json(capsys, small, "--database", url, "--baseline-queries", "5")  # imports the corpus there
    queries = read_queries(small / "queries.jsonl")

    code = query_tail.main(["--database", url, "--queries", str(small / "queries.jsonl"), "--slowest", "2"])

    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[0].split() == ["command", "queries", "p50", "p95", "p99", "max"]
    for command in ("incident", "complete", "search"):
        [row] = [n for n, line in enumerate(lines) if line.split()[0] == command]
        assert int(lines[row].split()[1]) == sum(query.command == command for query in queries)
        p50, p95, p99, most = map(float, lines[row].split()[2:])
        assert p50 <= p95 <= p99 <= most
        slowest = lines[row + 1 : row + 3]
        assert float(slowest[0].split()[0]) == most  # the slowest query first, its time the max
        assert {line.split(maxsplit=1)[1] for line in slowest} <= {
            repr(query.query) for query in queries if query.command == command
        }


def test_query_tail_writes_incidents_again_each_document_with_a_word_of_its_own(
    small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'bench.sqlite3'}"
    search_json(capsys, small, "--database", url, "--baseline-queries", "5")  # imports the corpus there
    library = Library.open(url, seed=False)
    try:
        held = len(library.index)
        written = query_tail.write_again(library, 2)

        edited = [library.index.search(f"edited{n}", limit=1) for n in range(written)]
        assert len(library.index) == held
        assert written > 2  # the incidents' quotes, rulings and motions with them
        assert len({hit.document.incident for [hit] in edited}) == 2
    finally:
        library.close()
