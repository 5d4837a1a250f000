"""/config: parlbot's settings for a server, changed by members with Manage Server.

``moderator-role`` and ``teacher-role`` name who moderates and who teaches (a role the member does not
hold is confirmed first: once set, they would lose the right), ``ephemeral`` makes lookups private in
the server or in one channel, and ``language`` is the reply language for members whose Discord
language parlbot does not speak; ``show`` shows them all. The rules live in ``bot.classroom.settings``
and ``bot.curation.changes``, the words in ``bot.classroom.replies``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import render
from bot.answers.render import Reply
from bot.classroom import replies as classroom_replies
from bot.client.bot import ParlBot
from bot.curation import replies
from bot.errors import InvalidInput
from bot.messages.catalogue import Msg, say
from cogs.checks import ensure_manager, manager_only
from cogs.common import Interaction, actor_of, message_kwargs, respond
from cogs.confirm import Confirm, Confirmation

MANAGE_SERVER = discord.Permissions(manage_guild=True)
MODERATOR_ROLE_NOT_HELD = Confirmation(
    Msg.ROLE_SET_ANYWAY, Msg.ROLE_NOT_YOURS, Msg.ROLE_CANCELLED, Msg.ROLE_EXPIRED
)
TEACHER_ROLE_NOT_HELD = Confirmation(
    Msg.ROLE_SET_ANYWAY, Msg.ROLE_NOT_YOURS, Msg.TEACHER_ROLE_CANCELLED, Msg.TEACHER_ROLE_EXPIRED
)


async def set_role(
    interaction: Interaction,
    role: discord.Role | None,
    save: Callable[[], Reply],
    *,
    warning: Msg,
    words: Confirmation,
) -> None:
    """Save a role setting; a role the member does not hold is confirmed first (``warning``)."""
    member = interaction.user
    if role is not None and isinstance(member, discord.Member) and role not in member.roles:
        view = Confirm(interaction, save, words, right=ensure_manager)
        warned = Reply(content=say(warning, role=render.echo(role.name)))
        await interaction.response.send_message(**message_kwargs(warned), view=view, ephemeral=True)
        return
    await respond(interaction, save, ephemeral=True)


class Config(commands.Cog):
    config = app_commands.Group(
        name="config",
        description="parlbot's settings for this server",
        guild_only=True,
        default_permissions=MANAGE_SERVER,
    )

    @config.command(name="moderator-role", description="Who may change entries (left out: Manage Server)")
    @app_commands.describe(role="The moderator role; leave it out to make Manage Server the right again")
    @manager_only()
    async def moderator_role(self, interaction: Interaction, role: discord.Role | None = None) -> None:
        library, actor = interaction.client.library, actor_of(interaction)
        role_id = None if role is None else role.id

        def save() -> Reply:
            library.set_moderator_role(actor=actor, role_id=role_id)
            return replies.config_reply(role_id)

        await set_role(interaction, role, save, warning=Msg.ROLE_NOT_HELD, words=MODERATOR_ROLE_NOT_HELD)

    @config.command(
        name="teacher-role",
        description="Who teaches: keeps collections, runs quizzes (left out: the moderators)",
    )
    @app_commands.describe(role="The teacher role; leave it out to make the moderators the teachers again")
    @manager_only()
    async def teacher_role(self, interaction: Interaction, role: discord.Role | None = None) -> None:
        library, actor = interaction.client.library, actor_of(interaction)
        role_id = None if role is None else role.id

        def save() -> Reply:
            library.set_teacher_role(actor=actor, role_id=role_id)
            return classroom_replies.setting_reply(classroom_replies.teachers_line(role_id))

        await set_role(
            interaction, role, save, warning=Msg.TEACHER_ROLE_NOT_HELD, words=TEACHER_ROLE_NOT_HELD
        )

    @config.command(name="ephemeral", description="Whether lookups answer privately, here or in one channel")
    @app_commands.describe(
        setting="on: only the asker sees answers; off: everyone does; server: the channel follows the server",
        channel="A channel of its own setting (left out: the whole server)",
    )
    @manager_only()
    async def ephemeral(
        self,
        interaction: Interaction,
        setting: Literal["on", "off", "server"],
        channel: app_commands.AppCommandChannel | app_commands.AppCommandThread | None = None,
    ) -> None:
        library, actor = interaction.client.library, actor_of(interaction)
        channel_id = None if channel is None else channel.id
        if setting == "server" and channel_id is None:
            raise InvalidInput(Msg.PRIVATE_FOLLOWS_NEEDS_CHANNEL)
        private = None if setting == "server" else setting == "on"

        def save() -> Reply:
            library.set_ephemeral(actor=actor, channel_id=channel_id, private=private)
            if private is None:
                assert channel_id is not None
                return classroom_replies.setting_reply(classroom_replies.follows_line(channel_id))
            return classroom_replies.setting_reply(classroom_replies.private_line(private, channel_id))

        await respond(interaction, save, ephemeral=True)

    @config.command(name="language", description="Reply language when a member's Discord language is neither")
    @app_commands.describe(language="en or fr; leave it out for English")
    @manager_only()
    async def language(self, interaction: Interaction, language: Literal["en", "fr"] | None = None) -> None:
        library, actor = interaction.client.library, actor_of(interaction)

        def save() -> Reply:
            library.set_language(actor=actor, language=language)
            return classroom_replies.setting_reply(classroom_replies.language_line(language))

        await respond(interaction, save, ephemeral=True)

    @config.command(
        name="show", description="parlbot's settings here: moderators, teachers, privacy, language"
    )
    @manager_only()
    async def show(self, interaction: Interaction) -> None:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        await respond(
            interaction,
            lambda: classroom_replies.settings_reply(library.guild_settings(guild_id)),
            ephemeral=True,
        )


async def setup(bot: ParlBot) -> None:
    await bot.add_cog(Config())
