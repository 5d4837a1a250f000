"""The one error path of the Discord side: commands, views, modals and buttons all answer failures here."""

from __future__ import annotations

import asyncio
import logging
import math
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.client.gate import command_refusal
from bot.client.interaction_log import note_failure, note_refusal, watch
from bot.client.locale import speak_to
from bot.defuse import message_text
from bot.errors import ParlbotError
from bot.messages.catalogue import Msg, say

if TYPE_CHECKING:
    from bot.client.bot import ParlBot

log = logging.getLogger(__name__)


class ParlTree(app_commands.CommandTree["ParlBot"]):
    """The command tree whose ``on_error`` answers every failed command (see ``answer_failure``), which
    logs one line for every command and autocomplete (``bot.client.interaction_log``), answers each in
    its asker's language (``bot.client.locale``) and refuses options Discord would not have sent
    (``bot.client.gate``)."""

    async def interaction_check(self, interaction: discord.Interaction[ParlBot]) -> bool:
        watch(interaction)  # the first step of the task discord.py handles it in
        await speak_to(interaction)
        refused = command_refusal(interaction)
        if refused is not None:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await answer_failure(interaction, refused)
            return False
        library = interaction.client.library
        if interaction.guild_id and not library.has_overlay(interaction.guild_id):
            # The guild's own entries, read from the database off the event loop, before any answer
            # (autocomplete's included, which runs on the loop) needs them. A failure here is left to
            # the answer, which meets it again on its own path and answers it with an apology.
            try:
                await asyncio.to_thread(library.load_overlay, interaction.guild_id)
            except Exception:
                log.warning("Could not load guild %s's entries ahead of its question", interaction.guild_id)
        return True

    async def on_error(
        self, interaction: discord.Interaction[ParlBot], error: app_commands.AppCommandError
    ) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await answer_failure(interaction, cause)


def error_message(interaction: discord.Interaction[ParlBot], cause: Exception) -> str:
    """What to tell the person whose interaction failed: a domain error's message, or an apology.

    The one mapping from errors to replies; anything unexpected is logged with its context here. A
    cooldown (``bot.client.cooldowns``) is a refusal, not a failure: it says when to try again.
    """
    if isinstance(cause, app_commands.CommandOnCooldown):
        note_refusal(interaction)
        return say(Msg.SLOW_DOWN, seconds=math.ceil(cause.retry_after))
    note_failure(interaction, cause)
    if isinstance(cause, app_commands.TransformerError) and isinstance(cause.__cause__, ParlbotError):
        cause = cause.__cause__  # an option our transformer refused, saying why
    if isinstance(cause, ParlbotError):
        return cause.message
    if isinstance(cause, app_commands.CheckFailure):
        # discord.py's own checks word their refusals; ours are ParlbotErrors, answered above
        return str(cause) or say(Msg.CHECK_FAILED)
    if isinstance(cause, app_commands.TransformerError):
        return say(Msg.NOT_UNDERSTOOD, value=cause.value)
    command = interaction.command.qualified_name if interaction.command else "?"
    log.error(
        "Command /%s failed (guild=%s user=%s options=%s)",
        command,
        interaction.guild_id,
        interaction.user.id,
        interaction.data,
        exc_info=cause,
    )
    return say(Msg.APOLOGY)


async def answer_failure(interaction: discord.Interaction[ParlBot], cause: Exception) -> None:
    """Tell the member privately what went wrong (``error_message``): the end of every error path."""
    await send_ephemeral(interaction, error_message(interaction, cause))


async def send_ephemeral(interaction: discord.Interaction[ParlBot], message: str) -> None:
    """Answer ``interaction`` privately, whether or not it was already responded to or deferred; the
    message defused (a refusal may name stored entries) and clipped."""
    message, allowed = message_text(message), discord.AllowedMentions.none()
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True, allowed_mentions=allowed)
    else:
        await interaction.response.send_message(message, ephemeral=True, allowed_mentions=allowed)


async def refuse(interaction: discord.Interaction[ParlBot], message: str) -> None:
    """Tell the member privately they may not use this (and log the interaction as refused)."""
    note_refusal(interaction)
    await send_ephemeral(interaction, message)
