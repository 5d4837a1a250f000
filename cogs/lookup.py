"""The look-up commands: /incident, /who-objected, /quote, /ruling and /person.

Each parses one ``query`` (autocompleted from the in-memory index) and lets the core answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from cogs.common import Interaction, Query, answer

if TYPE_CHECKING:
    from bot.client.bot import ParlBot


class Lookup(commands.Cog):
    @app_commands.command(description="Look up a parliamentary incident: what happened, who, the ruling.")
    @app_commands.describe(query="A slug such as singh-2020, a name, a nickname or a few words")
    async def incident(
        self, interaction: Interaction, query: app_commands.Transform[str, Query("incident")]
    ) -> None:
        await answer(interaction, "incident", query)

    @app_commands.command(name="who-objected", description="Who moved a motion, and who objected or said no.")
    @app_commands.describe(query="An incident or a motion, e.g. singh-2020 or 'rcmp motion'")
    async def who_objected(
        self, interaction: Interaction, query: app_commands.Transform[str, Query("who-objected")]
    ) -> None:
        await answer(interaction, "who-objected", query)

    @app_commands.command(description="Find a quote by its words or its speaker.")
    @app_commands.describe(query="Some words of the quote, or who said it, e.g. 'i will not'")
    async def quote(
        self, interaction: Interaction, query: app_commands.Transform[str, Query("quote")]
    ) -> None:
        await answer(interaction, "quote", query)

    @app_commands.command(description="What the chair ruled in an incident, and the sanction.")
    @app_commands.describe(query="An incident, a Speaker or a sanction, e.g. 'bercow skinner'")
    async def ruling(
        self, interaction: Interaction, query: app_commands.Transform[str, Query("ruling")]
    ) -> None:
        await answer(interaction, "ruling", query)

    @app_commands.command(description="Who someone is, and the incidents they appear in.")
    @app_commands.describe(query="A name, even half-typed, e.g. 'therrien'")
    async def person(
        self, interaction: Interaction, query: app_commands.Transform[str, Query("person")]
    ) -> None:
        await answer(interaction, "person", query)


async def setup(bot: ParlBot) -> None:
    await bot.add_cog(Lookup())
