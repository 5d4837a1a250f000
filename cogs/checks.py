"""Who may change the database: the guild's moderators, checked on the server for every write.

A guild names its moderator role with ``/config moderator-role``. Until it does, Manage Server is the
moderator right; once it has, holding the role is the right (Manage Server alone is not), while
members with Manage Server can always change the setting. ``default_member_permissions`` only hides
commands in Discord's menus; these checks are what actually refuse.

    @moderator_only()                      # an app_commands check, for /review and friends
    async def review(interaction): ...

    if not await is_moderator(interaction):  # the same question, anywhere else
        ...

Teachers (docs/CLASSROOM.md) are the moderators, unless ``/config teacher-role`` names a role of their
own: then holding it is the right. ``teacher_only()``, ``is_teacher`` and ``ensure_teacher`` ask that.

``/help`` reads a command's checks to know whom it is for (``command_audiences``) and lists it in the
first of the asker's sections (``member_audiences``) that may run it.

Teachers undo what teachers write (``undoable_kinds``): quiz questions and glossary terms.

A button or modal checks again the moment it acts (``guard``): it must be used in the guild whose
entries it writes, by a member who still holds the right there (a ``Right``: ``ensure_moderator`` and
friends). A command's check is no guard for the buttons it leaves behind: they outlive it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from enum import IntEnum
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.curation.changes import EVERY_KIND, EntityKind
from bot.errors import Forbidden
from bot.messages.catalogue import Msg
from cogs.common import Guard, Interaction

_Command = TypeVar("_Command")

Right = Callable[[Interaction], Awaitable[None]]
"""A right, asked of the member where they are: returns if they hold it, raises ``NotAllowed`` if not."""


class NotAllowed(app_commands.CheckFailure, Forbidden):
    """A check refused the member: answered politely and privately by ``ParlTree.on_error``."""


async def moderator_role(interaction: Interaction) -> int | None:
    """The guild's moderator role (None: Manage Server is the right), read in a thread."""
    library = interaction.client.library
    guild_id = interaction.guild_id or 0
    return await asyncio.to_thread(library.moderator_role, guild_id=guild_id)


async def is_moderator(interaction: Interaction) -> bool:
    """Whether the member may change entries in this guild (never outside a guild)."""
    member = interaction.user
    if interaction.guild_id is None or not isinstance(member, discord.Member):
        return False
    role_id = await moderator_role(interaction)
    if role_id is None:
        return interaction.permissions.manage_guild
    return any(role.id == role_id for role in member.roles)


async def is_teacher(interaction: Interaction) -> bool:
    """Whether the member may keep collections and run classes here: the holders of the guild's teacher
    role, or its moderators while it names none (never outside a guild)."""
    member = interaction.user
    if interaction.guild_id is None or not isinstance(member, discord.Member):
        return False
    role_id = interaction.client.library.teacher_role(interaction.guild_id)  # from memory
    if role_id is None:
        return await is_moderator(interaction)
    return any(role.id == role_id for role in member.roles)


async def ensure_teacher(interaction: Interaction, *, refusal: Msg = Msg.NOT_A_TEACHER) -> None:
    """Raise ``NotAllowed`` (saying ``refusal``) unless the member is a teacher here."""
    if interaction.guild_id is None:
        raise NotAllowed(Msg.NOT_IN_A_SERVER)
    if not await is_teacher(interaction):
        raise NotAllowed(refusal)


def is_manager(interaction: Interaction) -> bool:
    """Whether the member holds Manage Server in this guild (the right to change parlbot's settings)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


async def ensure_moderator(interaction: Interaction, *, refusal: Msg = Msg.NOT_A_MODERATOR) -> None:
    """Raise ``NotAllowed`` (saying ``refusal``) unless the member is a moderator here."""
    if interaction.guild_id is None:
        raise NotAllowed(Msg.NOT_IN_A_SERVER)
    if not await is_moderator(interaction):
        raise NotAllowed(refusal)


async def ensure_manager(interaction: Interaction) -> None:
    """Raise ``NotAllowed`` unless the member holds Manage Server here."""
    if not is_manager(interaction):
        raise NotAllowed(Msg.NOT_A_MANAGER)


def guard(guild_id: int | None, right: Right | None = None) -> Guard:
    """The check a button or modal runs the moment it acts on ``guild_id``'s entries: used anywhere else,
    it refuses (``ANOTHER_SERVER``); used there, the member must still hold ``right`` (None: anyone may)."""

    async def check(interaction: Interaction) -> None:
        if interaction.guild_id != guild_id:
            raise NotAllowed(Msg.ANOTHER_SERVER)
        if right is not None:
            await right(interaction)

    return check


async def _moderator(interaction: Interaction) -> bool:
    await ensure_moderator(interaction)
    return True


async def ensure_moderator_reading(interaction: Interaction) -> None:
    """``ensure_moderator`` for what only reads: refused without the writers' "nothing was changed"."""
    await ensure_moderator(interaction, refusal=Msg.NOT_A_MODERATOR_TO_READ)


