"""The classroom commands: teachers' collections (/collection add|remove|show) and the warm-ups
(/random, /on-this-day, /timeline).

Adding and removing are for the guild's teachers (``cogs.checks.teacher_only``); showing and the
warm-ups are for everyone and answer as lookups do (privately where ``/config ephemeral`` says so).
The rules live in ``bot.classroom``, reached through ``Library``; the words in
``bot.classroom.replies``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.answers.render import Reply, pages_for
from bot.classroom import replies
from bot.classroom.collections import NAME_MAX
from bot.classroom.incidents import timeline_filters
from bot.client.bot import ParlBot
from bot.curation.changes import EntityKind
from bot.errors import NotFound
from bot.inputs import line
from bot.messages.catalogue import Msg
from cogs.checks import ensure_teacher, teacher_only
from cogs.common import (
    Interaction,
    Pages,
    Query,
    actor_of,
    choices,
    deliver,
    in_time,
    lookup,
    lookup_private,
    message_kwargs,
    respond,
    send,
)
from cogs.confirm import Confirm, Confirmation

DELETION = Confirmation(
    Msg.COLLECTION_DELETE,
    Msg.COLLECTION_DELETE_NOT_YOURS,
    Msg.COLLECTION_DELETE_CANCELLED,
    Msg.COLLECTION_DELETE_EXPIRED,
)
DATE_MAX = 10  # 2020-06-17


class CollectionName(app_commands.Transformer[ParlBot]):
    """A collection's name, autocompleted from the guild's collections (a new name starts one)."""

    @property
    def max_value(self) -> int:
        return NAME_MAX

    async def transform(self, interaction: Interaction, value: Any) -> str:
        return line(str(value))

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        names = await asyncio.to_thread(library.collection_names, guild_id, value)
        return choices([(name, name) for name in names])


class ChamberOption(app_commands.Transformer[ParlBot]):
    """A chamber by slug or by words of its names (``uk``, ``nz``), autocompleted from the chambers the
    entries are in; one that names none (or several) is refused with the list."""

    @property
    def max_value(self) -> int:
        return limits.CHOICE_VALUE

    async def transform(self, interaction: Interaction, value: Any) -> str:
        return interaction.client.library.chamber_slug(line(str(value)))  # in memory

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        return choices(interaction.client.library.chamber_choices(value))


async def _slug(interaction: Interaction, kind: EntityKind, text: str, option: str) -> str:
    """The slug of the incident or person ``text`` (typed in ``option``) names in the guild's view."""
    library, guild_id = interaction.client.library, interaction.guild_id or 0
    return await asyncio.to_thread(
        lambda: library.resolve_reference(guild_id=guild_id, kind=kind, text=text, option=option)
    )


async def _pages(interaction: Interaction, refusal: Msg, count: int, render: Callable[[int], Reply]) -> None:
    """Send ``render``'s pages of ``count`` items to the asker, as a lookup."""
    pages = Pages(interaction.user.id, refusal, pages_for(count), render)
    await pages.send(interaction, ephemeral=lookup_private(interaction))


