"""/help through the loopback: generated from the command tree, each command (and each subcommand of a
group) listed in the first of the asker's sections that may run it: everyone's, the teachers', the
moderators'."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.curation.changes import Actor
from bot.loopback.payloads import Invoker
from bot.loopback.session import OfflineSession
from bot.messages.catalogue import Msg, say, speaking
from tests.discord_harness import all_text, first_message, is_ephemeral

TEACHERS = 1_246_000_000_000_000_888


async def help_for(session: OfflineSession, invoker: Invoker | None = None) -> dict[str, Any]:
    return first_message(await session.invoke("/help", invoker=invoker))


def sections(body: dict[str, Any]) -> dict[str, list[str]]:
    """Each embed's title and the usages it lists."""
    return {embed["title"]: [f["name"] for f in embed.get("fields", [])] for embed in body["embeds"]}


def teacher(session: OfflineSession, *, locale: str = "en-US") -> Invoker:
    """A member who holds the guild's teacher role (named here) and is no moderator."""
    guild_id = session.invoker.guild_id or 0
    session.bot.library.set_teacher_role(actor=Actor(guild_id, 1), role_id=TEACHERS)
    return replace(session.invoker, user_id=77, moderator=False, extra_roles=(TEACHERS,), locale=locale)


async def test_help_lists_every_command_from_the_tree(discord_session) -> None:
    body = await help_for(discord_session)
    text = all_text(body)
    for usage in ("/incident query", "/who-objected query", "/quote query", "/ruling query", "/person query"):
        assert usage in text
    assert is_ephemeral(body)


async def test_help_shows_a_member_only_the_commands_they_can_use(discord_session) -> None:
    body = await help_for(discord_session)
    usages = [f["name"] for embed in body["embeds"] for f in embed["fields"]]
    assert "/suggest incident|participant|quote|ruling|motion|position|person|party|source|alias" in usages
    assert not [usage for usage in usages if usage.split()[0] in {"/add", "/review", "/undo", "/config"}]
    assert [embed["title"] for embed in body["embeds"]] == [say(Msg.HELP_TITLE)]


async def test_help_shows_a_member_the_subcommands_of_a_group_they_can_use(discord_session) -> None:
    usages = sections(await help_for(discord_session))[say(Msg.HELP_TITLE)]
    assert "/collection show [name]" in usages
    assert "/quiz start|next|stop|scores" in usages
    assert not [usage for usage in usages if usage.startswith(("/collection add", "/collection remove"))]
    assert not [usage for usage in usages if "clear-scores" in usage]


async def test_help_shows_teachers_their_commands_in_a_section_of_their_own(moderator_session) -> None:
    shown = sections(await help_for(moderator_session, teacher(moderator_session)))
    assert list(shown) == [say(Msg.HELP_TITLE), say(Msg.HELP_TEACHERS_TITLE)]
    ours = shown[say(Msg.HELP_TEACHERS_TITLE)]
    assert {"/collection add|remove", "/quiz add|clear-scores"} <= set(ours)
    assert {" ".join(usage.split()[:2]) for usage in ours} >= {"/add term", "/edit term", "/remove term"}
    assert "/collection show [name]" in shown[say(Msg.HELP_TITLE)]


async def test_help_shows_moderators_their_commands_in_a_section_of_their_own(moderator_session) -> None:
    shown = sections(await help_for(moderator_session))
    # No teacher role is named, so the moderators teach: they see the teachers' section too.
    assert list(shown) == [say(Msg.HELP_TITLE), say(Msg.HELP_TEACHERS_TITLE), say(Msg.HELP_MODERATORS_TITLE)]
    ours = {usage.split()[0] for usage in shown[say(Msg.HELP_MODERATORS_TITLE)]}
    assert {"/add", "/edit", "/remove", "/review", "/history", "/config", "/import"} <= ours
    assert "/undo" in {usage.split()[0] for usage in shown[say(Msg.HELP_TEACHERS_TITLE)]}  # teachers undo too
    assert "/incident query" in shown[say(Msg.HELP_TITLE)]
    assert not ours & {usage.split()[0] for usage in shown[say(Msg.HELP_TITLE)]}


async def test_a_moderator_who_does_not_teach_finds_the_glossary_terms_among_the_moderators_commands(
    moderator_session,
) -> None:
    teacher(moderator_session)  # the guild names a teacher role the moderator does not hold
    shown = sections(await help_for(moderator_session))
    assert list(shown) == [say(Msg.HELP_TITLE), say(Msg.HELP_MODERATORS_TITLE)]
    adding = next(u for u in shown[say(Msg.HELP_MODERATORS_TITLE)] if u.startswith("/add "))
    assert {"incident", "term", "alias"} <= set(adding.removeprefix("/add ").split("|"))
    assert not [usage for usage in shown[say(Msg.HELP_TITLE)] if usage.startswith("/collection add")]


async def test_help_in_french_lists_the_teachers_commands_in_french(moderator_session) -> None:
    shown = sections(await help_for(moderator_session, teacher(moderator_session, locale="fr")))
    with speaking("fr"):
        everyone, teachers = say(Msg.HELP_TITLE), say(Msg.HELP_TEACHERS_TITLE)
    assert list(shown) == [everyone, teachers]
    assert {"/collection ajouter|retirer", "/quiz ajouter|effacer-pointages"} <= set(shown[teachers])
    assert "/collection afficher [nom]" in shown[everyone]


async def test_help_names_options_as_discord_shows_them_in_either_language(discord_session) -> None:
    """A renamed option (``/timeline``'s ``start`` is ``from``) reads as members type it."""
    english = sections(await help_for(discord_session))[say(Msg.HELP_TITLE)]
    french_asker = replace(discord_session.invoker, locale="fr")
    french = sections(await help_for(discord_session, french_asker))
    assert "/timeline [chamber] [person] [from] [to]" in english
    assert "/chronologie [chambre] [personne] [de] [à]" in next(iter(french.values()))
