"""The rooms of docs/ARCHITECTURE.md hold: the core knows no Discord, and every extension loads."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from cogs import EXTENSIONS

ROOT = Path(__file__).resolve().parents[1]
CORE = [
    *sorted((ROOT / "db").glob("*.py")),
    *(
        ROOT / "bot" / f"{name}.py"
        for name in (
            "settings",
            "errors",
            "text",
            "search",
            "documents",
            "queries",
            "render",
            "limits",
            "library",
            "curation",
            "entries",
            "forms",
            "transfer",
            "render_curation",
            "render_review",
            "render_transfer",
        )
    ),
]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", CORE, ids=lambda path: str(path.relative_to(ROOT)))
def test_core_module_does_not_import_discord(path: Path) -> None:
    assert path.is_file()
    discord_imports = {name for name in imported_modules(path) if name.split(".")[0] == "discord"}
    assert not discord_imports
    assert not any(name.startswith("cogs") for name in imported_modules(path))


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_every_extension_has_a_setup_function(extension: str) -> None:
    module = importlib.import_module(extension)
    assert callable(getattr(module, "setup", None))
