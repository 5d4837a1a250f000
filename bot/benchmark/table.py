"""The benchmark's report as plain, aligned text (``parlbot bench search`` without ``--json``)."""

from __future__ import annotations

from typing import Any


def _number(value: float | None, unit: str = "") -> str:
    return "-" if value is None else f"{value:,.2f}{unit}"


def _latency(figures: dict[str, float | None]) -> str:
    return f"{_number(figures['p50'])} / {_number(figures['p99'])}"


def _aligned(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(width) if n == 0 else cell.rjust(width)
            for n, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def _recall(report: dict[str, Any], within: int) -> tuple[str, str, str]:
    base, key = report["baseline"], f"recall_at_{within}"
    theirs = f"{_number(base[key])} (ours on these: {_number(base['ours_' + key])})"
    return (f"recall@{within}", _number(report[key]), theirs)


def _headline(report: dict[str, Any]) -> list[tuple[str, ...]]:
    base, counted = report["baseline"], report["queries"]
    naive = "naive WRatio"
    if base["sampled"]:
        naive += f" ({base['queries']:,} of {counted['total']:,} queries)"
    ready = _number(report["process_start_s"], " s")
    imported = "skipped" if report["import_s"] is None else _number(report["import_s"], " s")
    unexpected = report["unexpected_answers"]
    restarted = _number(report["snapshot_start_s"], " s")
    if not report["snapshot_loaded"]:
        restarted += " (refused: built)"
    speedup = "-" if report["speedup"] is None else f"{report['speedup']:g}x"
    return [
        ("", "ours", naive),
        ("documents", f"{report['documents']:,}", ""),
        ("import", imported, ""),
        ("cold start (Library.open)", _number(report["cold_start_s"], " s"), ""),
        ("process start to ready", ready, ""),
        ("RSS after start", _number(report["rss_mb"], " MB"), ""),
        ("cold start from a snapshot", restarted, ""),
        ("RSS after that start", _number(report["snapshot_rss_mb"], " MB"), ""),
        *(
            (f"{name} ms p50 / p99", _latency(report[f"{name}_ms"]), _latency(base[f"{name}_ms"]))
            for name in ("complete", "resolve", "search")
        ),
        _recall(report, 1),
        _recall(report, 5),
        ("nonsense answered", f"{unexpected['answered']} of {unexpected['queries']}", ""),
        ("speedup, complete p99", speedup, ""),
    ]


def table(report: dict[str, Any]) -> str:
    """The headline figures beside the baseline's, recall by query style, and the machine."""
    styles: list[tuple[str, ...]] = [("query style", "queries", "scored", "recall@1", "recall@5")]
    styles += [
        (name, str(g["queries"]), str(g["scored"]), _number(g["recall_at_1"]), _number(g["recall_at_5"]))
        for name, g in report["by_style"].items()
    ]
    host = report["machine"]
    machine = (
        f"machine: {host['cores']} cores, {host['cpu'] or 'unknown CPU'}, "
        f"Python {host['python']}, {host['platform']}"
    )
    return "\n".join([*_aligned(_headline(report)), "", *_aligned(styles), "", machine]) + "\n"
