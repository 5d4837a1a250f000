"""The language of each interaction's replies, set once at the start of the task that handles it.

discord.py handles every interaction in a task of its own (``CommandTree._call`` for commands and
autocomplete, ``View._scheduled_task``, ``Modal._scheduled_task``, and the dynamic items' task), and
calls our ``interaction_check`` (or the button's callback) first in it; ``speak_to`` there makes every
``say`` of the rest of that task, the error path included, and of the worker threads it starts
(``asyncio.to_thread`` copies the context), speak the asker's language.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord

from bot.messages.catalogue import answer_in, reply_locale, spoken

if TYPE_CHECKING:
    from bot.client.bot import ParlBot


async def interaction_locale(interaction: discord.Interaction[ParlBot]) -> str:
    """``reply_locale`` for the asker: their Discord locale when parlbot speaks it, else their guild's
    ``/config language`` (read only then, off the event loop), else English."""
    asker = interaction.locale.value
    if spoken(asker) is not None or interaction.guild_id is None:
        return reply_locale(asker)
    library = interaction.client.library
    return reply_locale(asker, await asyncio.to_thread(library.guild_language, interaction.guild_id))


async def speak_to(interaction: discord.Interaction[ParlBot]) -> None:
    """Answer the rest of this interaction's task in the asker's language (``interaction_locale``)."""
    answer_in(await interaction_locale(interaction))
