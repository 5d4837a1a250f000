"""Command lines through ``parlbot ask`` and ``parlbot complete``: both read a value the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.cli import main
from tests.cli_harness import with_test_cogs


class Heard(commands.Cog):
    """``/heard``: says back the query it was given, as a reply and as its one autocomplete choice."""

    @app_commands.command(description="Say back the query as the bot received it")
    async def heard(self, interaction: discord.Interaction[Any], query: str, year: int | None = None) -> None:
        await interaction.response.send_message(f"heard query={query!r} year={year!r}")

    @heard.autocomplete("query")
    async def heard_query(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"heard {current!r}", value=current or "-")]


LINES = [
    ("/heard query:i will", "i will"),
    ("/heard query:i will not", "i will not"),
    ("/heard query:can't we act", "can't we act"),
    ("/heard query:o'toole", "o'toole"),
    ('/heard query:"Speaker\'s ruling"', "Speaker's ruling"),
    ("/heard query:'Speaker's ruling'", "Speaker's ruling"),
    ("/heard singh 2020", "singh 2020"),
]


@pytest.mark.parametrize(("line", "query"), LINES)
def test_ask_and_complete_give_the_bot_the_same_value(
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    line: str,
    query: str,
) -> None:
    with_test_cogs(monkeypatch, Heard)

    asked = main(["ask", line])
    answer = capsys.readouterr().out
    completed = main(["complete", line])
    choices = capsys.readouterr().out

    assert (asked, completed) == (0, 0)
    assert f"heard query={query!r} year=None" in answer
    assert choices.splitlines()[0].startswith(f"heard {query!r} -> ")


def test_ask_finds_a_quote_with_an_apostrophe_in_the_query(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["ask", "/quote query:can't we act"])

    assert code == 0
    assert "can't we act" in capsys.readouterr().out


@pytest.mark.parametrize(
    "arguments",
    [
        ["complete", "/quote query:i will"],
        ["complete", "/person query:o'toole"],
        ["ask", '/search query:"Speaker\'s ruling"'],
    ],
)
def test_the_real_commands_take_words_and_apostrophes(
    workdir: Path, capsys: pytest.CaptureFixture[str], arguments: list[str]
) -> None:
    code = main(arguments)

    assert code == 0
    assert "error" not in capsys.readouterr().err
