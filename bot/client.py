"""The Discord client: a ``commands.Bot`` whose dependencies arrive through its constructor."""

from __future__ import annotations

import logging

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.errors import ParlbotError
from bot.library import Library
from bot.settings import Settings
from cogs import EXTENSIONS

log = logging.getLogger(__name__)

GENERIC_APOLOGY = (
    "Sorry, something went wrong while answering that. It has been logged; please try again later."
)


class ParlTree(app_commands.CommandTree["ParlBot"]):
    """The one error path: domain errors become polite ephemeral replies, the rest is logged."""

    async def on_error(
        self, interaction: discord.Interaction[ParlBot], error: app_commands.AppCommandError
    ) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await send_ephemeral(interaction, error_message(interaction, cause))


def error_message(interaction: discord.Interaction[ParlBot], cause: Exception) -> str:
    """What to tell the person whose interaction failed: a domain error's message, or an apology.

    The one mapping from errors to replies, shared by commands (``ParlTree.on_error``) and by the
    modals and views that write (they call it from their own ``on_error``).
    """
    if isinstance(cause, ParlbotError):
        return cause.message
    if isinstance(cause, app_commands.CheckFailure):
        return str(cause) or "You cannot use this command here."
    if isinstance(cause, app_commands.TransformerError):
        return f"I could not understand {cause.value!r} for that option."
    command = interaction.command.qualified_name if interaction.command else "?"
    log.error(
        "Command /%s failed (guild=%s user=%s options=%s)",
        command,
        interaction.guild_id,
        interaction.user.id,
        interaction.data,
        exc_info=cause,
    )
    return GENERIC_APOLOGY


async def send_ephemeral(interaction: discord.Interaction[ParlBot], message: str) -> None:
    """Answer ``interaction`` privately, whether or not it was already responded to or deferred."""
    allowed = discord.AllowedMentions.none()
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True, allowed_mentions=allowed)
    else:
        await interaction.response.send_message(message, ephemeral=True, allowed_mentions=allowed)


class ParlBot(commands.Bot):
    def __init__(self, *, settings: Settings, library: Library) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=ParlTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.library = library

    async def setup_hook(self) -> None:
        for extension in EXTENSIONS:
            await self.load_extension(extension)
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


def point_at_endpoints(settings: Settings) -> None:
    """Aim discord.py's REST base and gateway at a Discord-compatible endpoint, when configured.

    discord.py reads both from class attributes, so this is process-wide by nature.
    """
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
