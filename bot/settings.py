"""Settings read once from the environment (and a ``.env`` file) and passed down explicitly."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE_PATH = Path("parlbot.sqlite3")


def default_database_url() -> str:
    return f"sqlite:///{DEFAULT_DATABASE_PATH}"


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str
    discord_token: str | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    sync_commands: bool = False
    sync_guild_id: int | None = None
    log_level: str = "INFO"

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
    ) -> Settings:
        """Read settings; the process environment wins over ``env_file``."""
        values: dict[str, str] = {}
        if env_file is not None and env_file.is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        guild = values.get("SYNC_GUILD_ID", "").strip()
        return cls(
            database_url=values.get("DATABASE_URL", "").strip() or default_database_url(),
            discord_token=values.get("DISCORD_TOKEN", "").strip() or None,
            api_base=values.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=values.get("DISCORD_GATEWAY_URL", "").strip() or None,
            sync_commands=_flag(values.get("SYNC_COMMANDS")),
            sync_guild_id=int(guild) if guild else None,
            log_level=values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
        )
