"""Cooldowns: the commands ``Settings.cooldowns`` names get discord.py's own cooldown checks, one per
member and one per channel, so a flood is refused before any work is done.

A command past its rate raises ``app_commands.CommandOnCooldown``, which the one error path answers
privately ("try again in N s", ``bot.client.tree.error_message``) and logs as refused. Autocomplete
runs no checks, so it is never refused. discord.py keeps each check's buckets with the check, on the
command; ``load_extension`` runs a cog's module anew for every bot, so each bot's commands are its own
and every bot (a test's, a restarted one) counts afresh.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.settings import Limit

if TYPE_CHECKING:
    from bot.client.bot import ParlBot


def _member(interaction: discord.Interaction[ParlBot]) -> int:
    return interaction.user.id


def _channel(interaction: discord.Interaction[ParlBot]) -> int | None:
    return interaction.channel_id


def apply_cooldowns(tree: app_commands.CommandTree[ParlBot], limits: Mapping[str, Limit]) -> None:
    """Give each command of ``tree`` that ``limits`` names (by qualified name) its cooldowns."""
    for command in tree.walk_commands():
        limit = limits.get(command.qualified_name)
        if limit is None or not isinstance(command, app_commands.Command):
            continue
        for rate, key in ((limit.user, _member), (limit.channel, _channel)):
            if rate is not None:
                app_commands.checks.cooldown(rate.uses, rate.seconds, key=key)(command)
