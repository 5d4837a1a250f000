"""The cold start, measured in a process of its own: ``python -m bot.benchmark.cold_start URL [SNAPSHOT]``.

Opens the library as ``parlbot run`` does (migrations checked, documents loaded, index built, guild
settings read; no seeding) and prints one JSON line: the seconds ``Library.open`` took, the process's
resident memory afterwards (MB, from /proc/self/status; null where there is none), the documents indexed
and whether the index was loaded from the snapshot.
With ``SNAPSHOT``, the index is loaded from that file where it is current (``bot.search.snapshots``), and
built and saved there where it is not.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bot.library import Library


def rss_mb() -> float | None:
    """This process's resident set size in MB (Linux), else None."""
    try:
        status = Path("/proc/self/status").read_text(encoding="ascii")
    except OSError:
        return None
    line = next((line for line in status.splitlines() if line.startswith("VmRSS:")), None)
    return int(line.split()[1]) / 1024 if line else None


def main(argv: Sequence[str]) -> int:
    started = time.perf_counter()
    library = Library.open(argv[0], seed=False, snapshot=Path(argv[1]) if len(argv) > 1 else None)
    seconds = time.perf_counter() - started
    try:
        figures = {
            "cold_start_s": seconds,
            "rss_mb": rss_mb(),
            "documents": len(library.index),
            "from_snapshot": library.from_snapshot,
        }
        print(json.dumps(figures))
    finally:
        library.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
