"""A guild's settings for classes: who teaches, whether lookups answer privately (per guild and per
channel), and the language for members whose Discord locale parlbot does not speak.

``GuildSettings`` is one guild's settings read at once, cheap to keep in memory (``bot.library``
caches it per guild and drops it on every write here). Functions take the session keyword-only and
never commit.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from sqlmodel import Session, col, select

from bot.curation.changes import Actor
from db.models import ChannelConfig, GuildConfig

LANGUAGES = ("en", "fr")


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """One guild's settings; without a ``GuildConfig`` row, every default."""

    moderator_role_id: int | None = None
    teacher_role_id: int | None = None  # None: the moderators teach
    ephemeral: bool = False
    language: str | None = None  # one of LANGUAGES, or None (English)
    channels: Mapping[int, bool] = field(default_factory=lambda: MappingProxyType({}))  # channel → ephemeral

    def replies_private(self, channel_id: int | None) -> bool:
        """Whether lookups answer privately in ``channel_id``: the channel's own setting, else the guild's."""
        if channel_id is not None and channel_id in self.channels:
            return self.channels[channel_id]
        return self.ephemeral


def _settings(config: GuildConfig | None, channels: Iterable[ChannelConfig]) -> GuildSettings:
    own = MappingProxyType({row.channel_id: row.ephemeral for row in channels})
    if config is None:
        return GuildSettings(channels=own)
    return GuildSettings(
        moderator_role_id=config.moderator_role_id,
        teacher_role_id=config.teacher_role_id,
        ephemeral=config.ephemeral,
        language=config.language,
        channels=own,
    )


def guild_settings(session: Session, *, guild_id: int) -> GuildSettings:
    """One guild's settings."""
    rows = session.exec(select(ChannelConfig).where(col(ChannelConfig.guild_id) == guild_id))
    return _settings(session.get(GuildConfig, guild_id), rows)


def every_guild(session: Session) -> dict[int, GuildSettings]:
    """The settings of every guild that has any (a guild left out has the defaults)."""
    configs = {config.guild_id: config for config in session.exec(select(GuildConfig))}
    channels: dict[int, list[ChannelConfig]] = defaultdict(list)
    for row in session.exec(select(ChannelConfig)):
        channels[row.guild_id].append(row)
    return {
        guild: _settings(configs.get(guild), channels[guild]) for guild in configs.keys() | channels.keys()
    }


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _config(session: Session, actor: Actor) -> GuildConfig:
    """The guild's config row (created with every default), marked as changed by ``actor``."""
    config = session.get(GuildConfig, actor.guild_id)
    if config is None:
        config = GuildConfig(guild_id=actor.guild_id, updated_by=actor.user_id, updated_at=_now())
        session.add(config)
    config.updated_by = actor.user_id
    config.updated_at = _now()
    return config


def set_teacher_role(session: Session, *, actor: Actor, role_id: int | None) -> None:
    """Name the guild's teacher role (None: its moderators teach)."""
    _config(session, actor).teacher_role_id = role_id
    session.flush()


def set_language(session: Session, *, actor: Actor, language: str | None) -> None:
    """The guild's reply language for members whose locale is neither English nor French (None: English)."""
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"parlbot speaks {', '.join(LANGUAGES)}, not {language!r}")
    _config(session, actor).language = language
    session.flush()


def set_ephemeral(session: Session, *, actor: Actor, channel_id: int | None, private: bool | None) -> None:
    """Whether lookups answer privately: in the guild (``channel_id`` None), or in one channel, where
    ``private`` None removes the channel's own setting so that it follows the guild's again."""
    if channel_id is None:
        if private is None:
            raise ValueError("a guild's setting is on or off")
        _config(session, actor).ephemeral = private
    else:
        row = session.get(ChannelConfig, (actor.guild_id, channel_id))
        if private is None:
            if row is not None:
                session.delete(row)
        elif row is None:
            session.add(
                ChannelConfig(
                    guild_id=actor.guild_id,
                    channel_id=channel_id,
                    ephemeral=private,
                    updated_by=actor.user_id,
                    updated_at=_now(),
                )
            )
        else:
            row.ephemeral, row.updated_by, row.updated_at = private, actor.user_id, _now()
    session.flush()
