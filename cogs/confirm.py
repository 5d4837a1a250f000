"""A private "do it / cancel" prompt for a change that cannot be taken back lightly (a removal, a role
the member does not hold): only the member who asked may press, in the guild they asked in and while
they still hold the command's right; after a minute it expires."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.answers.render import Reply
from bot.messages.catalogue import Msg, say
from cogs.checks import Right, guard
from cogs.common import Interaction, OwnedView, respond, send

CONFIRM_TIMEOUT = 60.0


@dataclass(frozen=True, slots=True)
class Confirmation:
    """What a confirmation says: its button, and its words when refused, cancelled or expired."""

    button: Msg
    not_yours: Msg
    cancelled: Msg
    expired: Msg


class Confirm(OwnedView):
    """Do it / Cancel buttons only the member who asked can press, where they asked and while they hold
    ``right`` (what the command checked: ``act`` writes in the prompt's guild); after a minute they
    expire."""

    def __init__(
        self, prompt: Interaction, act: Callable[[], Reply], words: Confirmation, *, right: Right
    ) -> None:
        super().__init__(
            prompt.user.id, words.not_yours, timeout=CONFIRM_TIMEOUT, guard=guard(prompt.guild_id, right)
        )
        self.prompt = prompt
        self.act = act
        self.words = words
        self.confirm.label = say(words.button)

    @discord.ui.button(style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: Interaction, button: discord.ui.Button[Confirm]) -> None:
        self.stop()
        await respond(interaction, self.act, edit=True)

    @discord.ui.button(label=say(Msg.CANCEL), style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: Interaction, button: discord.ui.Button[Confirm]) -> None:
        self.stop()
        await send(interaction, Reply(content=say(self.words.cancelled)), edit=True)

    async def on_timeout(self) -> None:
        for item in self.children:
            if isinstance(item, discord.ui.Button):
                item.disabled = True
        await self.prompt.edit_original_response(content=say(self.words.expired), view=self)
