"""Builders for the raw gateway payloads Discord sends: INTERACTION_CREATE ``d`` objects and friends.

The shapes follow Discord's API v10 and carry every key discord.py 2.7 reads when it builds an
``Interaction`` (``version``, ``attachment_size_limit``, ``member`` with permissions, locales,
``context``, ``authorizing_integration_owners``, ...).
"""

from __future__ import annotations

import itertools
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

import discord

Json = dict[str, Any]

DISCORD_EPOCH_MS: Final = 1_420_070_400_000
# 2024-06-01T00:00:00Z: ids minted by the fake look like ones Discord hands out today.
BASE_TIME_MS: Final = 1_717_200_000_000

DEFAULT_APPLICATION_ID: Final = 1_246_000_000_000_000_001
DEFAULT_GUILD_ID: Final = 1_246_000_000_000_000_100
DEFAULT_CHANNEL_ID: Final = 1_246_000_000_000_000_200
DEFAULT_USER_ID: Final = 1_246_000_000_000_000_300
DEFAULT_ROLE_ID: Final = DEFAULT_GUILD_ID  # @everyone shares the guild's id
MODERATOR_ROLE_ID: Final = 1_246_000_000_000_000_400
ATTACHMENT_SIZE_LIMIT: Final = 10 * 1024 * 1024

MEMBER_PERMISSIONS: Final = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_application_commands=True,
    use_external_emojis=True,
)
# A moderator in parlbot's sense (docs/CURATION.md): a member who also holds Manage Server, nothing more.
MODERATOR_PERMISSIONS: Final = MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True)
BOT_PERMISSIONS: Final = MEMBER_PERMISSIONS


class Snowflakes:
    """Mints increasing ids shaped like Discord's snowflakes (timestamp << 22 | a count in the low bits).

    The timestamp starts at ``start_ms`` and moves on with the clock, as Discord's do: discord.py times
    an interaction by its id (``Interaction.created_at``), cooldowns included, so a member waiting in
    ``parlbot console`` sees them run out.
    """

    def __init__(self, start_ms: int = BASE_TIME_MS) -> None:
        self._counter = itertools.count()
        self._start = start_ms - DISCORD_EPOCH_MS
        self._began = time.monotonic()

    def next(self) -> int:
        elapsed_ms = int((time.monotonic() - self._began) * 1000)
        return ((self._start + elapsed_ms) << 22) | (next(self._counter) & 0x3FFFFF)


def bot_user(application_id: int, name: str = "parlbot") -> Json:
    """The bot's user object (for a bot, the user id equals the application id)."""
    return {
        "id": str(application_id),
        "username": name,
        "discriminator": "0",
        "global_name": None,
        "avatar": None,
        "bot": True,
        "verified": True,
        "flags": 0,
        "mfa_enabled": False,
        "locale": "en-US",
    }


def user(user_id: int, username: str) -> Json:
    return {
        "id": str(user_id),
        "username": username,
        "discriminator": "0",
        "global_name": username.title(),
        "avatar": None,
        "public_flags": 0,
    }


@dataclass(frozen=True, slots=True)
class Invoker:
    """Who is asking, and where: everything about an interaction that is not the command itself."""

    application_id: int = DEFAULT_APPLICATION_ID
    guild_id: int | None = DEFAULT_GUILD_ID
    channel_id: int = DEFAULT_CHANNEL_ID
    user_id: int = DEFAULT_USER_ID
    username: str = "member"
    locale: str = "en-US"
    guild_locale: str = "en-US"
    moderator: bool = False
    joined_at: str = "2024-01-15T12:00:00.000000+00:00"
    extra_roles: tuple[int, ...] = field(default_factory=tuple)

    @property
    def permissions(self) -> discord.Permissions:
        return MODERATOR_PERMISSIONS if self.moderator else MEMBER_PERMISSIONS

    @property
    def roles(self) -> list[str]:
        roles = [*self.extra_roles, *([MODERATOR_ROLE_ID] if self.moderator else [])]
        return [str(role) for role in roles]

    def with_user(self, user_id: int, username: str | None = None) -> Invoker:
        return replace(self, user_id=user_id, username=username or self.username)


