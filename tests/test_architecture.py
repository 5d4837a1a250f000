"""The rooms of docs/ARCHITECTURE.md hold, checked on every module found by walking the packages.

- ``db`` knows neither ``bot`` nor ``cogs`` nor Discord.
- The core (``bot``'s Discord-free subpackages and top-level modules) imports no Discord and no cog.
- Cogs hold no SQL: they import neither ``db`` nor SQLAlchemy/SQLModel, and reach the data through
  ``bot.library.Library`` only.
- No import circle between rooms: a room is a subpackage (``bot.search``) or a top-level module of a
  package (``bot.library``); the graph of imports between rooms has no cycle.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.client.bot import EXTENSIONS

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "db")
DISCORD_SIDE = ("bot.client", "bot.loopback", "bot.cli", "cogs")
SQL = ("db", "sqlalchemy", "sqlmodel", "alembic")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> Iterator[str]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield module_name(path)


def path_of(module: str) -> Path:
    base = ROOT.joinpath(*module.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def imported_modules(module: str) -> set[str]:
    """Every module ``module`` imports, by absolute name (``from bot.curation import forms`` included)."""
    tree = ast.parse(path_of(module).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if not _is_attribute(name)}


def _is_attribute(name: str) -> bool:
    """``bot.curation.values.FORMS`` is a name from a module, not a module."""
    parent, _, _ = name.rpartition(".")
    return parent.split(".")[0] in PACKAGES and path_of(parent).is_file() and not path_of(name).exists()


def within(name: str, rooms: tuple[str, ...]) -> bool:
    return any(name == room or name.startswith(f"{room}.") for room in rooms)


def room_of(module: str) -> str:
    """``bot.search.index`` → ``bot.search``; ``bot.library`` stays; ``cogs.lookup`` → ``cogs``."""
    parts = module.split(".")
    if parts[0] == "cogs":
        return "cogs"
    if len(parts) >= 3:
        return ".".join(parts[:2])
    return module


MODULES = sorted(modules())
CORE = [m for m in MODULES if not within(m, DISCORD_SIDE)]
COGS = [m for m in MODULES if within(m, ("cogs",))]


def test_the_walk_finds_every_room() -> None:
    rooms = {room_of(module) for module in MODULES}
    assert {"bot.search", "bot.answers", "bot.curation", "bot.client", "bot.loopback", "db.dataset"} <= rooms
    assert "bot.library" in CORE
    assert "bot.search.index" in CORE
    assert "bot.client.bot" not in CORE


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_discord_and_no_cog(module: str) -> None:
    imports = imported_modules(module)
    assert not {name for name in imports if within(name, ("discord", "cogs", *DISCORD_SIDE))}


@pytest.mark.parametrize("module", [m for m in MODULES if within(m, ("db",))])
def test_db_module_knows_nothing_of_the_bot(module: str) -> None:
    assert not {name for name in imported_modules(module) if within(name, ("bot", "cogs"))}


@pytest.mark.parametrize("module", COGS)
def test_cog_holds_no_sql(module: str) -> None:
    assert not {name for name in imported_modules(module) if within(name, SQL)}


def room_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {room_of(module): set() for module in MODULES}
    for module in MODULES:
        for name in imported_modules(module):
            if within(name, PACKAGES) and room_of(name) != room_of(module) and room_of(name) in graph:
                graph[room_of(module)].add(room_of(name))
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as the rooms along it, or None."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(room: str) -> list[str] | None:
        state[room] = "open"
        path.append(room)
        for target in sorted(graph[room]):
            if state.get(target) == "open":
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        state[room] = "done"
        path.pop()
        return None

    for room in sorted(graph):
        if room not in state and (found := visit(room)):
            return found
    return None


def test_no_import_circle_between_rooms() -> None:
    assert cycle_in(room_graph()) is None


def test_the_circle_check_finds_a_circle() -> None:
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_every_extension_has_a_setup_function(extension: str) -> None:
    module = importlib.import_module(extension)
    assert callable(getattr(module, "setup", None))


def test_the_command_line_starts_without_the_postgres_extra() -> None:
    """`pip install -e .` has no psycopg: only a PostgreSQL database may need it, and then at use."""
    hide_psycopg = "import sys; sys.modules['psycopg'] = None; import bot.cli; print('started')"
    done = subprocess.run([sys.executable, "-c", hide_psycopg], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "started", done.stderr