async def _moderator_reading(interaction: Interaction) -> bool:
    await ensure_moderator_reading(interaction)
    return True


async def _teacher(interaction: Interaction) -> bool:
    await ensure_teacher(interaction)
    return True


async def _manager(interaction: Interaction) -> bool:
    await ensure_manager(interaction)
    return True


def moderator_only(*, reading: bool = False) -> Callable[[_Command], _Command]:
    """An ``app_commands`` check: only the guild's moderators may run the command. A command that only
    reads (``reading``) is refused without the writers' "nothing was changed"."""
    return app_commands.check(_moderator_reading if reading else _moderator)


def teacher_only() -> Callable[[_Command], _Command]:
    """An ``app_commands`` check: only the guild's teachers may run the command."""
    return app_commands.check(_teacher)


def manager_only() -> Callable[[_Command], _Command]:
    """An ``app_commands`` check: only members with Manage Server may run the command."""
    return app_commands.check(_manager)


class Audience(IntEnum):
    """Who a command is for, in the order ``/help`` lists its sections: every member, the teachers, the
    moderators (and managers)."""

    MEMBERS = 0
    TEACHERS = 1
    MODERATORS = 2


def command_audiences(command: app_commands.Command[Any, ..., Any]) -> frozenset[Audience]:
    """Who may run ``command`` (a command, or one subcommand of a group), read from its checks."""
    by_check: dict[Callable[..., Any], set[Audience]] = {
        _moderator: {Audience.MODERATORS},
        _moderator_reading: {Audience.MODERATORS},
        _manager: {Audience.MODERATORS},
        _teacher: {Audience.TEACHERS},
        _moderator_or_teacher: {Audience.MODERATORS, Audience.TEACHERS},
        _undoer: {Audience.MODERATORS, Audience.TEACHERS},
    }
    who: set[Audience] = set()
    for check in command.checks:
        who |= by_check.get(check, set())
    return frozenset(who or {Audience.MEMBERS})


async def member_audiences(interaction: Interaction) -> frozenset[Audience]:
    """The audiences the member belongs to here: every member, and the teachers and moderators (or
    managers) when they are."""
    held = {Audience.MEMBERS}
    if await is_teacher(interaction):
        held.add(Audience.TEACHERS)
    if await is_moderator(interaction) or is_manager(interaction):
        held.add(Audience.MODERATORS)
    return frozenset(held)


def add_moderator_check(command: app_commands.Command[Any, ..., Any]) -> None:
    """Give a command built at run time the moderator check (``moderator_only`` for decorated ones)."""
    command.add_check(_moderator)


# -- lessons and the glossary: the glossary is the classroom's too ------------------------------------------


async def ensure_moderator_or_teacher(interaction: Interaction) -> None:
    """Raise ``NotAllowed`` unless the member is a moderator or a teacher here (who write the glossary)."""
    if not (await is_moderator(interaction) or await is_teacher(interaction)):
        raise NotAllowed(Msg.NOT_STAFF_FOR_TERMS)


async def _moderator_or_teacher(interaction: Interaction) -> bool:
    await ensure_moderator_or_teacher(interaction)
    return True


def moderator_or_teacher_only() -> Callable[[_Command], _Command]:
    """An ``app_commands`` check: the guild's moderators, and its teachers, may run the command (the
    glossary's terms, which teachers add for their classes)."""
    return app_commands.check(_moderator_or_teacher)


# -- undo: teachers undo what teachers write -------------------------------------------------------------

TEACHERS_KINDS: frozenset[EntityKind] = frozenset({EntityKind.QUESTION, EntityKind.TERM})
"""The entries teachers write (``/quiz add``; ``/add term`` and friends), so the changes they may undo."""


async def undoable_kinds(interaction: Interaction) -> frozenset[EntityKind]:
    """The kinds of entry whose changes the member may undo here: every kind for a moderator, the
    teachers' kinds for a teacher who is not one, none for anyone else. ``/undo``'s check, its
    autocomplete and the undo itself all ask this."""
    if await is_moderator(interaction):
        return EVERY_KIND
    if await is_teacher(interaction):
        return TEACHERS_KINDS
    return frozenset()


async def _undoer(interaction: Interaction) -> bool:
    if interaction.guild_id is None:
        raise NotAllowed(Msg.NOT_IN_A_SERVER)
    if not await undoable_kinds(interaction):
        raise NotAllowed(Msg.UNDO_NOT_STAFF)
    return True


def undoer_only() -> Callable[[_Command], _Command]:
    """An ``app_commands`` check: the guild's moderators, and its teachers (for their kinds of entry), may
    run the command (``/undo``)."""
    return app_commands.check(_undoer)
