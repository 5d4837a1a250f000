"""Settings read once from the environment (and a ``.env`` file) and passed down explicitly."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Final

from dotenv import dotenv_values
from platformdirs import user_cache_path, user_data_path
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
OVERLAY_IDLE_SECONDS = 3600.0  # a guild's own entries leave the search index after this long unasked about
STOP_GRACE_SECONDS = 10.0  # how long a stopping `parlbot run` lets the interactions in flight finish


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``uses`` uses in ``seconds`` (counted from the first of them)."""

    uses: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Limit:
    """How often one member (``user``), and everyone in one channel together (``channel``), may run a
    command; None: no limit of that kind."""

    user: Rate | None
    channel: Rate | None = None


# Rates a person never meets and a flood does. Lookups post in public (unless /config ephemeral says
# otherwise), so each command is limited per member and per channel; /search ranks every entry on the
# event loop; /import and /export move a whole server's entries.
LOOKUP_LIMIT: Final = Limit(user=Rate(5, 10.0), channel=Rate(15, 10.0))
FILE_LIMIT: Final = Limit(user=Rate(1, 30.0))
COOLDOWNS: Final[Mapping[str, Limit]] = MappingProxyType(
    {
        **dict.fromkeys(
            (
                "incident",
                "who-objected",
                "quote",
                "ruling",
                "person",
                "explain",
                "lesson",
                "random",
                "on-this-day",
                "timeline",
                "collection show",
                "quiz start",
                "quiz next",
                "quiz stop",
                "quiz scores",
                "search",
            ),
            LOOKUP_LIMIT,
        ),
        "import": FILE_LIMIT,
        "export": FILE_LIMIT,
    }
)
"""The cooldowns, by command (its qualified name): the one table of them (README, "Cooldowns")."""


class SettingsError(ValueError):
    """A setting whose value is not allowed; the message names the variable, the value and the choices."""


def default_database_path() -> Path:
    """Where the embedded database lives: the user's data folder (``~/.local/share/parlbot`` on Linux),
    whatever the working directory."""
    return user_data_path("parlbot") / "parlbot.sqlite3"


def default_database_url() -> str:
    return f"sqlite:///{default_database_path()}"


def default_snapshot_path(database_url: str) -> Path | None:
    """Where the search index of the database at ``database_url`` is saved between runs: the user's
    cache folder (``~/.cache/parlbot`` on Linux), one file per database; None for an in-memory one."""
    try:
        url = make_url(database_url)
    except ArgumentError:  # not a URL: opening the database says so
        return None
    if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
        return None
    digest = hashlib.sha256(url.render_as_string(hide_password=True).encode()).hexdigest()[:16]
    return user_cache_path("parlbot") / f"index-{digest}.snapshot"


def _snapshot(value: str | None, database_url: str) -> Path | None:
    text = (value or "").strip()
    if not text:
        return default_snapshot_path(database_url)
    if text.lower() in FALSE_WORDS:
        return None
    return Path(text).expanduser()


def _flag(name: str, value: str | None, *, default: bool = False) -> bool:
    word = (value or "").strip().lower()
    if not word:
        return default
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    allowed = "/".join(TRUE_WORDS + FALSE_WORDS)
    raise SettingsError(f"{name}={value!r} is not a yes or no; use one of {allowed} (or leave it empty).")


def _snowflake(name: str, value: str | None) -> int | None:
    text = (value or "").strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or int(text) == 0:
        raise SettingsError(f"{name}={value!r} is not a Discord id; use its digits (or leave it empty).")
    return int(text)


def _log_level(name: str, value: str | None) -> str:
    level = (value or "").strip().upper() or "INFO"
    if level == "WARN":
        return "WARNING"
    if level not in LOG_LEVELS:
        raise SettingsError(f"{name}={value!r} is not a logging level; use one of {', '.join(LOG_LEVELS)}.")
    return level


def _count(name: str, value: str | None) -> int | None:
    text = (value or "").strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or int(text) == 0:
        raise SettingsError(f"{name}={value!r} is not a number of shards; use a whole number from 1 up.")
    return int(text)


