"""The Discord client: a ``commands.Bot`` whose dependencies arrive through its constructor."""

from __future__ import annotations

import logging
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.client.cooldowns import apply_cooldowns
from bot.client.translator import CatalogueTranslator
from bot.client.tree import ParlTree
from bot.library import Library
from bot.settings import Settings

log = logging.getLogger(__name__)

# The cogs the bot loads, in order, by module name (loaded by name, so the client imports no cog).
EXTENSIONS: tuple[str, ...] = (
    "cogs.common",
    "cogs.lookup",
    "cogs.search",
    "cogs.curation",
    "cogs.config",
    "cogs.classroom",
    "cogs.review",
    "cogs.transfer",
    "cogs.quiz",
    "cogs.lessons",
    "cogs.help",
)


class ParlBot(commands.Bot):
    def __init__(self, *, settings: Settings, library: Library, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=ParlTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings
        self.library = library

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        apply_cooldowns(self.tree, self.settings.cooldowns)
        if self.settings.sync_commands:
            await self.sync_commands()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Publish the command tree to Discord (globally, or to ``SYNC_GUILD_ID`` for quick testing)."""
        guild = discord.Object(self.settings.sync_guild_id) if self.settings.sync_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info("Synced %d commands%s", len(synced), f" to guild {guild.id}" if guild else "")
        return synced


class ShardedParlBot(ParlBot, commands.AutoShardedBot):
    """ParlBot on several gateway connections: the shards ``SHARD_IDS`` of ``SHARD_COUNT``."""


def create_bot(settings: Settings, library: Library) -> ParlBot:
    """The bot ``settings`` ask for: sharded when ``SHARD_COUNT`` is set, else on one connection."""
    if settings.shard_count is None:
        return ParlBot(settings=settings, library=library)
    shard_ids = list(settings.shard_ids or range(settings.shard_count))
    return ShardedParlBot(
        settings=settings, library=library, shard_count=settings.shard_count, shard_ids=shard_ids
    )


def point_at_endpoints(settings: Settings) -> None:
    """Aim discord.py's REST base and gateway at a Discord-compatible endpoint, when configured.

    discord.py reads both from class attributes, so this is process-wide by nature.
    """
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
