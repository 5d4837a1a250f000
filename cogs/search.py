"""/search: ranked results across every kind of entry, a page at a time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.client import send_ephemeral
from bot.render import Choice
from cogs.common import ActionButton, Interaction, Query, message_kwargs

if TYPE_CHECKING:
    from bot.client import ParlBot

PAGES_TIMEOUT = 600.0


class SearchPages(discord.ui.View):
    """Previous/next buttons over one search's results; only the person who searched turns pages."""

    def __init__(self, owner_id: int, query: str, results: list[Choice]) -> None:
        super().__init__(timeout=PAGES_TIMEOUT)
        self.owner_id = owner_id
        self.query = query
        self.results = results
        self.page = 0
        self.pages = max(1, -(-len(results) // render.PAGE_SIZE))

    def show(self, page: int) -> dict[str, Any]:
        """Message keyword arguments for ``page``, with this view rebuilt around its result buttons."""
        self.page = min(max(page, 0), self.pages - 1)
        reply = render.search_page_reply(self.query, self.results, page=self.page)
        kwargs = message_kwargs(reply)
        self.clear_items()
        for button in reply.buttons:
            self.add_item(ActionButton(button))
        if self.pages > 1:
            self._nav("◀ Previous", self.page - 1, disabled=self.page == 0)
            self._nav("Next ▶", self.page + 1, disabled=self.page == self.pages - 1)
        kwargs["view"] = self
        return kwargs

    def _nav(self, label: str, page: int, *, disabled: bool) -> None:
        button: discord.ui.Button[SearchPages] = discord.ui.Button(
            label=label, row=1, disabled=disabled, style=discord.ButtonStyle.secondary
        )

        async def turn(interaction: Interaction) -> None:
            await interaction.response.edit_message(**self.show(page))

        button.callback = turn  # type: ignore[method-assign,assignment]
        self.add_item(button)

    async def interaction_check(self, interaction: Interaction) -> bool:  # type: ignore[override]
        if interaction.user.id == self.owner_id:
            return True
        await send_ephemeral(
            interaction, "Only the person who searched can turn these pages; try `/search` yourself."
        )
        return False


class Search(commands.Cog):
    @app_commands.command(description="Search everything: incidents, people, quotes, rulings and motions.")
    @app_commands.describe(query="Any words: names, nicknames, quote words, a year, a party")
    async def search(
        self, interaction: Interaction, query: app_commands.Transform[str, Query("search")]
    ) -> None:
        library = interaction.client.library
        results = library.search(query, guild_id=interaction.guild_id)  # in-memory: no I/O to wait for
        pages = SearchPages(interaction.user.id, query, results)
        await interaction.response.send_message(**pages.show(0))


async def setup(bot: ParlBot) -> None:
    await bot.add_cog(Search())
