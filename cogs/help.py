"""/help, generated from the command tree so it never goes stale."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.answers import render
from bot.messages.catalogue import command_words
from cogs.checks import for_moderators, is_manager, is_moderator
from cogs.common import Interaction, send

if TYPE_CHECKING:
    from bot.client.bot import ParlBot


def _name(name: str) -> str:
    """A command's or option's name as the asker's Discord shows it (``/recherche`` in French)."""
    return command_words("name", name)


def usage(command: app_commands.Command[commands.Cog, ..., None] | app_commands.Group) -> str:
    """``/incident query``, ``/undo [entry]``; a group as its subcommands: ``/add incident|quote|...``."""
    named = " ".join(_name(part) for part in command.qualified_name.split())
    if isinstance(command, app_commands.Group):
        return f"/{named} " + "|".join(_name(sub.name) for sub in command.commands)
    options = " ".join(_name(p.name) if p.required else f"[{_name(p.name)}]" for p in command.parameters)
    return f"/{named} {options}".rstrip()


def _described(command: app_commands.Command[commands.Cog, ..., None] | app_commands.Group) -> str:
    return command_words("description", command.description)


class Help(commands.Cog):
    @app_commands.command(name="help", description="What parlbot can answer, and how to ask.")
    async def help(self, interaction: Interaction) -> None:
        """The commands everyone may use; for the guild's moderators, theirs in a section of their own."""
        listed = [
            command
            for scope in {None, interaction.guild}
            for command in interaction.client.tree.get_commands(guild=scope)
            if isinstance(command, app_commands.Command | app_commands.Group)
        ]
        everyone = sorted((usage(c), _described(c)) for c in listed if not for_moderators(c))
        moderators = sorted((usage(c), _described(c)) for c in listed if for_moderators(c))
        shown = moderators if await is_moderator(interaction) or is_manager(interaction) else []
        await send(interaction, render.help_reply(everyone, shown))


async def setup(bot: ParlBot) -> None:
    await bot.add_cog(Help())
