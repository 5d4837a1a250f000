"""/search: ranked results across every kind of entry, a page at a time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.answers import render
from bot.messages.catalogue import Msg
from cogs.common import Interaction, Pages, Query, lookup_private

if TYPE_CHECKING:
    from bot.client.bot import ParlBot


class Search(commands.Cog):
    @app_commands.command(
        description="Search everything; narrow it with chamber:uk, year:2010-2016 or kind:ruling."
    )
    @app_commands.describe(
        query="Words (names, what was said, a question), and filters: chamber:nz year:2010..2016 kind:quote"
    )
    async def search(
        self, interaction: Interaction, query: app_commands.Transform[str, Query("search")]
    ) -> None:
        library = interaction.client.library
        results = library.search(query, guild_id=interaction.guild_id)  # in-memory: no I/O to wait for
        pages = Pages(
            interaction.user.id,
            Msg.SEARCH_NOT_YOURS,
            render.pages_for(len(results)),
            lambda page: render.search_page_reply(query, results, page=page),
        )
        await pages.send(interaction, ephemeral=lookup_private(interaction))


async def setup(bot: ParlBot) -> None:
    await bot.add_cog(Search())