class Classroom(commands.Cog):
    collection = app_commands.Group(
        name="collection", description="A teacher's named sets of incidents, one per unit", guild_only=True
    )

    @collection.command(
        name="add", description="Add an incident to a collection, starting it if new (teachers)"
    )
    @app_commands.describe(name="The collection (a new name starts one)", incident="The incident to add")
    @teacher_only()
    async def add(
        self,
        interaction: Interaction,
        name: app_commands.Transform[str, CollectionName()],
        incident: app_commands.Transform[str, Query("incident")],
    ) -> None:
        library, actor = interaction.client.library, actor_of(interaction)
        slug = await _slug(interaction, EntityKind.INCIDENT, incident, "incident")
        await respond(
            interaction,
            lambda: replies.added_reply(library.add_to_collection(actor=actor, name=name, slug=slug)),
            ephemeral=True,
        )

    @collection.command(
        name="remove", description="Take an incident out of a collection, or remove the collection (teachers)"
    )
    @app_commands.describe(
        name="The collection", incident="The incident to take out (left out: the whole collection)"
    )
    @teacher_only()
    async def remove(
        self,
        interaction: Interaction,
        name: app_commands.Transform[str, CollectionName()],
        incident: app_commands.Transform[str, Query("incident")] | None = None,
    ) -> None:
        library, actor = interaction.client.library, actor_of(interaction)
        if incident is None:
            shown = await in_time(
                interaction, lambda: library.collection(actor.guild_id, name), ephemeral=True
            )

            def delete() -> Reply:
                return replies.removed_reply(library.remove_collection(actor=actor, name=name))

            prompt = message_kwargs(replies.confirm_delete_reply(shown.name, len(shown.incidents)))
            prompt["view"] = Confirm(interaction, delete, DELETION, right=ensure_teacher)
            await deliver(interaction, prompt, ephemeral=True)
            return
        try:
            slug = await _slug(interaction, EntityKind.INCIDENT, incident, "incident")
        except NotFound:  # an incident removed since is still taken out by its slug
            slug = incident.strip().lower()
        await respond(
            interaction,
            lambda: replies.removed_reply(library.remove_from_collection(actor=actor, name=name, slug=slug)),
            ephemeral=True,
        )

    @collection.command(name="show", description="The server's collections, or the incidents of one")
    @app_commands.describe(name="A collection (left out: list them all)")
    async def show(
        self, interaction: Interaction, name: app_commands.Transform[str, CollectionName()] | None = None
    ) -> None:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        private = lookup_private(interaction)
        if name is None:
            summaries = await in_time(interaction, lambda: library.collections(guild_id), ephemeral=private)
            await _pages(
                interaction,
                Msg.COLLECTION_NOT_YOURS,
                len(summaries),
                lambda page: replies.collections_page_reply(summaries, page=page),
            )
            return
        shown = await in_time(interaction, lambda: library.collection(guild_id, name), ephemeral=private)
        await _pages(
            interaction,
            Msg.COLLECTION_NOT_YOURS,
            len(shown.incidents),
            lambda page: replies.collection_page_reply(shown.name, shown.incidents, page=page),
        )

    @app_commands.command(name="random", description="A random incident for a class warm-up")
    @app_commands.describe(collection="Draw from this collection", chamber="Draw from this chamber")
    async def random(
        self,
        interaction: Interaction,
        collection: app_commands.Transform[str, CollectionName()] | None = None,
        chamber: app_commands.Transform[str, ChamberOption()] | None = None,
    ) -> None:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        await lookup(
            interaction, lambda: library.random_incident(guild_id, collection=collection, chamber=chamber)
        )

    @app_commands.command(
        name="on-this-day", description="Incidents whose anniversary is today, or the nearest"
    )
    async def on_this_day(self, interaction: Interaction) -> None:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        found = await in_time(
            interaction, lambda: library.on_this_day(guild_id), ephemeral=lookup_private(interaction)
        )
        if found is None:
            await send(interaction, replies.nothing_on_this_day_reply())
            return
        await _pages(
            interaction,
            Msg.TIMELINE_NOT_YOURS,
            len(found.lines),
            lambda page: replies.on_this_day_page_reply(found, page=page),
        )

    @app_commands.command(name="timeline", description="Incidents in date order, a page at a time")
    @app_commands.describe(
        chamber="Only this chamber",
        person="Only incidents this person took part in",
        start="From this year or date (2010, 2010-04-27)",
        end="Up to this year or date (2016, 2016-05-18)",
    )
    @app_commands.rename(start="from", end="to")
    async def timeline(
        self,
        interaction: Interaction,
        chamber: app_commands.Transform[str, ChamberOption()] | None = None,
        person: app_commands.Transform[str, Query("person")] | None = None,
        start: app_commands.Range[str, 1, DATE_MAX] | None = None,
        end: app_commands.Range[str, 1, DATE_MAX] | None = None,
    ) -> None:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        slug = None if person is None else await _slug(interaction, EntityKind.PERSON, person, "person")
        filters = timeline_filters(chamber=chamber, person=slug, start=start, end=end)
        lines = await in_time(
            interaction, lambda: library.timeline(guild_id, filters), ephemeral=lookup_private(interaction)
        )
        await _pages(
            interaction,
            Msg.TIMELINE_NOT_YOURS,
            len(lines),
            lambda page: replies.timeline_page_reply(lines, page=page),
        )


async def setup(bot: ParlBot) -> None:
    await bot.add_cog(Classroom())
