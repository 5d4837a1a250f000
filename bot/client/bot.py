"""The Discord client: a ``commands.Bot`` whose dependencies arrive through its constructor."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.client.cooldowns import apply_cooldowns
from bot.client.deadline import Arrivals
from bot.client.translator import CatalogueTranslator
from bot.client.tree import ParlTree
from bot.client.workers import Workers
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

# Connections to Discord's REST API kept open and reused (discord.py's default has no limit, so a
# burst of replies would each pay a new connection, and on Discord a TLS handshake).
CONNECTIONS = 64


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
        self.workers = Workers()  # the database work of every interaction (its threads start when used)
        self._lent_loop_pool = False  # whether ``workers`` is the loop's default executor
        self.arrivals = Arrivals()  # interactions not yet acknowledged
        self.in_flight: set[asyncio.Task[Any]] = set()  # the interactions being handled

    async def login(self, token: str) -> None:
        # discord.py's own connector has no limit: a burst of replies would open a connection each.
        self.http.connector = aiohttp.TCPConnector(limit=CONNECTIONS)
        await super().login(token)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction":  # the parser hands it over: Discord's 3 s start now
            self.arrivals.note(args[0])
        super().dispatch(event_name, *args, **kwargs)

    def handling(self, task: asyncio.Task[Any]) -> None:
        """Count ``task``, which handles an interaction, as in flight until it ends (a graceful stop
        waits for what is in flight: ``bot.client.lifecycle``)."""
        self.in_flight.add(task)
        task.add_done_callback(self.in_flight.discard)

    async def setup_hook(self) -> None:
        # Every asyncio.to_thread of this loop runs in the urgent lane of the bot's one pool.
        asyncio.get_running_loop().set_default_executor(self.workers)
        self._lent_loop_pool = True
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        apply_cooldowns(self.tree, self.settings.cooldowns)
        if self.settings.sync_commands:
            await self.sync_commands()

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            self.workers.shutdown(wait=False)
            if self._lent_loop_pool:
                # What outlives the bot on this loop (the CLI, tests) gets a pool of its own, idle until used.
                asyncio.get_running_loop().set_default_executor(Workers())

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
