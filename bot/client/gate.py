"""Every option and modal field judged on arrival, as Discord's client would have judged it.

Discord's client keeps to what a command declares (an option's choices, its range, its length), but
nothing stops a payload from saying otherwise, and discord.py checks none of it on receipt. So
before any command, autocomplete or modal runs, each value is put to ``bot.inputs.refusal`` against
what its option (or text input) declares; the first refused is answered politely and nothing else
runs. ``ParlTree.interaction_check`` asks ``command_refusal``, ``cogs.common.Modal`` asks
``modal_refusal``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.errors import InvalidInput
from bot.inputs import refusal
from bot.loopback.payloads import leaf_options

__all__ = ["command_refusal", "modal_refusal", "named_fields"]


def command_refusal(interaction: discord.Interaction[Any]) -> InvalidInput | None:
    """Why a slash command's options cannot be taken; None when they can. While a member is still
    typing (autocomplete), values are partial: only their control characters are refused."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None  # a context menu, or a command the tree does not know (it answers that itself)
    typing = interaction.type is discord.InteractionType.autocomplete
    data: Mapping[str, Any] = interaction.data or {}
    for option in leaf_options(data.get("options") or []):
        parameter = command.get_parameter(str(option.get("name")))
        if parameter is None or "value" not in option:
            continue
        refused = refusal(
            parameter.display_name,
            option["value"],
            low=None if typing else parameter.min_value,
            high=None if typing else parameter.max_value,
            choices=() if typing else [choice.value for choice in parameter.choices],
        )
        if refused is not None:
            return refused
    return None


def modal_refusal(modal: discord.ui.Modal) -> InvalidInput | None:
    """Why a submitted modal's texts cannot be taken (each as its text input declares); None when they
    can."""
    for name, item in named_fields(modal):
        low = item.min_length if item.min_length is not None else int(item.required)
        refused = refusal(name, item.value, low=low, high=item.max_length)
        if refused is not None:
            return refused
    return None


def named_fields(modal: discord.ui.Modal) -> list[tuple[str, discord.ui.TextInput[Any]]]:
    """A modal's text inputs, each with its name: its label, else its custom id."""
    labels = {
        id(item.component): item.text for item in modal.walk_children() if isinstance(item, discord.ui.Label)
    }
    return [
        (labels.get(id(item)) or item.custom_id, item)
        for item in modal.walk_children()
        if isinstance(item, discord.ui.TextInput)
    ]
