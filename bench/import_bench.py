"""Measure a bulk import and the cold load of documents, at the sizes given.

Run ``python bench/import_bench.py --incidents 10000 100000 [--postgres URL] [--dataset FILE]``. For
each size the dataset is tests/generated_dataset.py's, copied with numbered slugs until it holds that
many incidents (or ``--dataset``'s file, as it is), and imported into a guild through
``transfer.apply_import`` (the audited, all-or-nothing path) in a fresh SQLite database, and in
``--postgres``'s database too (its tables are dropped and migrated again first: give it a database of
its own). ``load_documents`` is then timed in a fresh process on the SQLite database, with that
process's peak RSS; building the index from the documents is left out (bench/search_bench.py).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlmodel import SQLModel  # noqa: E402

from bot.curation import transfer  # noqa: E402
from db.dataset.files import dump_dataset  # noqa: E402
from db.dataset.schema import SECTIONS  # noqa: E402
from db.session import Database  # noqa: E402
from tests.generated_dataset import generated_dataset  # noqa: E402

GUILD = 1_246_000_000_000_000_001
ACTOR = 1_246_000_000_000_000_002
PEOPLE_FIELDS = ("person", "speaker", "ruled_by", "subject", "moved_by")

LOAD = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from bot.search.documents import load_documents
from db.session import Database
database = Database({url!r})
started = time.perf_counter()
with database.session() as session:
    documents = load_documents(session)
seconds = time.perf_counter() - started
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"seconds": seconds, "documents": len(documents), "rss_mb": rss}}))
"""


def _renamed(value: Any, people: dict[str, str], sources: dict[str, str]) -> Any:
    """An incident's JSON with its references to people and sources renamed."""
    if isinstance(value, list):
        return [_renamed(item, people, sources) for item in value]
    if not isinstance(value, dict):
        return value
    renamed: dict[str, Any] = {}
    for name, item in value.items():
        if name in PEOPLE_FIELDS and isinstance(item, str):
            renamed[name] = people[item]
        elif name == "source":
            renamed[name] = sources[item]
        elif name == "sources":
            renamed[name] = [sources[key] for key in item]
        else:
            renamed[name] = _renamed(item, people, sources)
    return renamed


def scaled(incidents: int) -> dict[str, Any]:
    """The generated dataset copied (people, sources and incidents, with numbered slugs) ``incidents``
    times over, the chambers and parties once."""
    base = json.loads(dump_dataset(generated_dataset()))
    document = base | {"people": [], "sources": [], "incidents": []}
    for copy in range(math.ceil(incidents / len(base["incidents"]))):
        people = {p["slug"]: f"{p['slug']}-{copy}" for p in base["people"]}
        sources = {s["key"]: f"{s['key']}-{copy}" for s in base["sources"]}
        document["people"] += [p | {"slug": people[p["slug"]]} for p in base["people"]]
        document["sources"] += [s | {"key": sources[s["key"]]} for s in base["sources"]]
        document["incidents"] += [
            _renamed(i, people, sources) | {"slug": f"{i['slug']}-{copy}"} for i in base["incidents"]
        ]
    document["incidents"] = document["incidents"][:incidents]
    return document


def entries(document: dict[str, Any]) -> int:
    return sum(len(document.get(section, [])) for section, _ in SECTIONS)


def import_seconds(url: str, document: dict[str, Any], *, fresh: bool) -> float:
    database = Database(url)
    if fresh:
        SQLModel.metadata.drop_all(database.engine)
        with database.engine.begin() as connection:
            connection.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    database.ensure_ready()
    started = time.perf_counter()
    with database.session() as session:
        transfer.apply_import(session, document, guild_id=GUILD, actor_id=ACTOR)
        session.commit()
    seconds = time.perf_counter() - started
    database.dispose()
    return seconds


def load(url: str) -> dict[str, float]:
    script = LOAD.format(root=str(ROOT), url=url)
    output = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True)
    result: dict[str, float] = json.loads(output.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--incidents", type=int, nargs="+", default=[10_000])
    parser.add_argument("--dataset", type=Path, help="a dataset file to import instead of the copies")
    parser.add_argument("--postgres", help="a PostgreSQL URL of a database of the bench's own")
    args = parser.parse_args()
    sizes = [None] if args.dataset else args.incidents
    header = (
        "incidents",
        "entries",
        "import s (SQLite)",
        "import s (PostgreSQL)",
        "load s",
        "documents",
        "RSS MB",
    )
    print("  ".join(header))
    for size in sizes:
        document = json.loads(args.dataset.read_text()) if size is None else scaled(size)
        with tempfile.TemporaryDirectory() as directory:
            url = f"sqlite:///{directory}/bench.sqlite3"
            sqlite = import_seconds(url, document, fresh=False)
            postgres = import_seconds(args.postgres, document, fresh=True) if args.postgres else None
            loaded = load(url)
        cells = (
            len(document["incidents"]),
            entries(document),
            f"{sqlite:.1f}",
            "-" if postgres is None else f"{postgres:.1f}",
            f"{loaded['seconds']:.2f}",
            int(loaded["documents"]),
            f"{loaded['rss_mb']:.0f}",
        )
        print(
            "  ".join(str(cell).rjust(len(name)) for cell, name in zip(cells, header, strict=True)),
            flush=True,
        )


if __name__ == "__main__":
    main()