def member(invoker: Invoker) -> Json:
    return {
        "user": user(invoker.user_id, invoker.username),
        "roles": invoker.roles,
        "permissions": str(invoker.permissions.value),
        "joined_at": invoker.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "nick": None,
        "avatar": None,
        "flags": 0,
        "communication_disabled_until": None,
    }


def text_channel(channel_id: int, guild_id: int | None, name: str = "parliament") -> Json:
    channel: Json = {
        "id": str(channel_id),
        "type": 0,
        "name": name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": None,
        "flags": 0,
    }
    if guild_id is not None:
        channel["guild_id"] = str(guild_id)
    return channel


def role(role_id: int, name: str, permissions: discord.Permissions, position: int = 0) -> Json:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions.value),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def guild_create(invoker: Invoker, *, name: str = "Parliament Watchers") -> Json:
    """A GUILD_CREATE ``d`` payload for the invoker's guild with its channel and roles."""
    if invoker.guild_id is None:
        raise ValueError("a guild is needed for GUILD_CREATE")
    roles = [
        role(invoker.guild_id, "@everyone", MEMBER_PERMISSIONS),
        role(MODERATOR_ROLE_ID, "Moderator", MODERATOR_PERMISSIONS, position=1),
    ]
    return {
        "id": str(invoker.guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": "1",
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 1,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": roles,
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": invoker.guild_locale,
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": invoker.joined_at,
        "large": False,
        "unavailable": False,
        "member_count": 2,
        "voice_states": [],
        "members": [],
        "channels": [text_channel(invoker.channel_id, None)],
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment(attachment_id: int, filename: str, size: int, url: str, content_type: str | None) -> Json:
    """An attachment object, as in ``resolved.attachments`` of a command with an ATTACHMENT option."""
    payload: Json = {
        "id": str(attachment_id),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
        "ephemeral": True,  # files given to a slash command are ephemeral attachments
    }
    if content_type is not None:
        payload["content_type"] = content_type
    return payload


def new_token() -> str:
    """An interaction token: opaque, URL-safe, different every time."""
    return "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)


def _interaction(
    type_: int,
    data: Json | None,
    invoker: Invoker,
    *,
    interaction_id: int,
    token: str,
    message: Json | None = None,
) -> Json:
    payload: Json = {
        "id": str(interaction_id),
        "application_id": str(invoker.application_id),
        "type": type_,
        "token": token,
        "version": 1,
        "locale": invoker.locale,
        "app_permissions": str(BOT_PERMISSIONS.value),
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "channel_id": str(invoker.channel_id),
        "channel": text_channel(invoker.channel_id, invoker.guild_id),
    }
    if data is not None:
        payload["data"] = data
    if invoker.guild_id is not None:
        payload.update(
            guild_id=str(invoker.guild_id),
            guild={"id": str(invoker.guild_id), "locale": invoker.guild_locale, "features": []},
            guild_locale=invoker.guild_locale,
            member=member(invoker),
            authorizing_integration_owners={"0": str(invoker.guild_id)},
            context=0,
        )
    else:
        payload.update(
            user=user(invoker.user_id, invoker.username),
            authorizing_integration_owners={"1": str(invoker.user_id)},
            context=1,
        )
        payload["channel"] = {"id": str(invoker.channel_id), "type": 1, "recipients": [payload["user"]]}
    if message is not None:
        payload["message"] = message
    return payload


def command_data(
    name: str,
    options: Sequence[Json],
    *,
    command_id: int,
    guild_id: int | None = None,
    resolved: Json | None = None,
    command_type: int = 1,
) -> Json:
    data: Json = {"id": str(command_id), "name": name, "type": command_type}
    if options:
        data["options"] = list(options)
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if resolved:
        data["resolved"] = resolved
    return data


def application_command(
    name: str,
    options: Sequence[Json],
    invoker: Invoker,
    *,
    command_id: int,
    interaction_id: int,
    token: str,
    command_guild_id: int | None = None,
    attachments: Mapping[str, Json] | None = None,
) -> Json:
    """A type 2 interaction: someone ran ``/name`` with ``options`` (Discord's option JSON).

    ``attachments`` are the attachment objects (``attachment``) that ATTACHMENT options name by id.
    """
    data = command_data(
        name,
        options,
        command_id=command_id,
        guild_id=command_guild_id,
        resolved=resolved_for(options, invoker, attachments or {}),
    )
    return _interaction(2, data, invoker, interaction_id=interaction_id, token=token)


def autocomplete(
    name: str,
    options: Sequence[Json],
    invoker: Invoker,
    *,
    command_id: int,
    interaction_id: int,
    token: str,
    command_guild_id: int | None = None,
) -> Json:
    """A type 4 interaction; exactly one (possibly nested) option must carry ``focused: true``."""
    if sum(1 for option in leaf_options(options) if option.get("focused")) != 1:
        raise ValueError("an autocomplete interaction needs exactly one focused option")
    data = command_data(name, options, command_id=command_id, guild_id=command_guild_id)
    return _interaction(4, data, invoker, interaction_id=interaction_id, token=token)


def message_component(
    custom_id: str,
    message: Json,
    invoker: Invoker,
    *,
    component_type: int = 2,
    values: Sequence[str] = (),
    interaction_id: int,
    token: str,
) -> Json:
    """A type 3 interaction: a button press (component_type 2) or a select (3, 5-8) on ``message``."""
    data: Json = {"custom_id": custom_id, "component_type": component_type}
    if component_type != 2:
        data["values"] = list(values)
    return _interaction(3, data, invoker, interaction_id=interaction_id, token=token, message=message)


def modal_submit(
    modal: Json,
    values: Mapping[str, str],
    invoker: Invoker,
    *,
    interaction_id: int,
    token: str,
    message: Json | None = None,
) -> Json:
    """A type 5 interaction: ``modal`` (the data of the bot's type 9 callback) submitted.

    Discord sends the modal's layout back: action rows (1) and labels (18) stay where they were, each
    text input (4) carries its value from ``values`` (keyed by custom_id; empty when absent), a select
    carries no chosen ``values``, and every component carries its ``id`` (numbered in order when the
    bot set none). discord.py 2.7 reads text inputs inside both rows and labels.
    """
    ids = itertools.count(1)

    def submitted(component: Json) -> Json:
        kind = component.get("type")
        answer: Json = {"type": kind, "id": component.get("id") or next(ids)}
        if kind == 1:
            answer["components"] = [submitted(child) for child in component.get("components") or []]
        elif kind == 18:
            answer["component"] = submitted(component["component"])
        elif kind == 4:
            answer.update(custom_id=component["custom_id"], value=values.get(component["custom_id"], ""))
        elif component.get("custom_id"):
            answer.update(custom_id=component["custom_id"], values=[])
        return answer

    data: Json = {
        "custom_id": modal["custom_id"],
        "components": [submitted(component) for component in modal.get("components") or []],
    }
    return _interaction(5, data, invoker, interaction_id=interaction_id, token=token, message=message)


def leaf_options(options: Iterable[Json]) -> list[Json]:
    """The value-carrying options, looking through subcommand (1) and group (2) wrappers."""
    leaves: list[Json] = []
    for option in options:
        if option.get("type") in (1, 2):
            leaves += leaf_options(option.get("options") or [])
        else:
            leaves.append(option)
    return leaves


def resolved_for(options: Sequence[Json], invoker: Invoker, attachments: Mapping[str, Json]) -> Json:
    """``resolved`` data for user, channel, role, mentionable and attachment options, as Discord sends it."""
    resolved: dict[str, Json] = {}
    for option in leaf_options(options):
        kind, value = option.get("type"), str(option.get("value"))
        if kind in (6, 9):  # a mentionable is resolved as a user here
            resolved.setdefault("users", {})[value] = user(int(value), f"user{value[-4:]}")
            if invoker.guild_id is not None:
                entry = member(invoker.with_user(int(value)))
                del entry["user"]
                resolved.setdefault("members", {})[value] = entry
        elif kind == 7:
            channel = text_channel(int(value), invoker.guild_id, name=f"channel-{value[-4:]}")
            channel["permissions"] = str(MEMBER_PERMISSIONS.value)
            resolved.setdefault("channels", {})[value] = channel
        elif kind == 8:
            resolved.setdefault("roles", {})[value] = role(
                int(value), f"role-{value[-4:]}", MEMBER_PERMISSIONS
            )
        elif kind == 11:
            resolved.setdefault("attachments", {})[value] = attachments[value]
    return resolved
