"""The synced command tree is pinned: ``tests/snapshots/commands.json`` is what ``parlbot sync`` sends.

A change to any command's name, options, option order, types, descriptions, choices, limits or
permissions shows up here as a diff; when the change is meant, refresh the snapshot with
``parlbot commands --json > tests/snapshots/commands.json`` and commit it with the change.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import command_payload, main
from bot.inputs import ID_MAX
from bot.settings import Settings

SNAPSHOT = Path(__file__).parent / "snapshots" / "commands.json"
REFRESH = "parlbot commands --json > tests/snapshots/commands.json"
DIFF_LINES = 60


def readable(payload: list[dict[str, Any]]) -> str:
    """The payload as ``parlbot commands --json`` prints it."""
    return json.dumps(payload, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def differences(expected: str, actual: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), "snapshot", "tree", lineterm="", n=2
    )
    return "\n".join(list(lines)[:DIFF_LINES])


async def test_the_command_tree_is_the_snapshot() -> None:
    actual = readable(await command_payload(Settings(database_url="sqlite://")))
    expected = SNAPSHOT.read_text(encoding="utf-8")
    assert actual == expected, (
        f"The command tree differs from {SNAPSHOT.name}. If the change is meant, refresh it with "
        f"`{REFRESH}` and commit it.\n{differences(expected, actual)}"
    )


def test_the_snapshot_holds_every_command_group() -> None:
    names = [command["name"] for command in json.loads(SNAPSHOT.read_text(encoding="utf-8"))]
    assert {"add", "edit", "remove", "suggest", "suggest-edit", "history", "undo", "config"} <= set(names)
    assert len(names) == len(set(names))


def test_commands_json_prints_the_snapshot_without_a_token(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["commands", "--json"])

    assert code == 0
    assert capsys.readouterr().out == SNAPSHOT.read_text(encoding="utf-8")


def test_commands_lists_every_subcommand_with_its_description(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["commands"])

    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert "/add quote — Add a quote in an incident" in lines
    assert "/config show — parlbot's settings here: moderators, teachers, privacy, language" in lines
    assert any(line.startswith("/incident — ") for line in lines)


def options_of(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every option that takes a value, in every command, subcommand and group."""
    found: list[dict[str, Any]] = []
    for command in commands:
        for option in command.get("options") or []:
            found += options_of([option]) if option["type"] in (1, 2) else [option]
    return found


def test_every_text_option_has_a_length_and_every_number_a_range_the_database_holds() -> None:
    options = options_of(json.loads(SNAPSHOT.read_text(encoding="utf-8")))
    texts = [option for option in options if option["type"] == 3 and not option.get("choices")]
    numbers = [option for option in options if option["type"] == 4 and not option.get("choices")]

    assert [option["name"] for option in texts if "max_length" not in option] == []
    assert [option["name"] for option in numbers if option.get("min_value", 0) < 1] == []
    assert [option["name"] for option in numbers if option.get("max_value", ID_MAX + 1) > ID_MAX] == []
