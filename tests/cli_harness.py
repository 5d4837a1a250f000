"""Command-line fixtures: ``bot.cli.main`` in a clean working directory on a seeded SQLite copy.

Enabled in ``tests/conftest.py`` (``pytest_plugins``). ``with_test_cogs`` makes the CLI's bot carry
test-only cogs, such as ``Whoami``, which reports the asking member as the bot sees them.
``served_in_a_thread`` runs a loopback server (``FakeDiscord``, ``FakeGateway``) on an event loop of
its own, for commands that run their own ``asyncio.run`` or run as processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot import cli
from bot.client.bot import ParlBot
from bot.library import Library
from bot.loopback.rest import FakeDiscord
from bot.settings import Settings

if TYPE_CHECKING:
    from tests.conftest import SqliteTemplate

_Server = TypeVar("_Server")

ENV_KEYS = (
    "DATABASE_URL",
    "DISCORD_TOKEN",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "SYNC_COMMANDS",
    "SYNC_GUILD_ID",
    "LOG_LEVEL",
    "INDEX_SNAPSHOT",
)


@pytest.fixture(scope="session")
def seeded_file(sqlite_template: SqliteTemplate) -> Path:
    """A migrated, seeded SQLite file, built once per session; each test works on its own copy."""
    return sqlite_template.seeded


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seeded_file: Path) -> Iterator[Path]:
    """A clean working directory (no .env) whose DATABASE_URL is a copy of the seeded database, and
    whose user data folder (where the default database goes) is ``data/`` inside it."""
    for key in ENV_KEYS:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)
    # The default database lives in the user's data folder: this test's own (XDG, as on Linux).
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # and index snapshots in its cache
    copy = tmp_path / "parlbot-test.sqlite3"
    shutil.copyfile(seeded_file, copy)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{copy}")
    # `run` and `sync` aim discord.py at configured endpoints process-wide; put them back afterwards.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    # `run` and `sync` also give the root logger a handler on this test's (soon closed) stderr.
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield tmp_path
    root.handlers[:] = handlers
    root.setLevel(level)


def run_parlbot(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``parlbot ARGS`` as a process of its own (the installed script, else ``python -m bot.cli``)."""
    script = Path(sys.executable).with_name("parlbot")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]
    return subprocess.run(
        [*command, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ},
        cwd=cwd,
        timeout=120,
        check=False,
    )


@contextlib.contextmanager
def served_in_a_thread(server: AbstractAsyncContextManager[_Server]) -> Iterator[_Server]:
    """``server`` entered and serving from its own event loop in a thread; exited at the end."""
    loop = asyncio.new_event_loop()
    serving = loop.run_until_complete(server.__aenter__())
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield serving
    finally:
        asyncio.run_coroutine_threadsafe(server.__aexit__(None, None, None), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


@pytest.fixture
def fake_discord_in_a_thread() -> Iterator[FakeDiscord]:
    """A FakeDiscord serving from its own event loop, for commands that run their own asyncio.run."""
    with served_in_a_thread(FakeDiscord()) as fake:
        yield fake


def with_test_cogs(monkeypatch: pytest.MonkeyPatch, *cogs: Callable[[], commands.Cog]) -> None:
    """Make ``bot.cli`` build ParlBots that also load these test-only cogs (new ones for each bot)."""

    class TestBot(ParlBot):
        async def setup_hook(self) -> None:
            await super().setup_hook()
            for cog in cogs:
                await self.add_cog(cog())

    def build_bot(settings: Settings, library: Library) -> ParlBot:
        return TestBot(settings=settings, library=library)

    monkeypatch.setattr(cli, "build_bot", build_bot)


class Whoami(commands.Cog):
    """``/whoami``: the asking member's id, permissions and roles, as discord.py parsed them."""

    @app_commands.command(description="Who is asking, as the bot sees them")
    async def whoami(self, interaction: discord.Interaction[Any]) -> None:
        member = interaction.user
        assert isinstance(member, discord.Member)
        roles = ",".join(str(id_) for id_ in sorted(r.id for r in member.roles if not r.is_default()))
        await interaction.response.send_message(
            f"user={member.id} permissions={interaction.permissions.value} roles={roles}"
        )
