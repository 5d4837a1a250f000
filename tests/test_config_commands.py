"""/config through the loopback: the teacher role, private lookups per server and per channel, the
server's language, and /config show with all of them. (/config moderator-role is tested with the
moderators' commands, in tests/test_curation_commands.py.)"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.classroom.replies import language_line, private_line, teachers_line
from bot.defuse import defuse
from bot.loopback.payloads import DEFAULT_CHANNEL_ID, Invoker
from bot.loopback.session import OfflineSession
from bot.messages.catalogue import Msg, say
from tests.discord_harness import before, buttons, first_message, is_ephemeral

TEACHERS = 1_246_000_000_000_000_888
CLASS_CHANNEL = 1_246_000_000_000_000_321


async def ask(session: OfflineSession, line: str, invoker: Invoker | None = None) -> dict[str, Any]:
    return first_message(await session.invoke(line, invoker=invoker))


def member(session: OfflineSession, *roles: int, channel: int = DEFAULT_CHANNEL_ID) -> Invoker:
    """Someone without Manage Server, holding ``roles``, asking in ``channel``."""
    return replace(session.invoker, user_id=77, moderator=False, extra_roles=roles, channel_id=channel)


def button(body: dict[str, Any], label: Msg) -> dict[str, Any]:
    return next(b for b in buttons(body) if b["label"] == say(label))


# -- teacher role ----------------------------------------------------------------------------------


async def test_setting_a_teacher_role_one_holds_names_it(moderator_session) -> None:
    manager = replace(moderator_session.invoker, extra_roles=(TEACHERS,))
    answer = await ask(moderator_session, f"/config teacher-role role:{TEACHERS}", manager)

    assert is_ephemeral(answer)
    assert answer["content"] == defuse(teachers_line(TEACHERS))
    assert moderator_session.bot.library.teacher_role(moderator_session.invoker.guild_id or 0) == TEACHERS


async def test_setting_a_teacher_role_one_does_not_hold_asks_first(moderator_session) -> None:
    warning = await ask(moderator_session, f"/config teacher-role role:{TEACHERS}")
    assert warning["content"].startswith(before(Msg.TEACHER_ROLE_NOT_HELD, "role"))
    assert moderator_session.bot.library.teacher_role(moderator_session.invoker.guild_id or 0) is None

    set_it = first_message(await moderator_session.press(button(warning, Msg.ROLE_SET_ANYWAY)["custom_id"]))

    assert set_it["content"] == defuse(teachers_line(TEACHERS))


async def test_cancelling_a_teacher_role_leaves_the_moderators_teaching(moderator_session) -> None:
    warning = await ask(moderator_session, f"/config teacher-role role:{TEACHERS}")
    cancelled = first_message(await moderator_session.press(button(warning, Msg.CANCEL)["custom_id"]))

    assert cancelled["content"] == say(Msg.TEACHER_ROLE_CANCELLED)
    assert moderator_session.bot.library.teacher_role(moderator_session.invoker.guild_id or 0) is None


async def test_leaving_the_role_out_makes_the_moderators_teach_again(moderator_session) -> None:
    manager = replace(moderator_session.invoker, extra_roles=(TEACHERS,))
    await ask(moderator_session, f"/config teacher-role role:{TEACHERS}", manager)

    answer = await ask(moderator_session, "/config teacher-role")

    assert answer["content"] == teachers_line(None)


async def test_only_manage_server_sets_the_teacher_role(moderator_session) -> None:
    answer = await ask(
        moderator_session, f"/config teacher-role role:{TEACHERS}", member(moderator_session, TEACHERS)
    )

    assert is_ephemeral(answer)
    assert say(Msg.NOT_A_MANAGER) in answer["content"]


# -- private lookups -------------------------------------------------------------------------------


async def test_lookups_answer_in_the_channel_by_default(discord_session) -> None:
    assert not is_ephemeral(await ask(discord_session, "/incident singh-2020"))


async def test_a_private_server_answers_lookups_privately(moderator_session) -> None:
    answer = await ask(moderator_session, "/config ephemeral setting:on")
    assert answer["content"] == private_line(True)

    someone = member(moderator_session)
    assert is_ephemeral(await ask(moderator_session, "/incident singh-2020", someone))
    assert is_ephemeral(await ask(moderator_session, "/search trudeau", someone))
    assert is_ephemeral(await ask(moderator_session, "/person query:singh", someone))


async def test_a_channel_of_its_own_overrides_the_server(moderator_session) -> None:
    await ask(moderator_session, "/config ephemeral setting:on")
    answer = await ask(moderator_session, f"/config ephemeral setting:off channel:{CLASS_CHANNEL}")
    assert answer["content"] == defuse(private_line(False, CLASS_CHANNEL))

    in_class = await ask(
        moderator_session, "/quote query:i will not", member(moderator_session, channel=CLASS_CHANNEL)
    )
    elsewhere = await ask(moderator_session, "/quote query:i will not", member(moderator_session))

    assert not is_ephemeral(in_class)
    assert is_ephemeral(elsewhere)


async def test_a_private_channel_in_a_public_server(moderator_session) -> None:
    await ask(moderator_session, f"/config ephemeral setting:on channel:{CLASS_CHANNEL}")

    in_class = await ask(
        moderator_session, "/ruling singh-2020", member(moderator_session, channel=CLASS_CHANNEL)
    )
    elsewhere = await ask(moderator_session, "/ruling singh-2020", member(moderator_session))

    assert is_ephemeral(in_class)
    assert not is_ephemeral(elsewhere)


async def test_a_channel_can_follow_the_server_again(moderator_session) -> None:
    await ask(moderator_session, f"/config ephemeral setting:on channel:{CLASS_CHANNEL}")
    answer = await ask(moderator_session, f"/config ephemeral setting:server channel:{CLASS_CHANNEL}")

    assert answer["content"] == say(Msg.PRIVATE_CHANNEL_FOLLOWS, channel=f"<#{CLASS_CHANNEL}>")
    in_class = await ask(
        moderator_session, "/incident singh-2020", member(moderator_session, channel=CLASS_CHANNEL)
    )
    assert not is_ephemeral(in_class)


async def test_following_the_server_needs_a_channel(moderator_session) -> None:
    answer = await ask(moderator_session, "/config ephemeral setting:server")

    assert is_ephemeral(answer)
    assert say(Msg.PRIVATE_FOLLOWS_NEEDS_CHANNEL) in answer["content"]


async def test_only_manage_server_makes_lookups_private(moderator_session) -> None:
    answer = await ask(moderator_session, "/config ephemeral setting:on", member(moderator_session))

    assert say(Msg.NOT_A_MANAGER) in answer["content"]
    assert not is_ephemeral(await ask(moderator_session, "/incident singh-2020", member(moderator_session)))


# -- language --------------------------------------------------------------------------------------


async def test_the_servers_language_is_stored(moderator_session) -> None:
    answer = await ask(moderator_session, "/config language language:fr")

    assert answer["content"] == language_line("fr")
    assert moderator_session.bot.library.guild_language(moderator_session.invoker.guild_id) == "fr"


async def test_leaving_the_language_out_goes_back_to_english(moderator_session) -> None:
    await ask(moderator_session, "/config language language:fr")
    answer = await ask(moderator_session, "/config language")

    assert answer["content"] == say(Msg.LANGUAGE_UNSET)
    assert moderator_session.bot.library.guild_language(moderator_session.invoker.guild_id) is None


# -- show ------------------------------------------------------------------------------------------


async def test_show_tells_every_setting(moderator_session) -> None:
    manager = replace(moderator_session.invoker, extra_roles=(TEACHERS,))
    await ask(moderator_session, f"/config teacher-role role:{TEACHERS}", manager)
    await ask(moderator_session, "/config language language:fr")
    await ask(moderator_session, f"/config ephemeral setting:on channel:{CLASS_CHANNEL}")

    shown = (await ask(moderator_session, "/config show"))["content"]

    for line in (
        say(Msg.SETTINGS_TITLE),
        say(Msg.MODERATORS_MANAGE_SERVER),
        defuse(teachers_line(TEACHERS)),
        language_line("fr"),
        private_line(False),
        defuse(private_line(True, CLASS_CHANNEL)),
        say(Msg.SETTINGS_HINT),
    ):
        assert line in shown


async def test_show_never_pings_the_roles_it_names(moderator_session) -> None:
    manager = replace(moderator_session.invoker, extra_roles=(TEACHERS,))
    await ask(moderator_session, f"/config teacher-role role:{TEACHERS}", manager)

    shown = await ask(moderator_session, "/config show")

    assert shown["allowed_mentions"] == {"parse": []}
