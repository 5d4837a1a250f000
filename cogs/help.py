"""/help, generated from the command tree so it never goes stale.

Each command, and each subcommand of a group, is listed in the first of the asker's sections that may run
it (``cogs.checks.command_audiences``): everyone's, the teachers', the moderators'. A group's
subcommands in one section share a line (``/add incident|quote|...``); one alone has a line of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.ext import commands

from bot.answers import render
from bot.messages.catalogue import command_words
from cogs.checks import Audience, command_audiences, member_audiences
from cogs.common import Interaction, send

if TYPE_CHECKING:
    from bot.client.bot import ParlBot

Command = app_commands.Command[Any, ..., Any]


def _name(name: str) -> str:
    """A command's or option's name as the asker's Discord shows it (``/recherche`` in French)."""
    return command_words("name", name)


def _named(command: Command | app_commands.Group) -> str:
    return "/" + " ".join(_name(part) for part in command.qualified_name.split())


def usage(command: Command) -> str:
    """``/incident query``, ``/undo [entry]``, ``/collection show [name]``."""
    options = " ".join(
        _name(p.display_name) if p.required else f"[{_name(p.display_name)}]" for p in command.parameters
    )
    return f"{_named(command)} {options}".rstrip()


def line(shared: Sequence[Command]) -> tuple[str, str]:
    """The (usage, description) of one line of /help: a command alone, or a group's subcommands that
    share a section, as the group (``/add incident|quote|...``)."""
    group = shared[0].parent
    if group is None or len(shared) == 1:
        return usage(shared[0]), command_words("description", shared[0].description)
    names = "|".join(_name(command.name) for command in shared)
    return f"{_named(group)} {names}", command_words("description", group.description)


def runnable(command: Command | app_commands.Group) -> list[Command]:
    """What of ``command`` runs: itself, or a group's subcommands, in the tree's order."""
    if isinstance(command, app_commands.Group):
        return [sub for sub in command.walk_commands() if isinstance(sub, app_commands.Command)]
    return [command]


def sections(
    listed: Iterable[Command | app_commands.Group], held: frozenset[Audience]
) -> dict[Audience, list[tuple[str, str]]]:
    """The lines of each section: every command in the first of ``held`` (the asker's audiences) that may
    run it; none for a command nobody in ``held`` may run."""
    shared: dict[tuple[Audience, str], list[Command]] = {}
    for command in (command for top in listed for command in runnable(top)):
        audiences = command_audiences(command) & held
        if audiences:
            within = command.parent or command
            shared.setdefault((min(audiences), within.qualified_name), []).append(command)
    return {
        audience: sorted(line(commands) for (section, _), commands in shared.items() if section is audience)
        for audience in Audience
    }


class Help(commands.Cog):
    @app_commands.command(name="help", description="What parlbot can answer, and how to ask.")
    async def help(self, interaction: Interaction) -> None:
        """The commands everyone may use; for the guild's teachers and moderators, theirs in sections of
        their own."""
        listed = [
            command
            for scope in {None, interaction.guild}
            for command in interaction.client.tree.get_commands(guild=scope)
            if isinstance(command, app_commands.Command | app_commands.Group)
        ]
        shown = sections(listed, await member_audiences(interaction))
        reply = render.help_reply(
            shown[Audience.MEMBERS], teachers=shown[Audience.TEACHERS], moderators=shown[Audience.MODERATORS]
        )
        await send(interaction, reply)


async def setup(bot: ParlBot) -> None:
    await bot.add_cog(Help())
