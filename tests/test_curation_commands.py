"""The moderators' commands end to end: raw interaction payloads through the CommandTree, answers
read from the JSON discord.py sent to the loopback Discord (which rejects bodies over Discord's limits).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.loopback import payloads
from bot.loopback.payloads import Invoker
from bot.loopback.session import OfflineSession
from tests.discord_harness import all_text, first_message, is_ephemeral

OTHER_GUILD = 1_246_000_000_000_000_999

SOURCE = "/add source key:doe-2021-example publisher:Example url:https://example.org/doe"
PERSON = '/add person slug:jane-doe name:"Jane Doe" party:new-democratic-party'
INCIDENT = (
    '/add incident slug:doe-2021 title:"Jane Doe named by the Speaker" date:2021-03-04'
    ' chamber:ca-house-of-commons kind:naming source:doe-2021-example summary:"The Speaker named Jane Doe."'
)
MOTION = (
    '/add motion incident:doe-2021 procedure:unanimous_consent result:not_moved'
    ' text:"That the House apologise." moved_by:jane-doe source:doe-2021-example'
)
POSITION = (
    "/add position incident:doe-2021 motion:1 stance:object attribution:news_reported"
    " party:bloc-quebecois source:doe-2021-example"
)
QUOTE = '/add quote incident:doe-2021 text:"Quixotic quokkas quarrel." speaker:jane-doe source:doe-2021-example'
RULING = (
    '/add ruling incident:doe-2021 outcome:named summary:"Named the member."'
    ' ruled_by_label:"Speaker Anthony Rota" source:doe-2021-example'
)
SCENARIO = (SOURCE, PERSON, INCIDENT, MOTION, POSITION, QUOTE, RULING)


async def ask(session: OfflineSession, line: str, invoker: Invoker | None = None) -> dict[str, Any]:
    return first_message(await session.invoke(line, invoker=invoker))


def member(session: OfflineSession, user_id: int = 77) -> Invoker:
    """Someone without Manage Server and without roles, in the session's guild."""
    return replace(session.invoker, user_id=user_id, moderator=False, extra_roles=())


def in_other_guild(session: OfflineSession) -> Invoker:
    other = replace(member(session), guild_id=OTHER_GUILD)
    session.bot._connection.parsers["GUILD_CREATE"](payloads.guild_create(other))
    return other


async def run_scenario(session: OfflineSession) -> list[dict[str, Any]]:
    return [await ask(session, line) for line in SCENARIO]


async def test_a_moderator_builds_an_incident_that_members_of_that_guild_find(moderator_session) -> None:
    answers = await run_scenario(moderator_session)
    for answer in answers:
        assert is_ephemeral(answer), answer
        assert "/undo" in answer["content"], answer["content"]
    someone = member(moderator_session)
    incident = await ask(moderator_session, "/incident doe-2021", someone)
    assert incident["embeds"][0]["title"] == "Jane Doe named by the Speaker"
    objected = all_text(await ask(moderator_session, "/who-objected doe-2021", someone))
    assert "Bloc Québécois" in objected
    assert "Moved by: Jane Doe" in objected
    quote = await ask(moderator_session, '/quote query:"quixotic quokkas"', someone)
    assert quote["embeds"][0]["description"] == "> Quixotic quokkas quarrel."
    ruling = all_text(await ask(moderator_session, "/ruling doe-2021", someone))
    assert "Named the member." in ruling
