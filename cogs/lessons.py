"""The classroom's reading commands: /explain (a glossary term) and /lesson (a printable lesson sheet
of an incident, or of a unit: a collection).

Both let the core answer (``Library.answer`` for a term, ``Library.lesson`` for a sheet); a sheet is
sent as a Markdown attachment.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers.render import Reply
from bot.errors import InvalidInput
from bot.messages.catalogue import Msg, say
from cogs.classroom import CollectionName
from cogs.common import Interaction, Query, answer, deliver, in_time, message_kwargs

if TYPE_CHECKING:
    from bot.client.bot import ParlBot


class Lessons(commands.Cog):
    @app_commands.command(description="What a procedural term means, its source and the incidents it is in.")
    @app_commands.describe(term="A term such as 'naming' or 'unanimous consent', even half-typed")
    async def explain(
        self, interaction: Interaction, term: app_commands.Transform[str, Query("explain")]
    ) -> None:
        await answer(interaction, "explain", term)

    @app_commands.command(description="A printable lesson sheet about an incident, or a unit (Markdown).")
    @app_commands.describe(
        incident="A slug such as singh-2020, a name or a few words",
        collection="A collection of this server: one sheet for the unit",
    )
    async def lesson(
        self,
        interaction: Interaction,
        incident: app_commands.Transform[str, Query("incident")] | None = None,
        collection: app_commands.Transform[str, CollectionName()] | None = None,
    ) -> None:
        library, guild_id = interaction.client.library, interaction.guild_id
        if (incident is None) == (collection is None):
            raise InvalidInput(Msg.LESSON_NEEDS_ONE)
        if collection is not None:
            if guild_id is None:
                raise InvalidInput(Msg.NOT_IN_A_SERVER)
            sheet = await in_time(interaction, lambda: library.unit_lesson(collection, guild_id=guild_id))
        else:
            assert incident is not None
            sheet = await in_time(interaction, lambda: library.lesson(incident, guild_id=guild_id))
        if len(sheet.content) > interaction.filesize_limit:
            raise InvalidInput(Msg.LESSON_TOO_BIG, slug=sheet.name)
        message = message_kwargs(Reply(content=say(Msg.LESSON_READY, title=sheet.title)))
        message["file"] = discord.File(io.BytesIO(sheet.content), filename=sheet.filename)
        await deliver(interaction, message)


async def setup(bot: ParlBot) -> None:
    await bot.add_cog(Lessons())