def _shard_ids(value: str | None, count: int | None) -> tuple[int, ...] | None:
    """``SHARD_IDS``: a comma list of distinct shard numbers, each below ``SHARD_COUNT`` (which it needs)."""
    text = (value or "").strip()
    if not text:
        return None
    if count is None:
        raise SettingsError(f"SHARD_IDS={value!r} needs SHARD_COUNT, the number of shards in all.")
    words = [word.strip() for word in text.split(",")]
    if not all(word.isascii() and word.isdigit() for word in words):
        raise SettingsError(f"SHARD_IDS={value!r} is not a comma list of shard numbers, such as 0,2.")
    ids = tuple(int(word) for word in words)
    if len(set(ids)) != len(ids) or any(shard >= count for shard in ids):
        raise SettingsError(
            f"SHARD_IDS={value!r} must name distinct shards from 0 to {count - 1} (SHARD_COUNT={count})."
        )
    return ids


def _seconds(name: str, value: str | None, default: float) -> float:
    text = (value or "").strip()
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds > 0 or seconds == float("inf"):
        raise SettingsError(f"{name}={value!r} is not a number of seconds; use a number above 0.")
    return seconds


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str
    discord_token: str | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    sync_commands: bool = False
    sync_guild_id: int | None = None
    log_level: str = "INFO"
    shard_count: int | None = None  # None: one connection, no sharding
    shard_ids: tuple[int, ...] | None = None  # this process's shards; None: all of ``shard_count``
    overlay_idle_seconds: float = OVERLAY_IDLE_SECONDS
    stop_grace_seconds: float = STOP_GRACE_SECONDS
    index_snapshot: Path | None = None  # where the search index is saved between runs; None: nowhere
    cooldowns: Mapping[str, Limit] = field(default_factory=lambda: COOLDOWNS)  # by command; {}: none

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
    ) -> Settings:
        """Read settings; the process environment wins over ``env_file``.

        Raises ``SettingsError`` (one sentence naming the variable, its value and what is allowed) for
        a ``SYNC_COMMANDS`` that is not a yes or no, a ``SYNC_GUILD_ID`` that is not an id, an
        unknown ``LOG_LEVEL``, a ``SHARD_COUNT`` that is not a whole number from 1, ``SHARD_IDS`` that are
        not distinct numbers below ``SHARD_COUNT`` (or without it), an ``OVERLAY_IDLE_SECONDS`` or
        ``STOP_GRACE_SECONDS`` that is not a positive number, or a ``COOLDOWNS`` that is not a yes or
        no (empty: yes, ``COOLDOWNS``).
        """
        values: dict[str, str] = {}
        if env_file is not None and env_file.is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        shard_count = _count("SHARD_COUNT", values.get("SHARD_COUNT"))
        database_url = values.get("DATABASE_URL", "").strip() or default_database_url()
        return cls(
            database_url=database_url,
            discord_token=values.get("DISCORD_TOKEN", "").strip() or None,
            api_base=values.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=values.get("DISCORD_GATEWAY_URL", "").strip() or None,
            sync_commands=_flag("SYNC_COMMANDS", values.get("SYNC_COMMANDS")),
            sync_guild_id=_snowflake("SYNC_GUILD_ID", values.get("SYNC_GUILD_ID")),
            log_level=_log_level("LOG_LEVEL", values.get("LOG_LEVEL")),
            shard_count=shard_count,
            shard_ids=_shard_ids(values.get("SHARD_IDS"), shard_count),
            overlay_idle_seconds=_seconds(
                "OVERLAY_IDLE_SECONDS", values.get("OVERLAY_IDLE_SECONDS"), OVERLAY_IDLE_SECONDS
            ),
            stop_grace_seconds=_seconds(
                "STOP_GRACE_SECONDS", values.get("STOP_GRACE_SECONDS"), STOP_GRACE_SECONDS
            ),
            index_snapshot=_snapshot(values.get("INDEX_SNAPSHOT"), database_url),
            cooldowns=COOLDOWNS if _flag("COOLDOWNS", values.get("COOLDOWNS"), default=True) else {},
        )
