"""The moderators' commands end to end: raw interaction payloads through the CommandTree, answers
read from the JSON discord.py sent to the loopback Discord (which rejects bodies over Discord's limits).
Our words are asserted through the catalogue (``say``); the entries' own texts as they are.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord
import pytest
from sqlmodel import func, select

from bot.curation.changes import kind_name
from bot.limits import COMMAND_TOTAL_CHARACTERS
from bot.loopback import payloads
from bot.loopback.payloads import Invoker
from bot.loopback.rest import RecordedRequest, command_characters
from bot.loopback.session import OfflineSession, modal_fields, modals
from bot.messages.catalogue import Msg, say
from db.dataset.schema import IncidentEntry
from db.models import TEXT_MAX, TITLE_MAX, AuditEntry, EntityKind
from tests.discord_harness import all_text, before, buttons, choices, first_message, is_ephemeral

OTHER_GUILD = 1_246_000_000_000_000_999
CURATORS = 1_246_000_000_000_000_777

SOURCE = "/add source key:doe-2021-example publisher:Example url:https://example.org/doe"
PERSON = '/add person slug:jane-doe name:"Jane Doe" party:new-democratic-party'
INCIDENT = (
    '/add incident slug:doe-2021 title:"Jane Doe named by the Speaker" date:2021-03-04'
    ' chamber:ca-house-of-commons kind:naming source:doe-2021-example summary:"The Speaker named Jane Doe."'
)
MOTION = (
    "/add motion incident:doe-2021 procedure:unanimous_consent result:not_moved"
    ' text:"That the House apologise." moved_by:jane-doe source:doe-2021-example'
)
POSITION = (
    "/add position incident:doe-2021 motion:1 stance:object attribution:news_reported"
    " party:bloc-quebecois source:doe-2021-example"
)
QUOTE = (
    '/add quote incident:doe-2021 text:"Quixotic quokkas quarrel." speaker:jane-doe source:doe-2021-example'
)
RULING = (
    '/add ruling incident:doe-2021 outcome:named summary:"Named the member."'
    ' ruled_by_label:"Speaker Anthony Rota" source:doe-2021-example'
)
PARTICIPANT = (
    '/add participant incident:doe-2021 person:jane-doe role:"Member for Example Centre"'
    ' party_label:"an NDP member"'
)
SCENARIO = (SOURCE, PERSON, INCIDENT, MOTION, POSITION, QUOTE, RULING)
POSITION_IN_SINGH = "/add position incident:singh-2020 motion:1 stance:object attribution:inferred"
COMMAND_HEADROOM = 400  # room left under Discord's cap for the next option or two


async def ask(session: OfflineSession, line: str, invoker: Invoker | None = None) -> dict[str, Any]:
    return first_message(await session.invoke(line, invoker=invoker))


def member(session: OfflineSession, user_id: int = 77) -> Invoker:
    """Someone without Manage Server and without roles, in the session's guild."""
    return replace(session.invoker, user_id=user_id, moderator=False, extra_roles=())


def in_other_guild(session: OfflineSession) -> Invoker:
    other = replace(member(session), guild_id=OTHER_GUILD)
    session.bot._connection.parsers["GUILD_CREATE"](payloads.guild_create(other))
    return other


def moderator_elsewhere(session: OfflineSession) -> Invoker:
    """The session's moderator, in another guild the bot is in (where they hold Manage Server too)."""
    return replace(in_other_guild(session), user_id=session.invoker.user_id, moderator=True)


def audit_count(session: OfflineSession) -> int:
    with session.bot.library.database.session() as db:
        return db.exec(select(func.count()).select_from(AuditEntry)).one()


async def quote_found(session: OfflineSession, text: str) -> bool:
    """Whether ``/quote`` finds the quote whose words are exactly ``text``."""
    answer = await ask(session, f'/quote query:"{text}"', member(session))
    return (answer.get("embeds") or [{}])[0].get("description") == f"> {text}"


async def run_scenario(session: OfflineSession) -> list[dict[str, Any]]:
    return [await ask(session, line) for line in SCENARIO]


def done(summary: str, change: int) -> str:
    """What a moderator is told after a write: the audit's summary as a sentence, and its number."""
    return say(Msg.DONE, summary=summary[:1].upper() + summary[1:], change=change)


def entry(kind: EntityKind, key: str) -> str:
    """An entry in our words ("person jagmeet-singh")."""
    return f"{kind_name(kind)} {key}"


def part_of(part: Msg, number: int, owner: str) -> str:
    """A numbered part in our words ("quote 4 of singh-2020")."""
    return say(Msg.PART_OF, part=say(part), number=number, owner=owner)


def added_to(added: str, owner: str) -> str:
    """The audit's summary of an added part ("added a quote by Jagmeet Singh to singh-2020")."""
    return say(Msg.ADDED_SUMMARY, what=say(Msg.ADDED_TO, added=added, owner=owner))


SINGH_QUOTE = f"{part_of(Msg.PART_QUOTE, 4, 'singh-2020')} (“I will not.” — Jagmeet Singh)"
QUOTE_9 = say(Msg.PLACE, part=say(Msg.PART_QUOTE), number=9)
QUOTE_BY_SINGH = say(Msg.PART_BY, part=say(Msg.PART_QUOTE), who="Jagmeet Singh")


async def test_a_moderator_builds_an_incident_that_members_of_that_guild_find(moderator_session) -> None:
    answers = await run_scenario(moderator_session)
    for answer in answers:
        assert is_ephemeral(answer), answer
        assert say(Msg.UNDO_HINT) in answer["content"], answer["content"]
    someone = member(moderator_session)
    incident = await ask(moderator_session, "/incident doe-2021", someone)
    assert incident["embeds"][0]["title"] == "Jane Doe named by the Speaker"
    objected = all_text(await ask(moderator_session, "/who-objected doe-2021", someone))
    assert "Bloc Québécois" in objected
    assert say(Msg.MOVED_BY, who="Jane Doe") in objected
    quote = await ask(moderator_session, '/quote query:"quixotic quokkas"', someone)
    assert quote["embeds"][0]["description"] == "> Quixotic quokkas quarrel."
    ruling = all_text(await ask(moderator_session, "/ruling doe-2021", someone))
    assert "Named the member." in ruling


def button(body: dict[str, Any], label: Msg) -> dict[str, Any]:
    return next(b for b in buttons(body) if b["label"] == say(label))


def opened_modal(requests: Sequence[RecordedRequest]) -> dict[str, Any]:
    shown = modals(requests)
    assert shown, f"no modal was opened: {[(r.route, r.body) for r in requests]}"
    return shown[0]


async def test_the_new_incident_is_not_found_in_another_guild(moderator_session) -> None:
    await run_scenario(moderator_session)
    stranger = in_other_guild(moderator_session)
    answer = await ask(moderator_session, "/incident doe-2021", stranger)
    assert "Jane Doe" not in all_text(answer)


async def test_a_member_without_manage_server_is_refused_and_nothing_is_written(discord_session) -> None:
    answer = await ask(discord_session, SOURCE)
    assert is_ephemeral(answer)
    assert say(Msg.NOT_A_MODERATOR) in answer["content"]
    assert audit_count(discord_session) == 0


async def test_once_a_role_is_set_its_holders_moderate_and_manage_server_alone_does_not(
    moderator_session,
) -> None:
    manager = replace(moderator_session.invoker, extra_roles=(CURATORS,))  # Manage Server, holding the role
    answer = await ask(moderator_session, f"/config moderator-role role:{CURATORS}", manager)
    assert say(Msg.MODERATORS_ROLE, role=f"<@&{CURATORS}>") in answer["content"]
    curator = replace(member(moderator_session), extra_roles=(CURATORS,))
    added = say(Msg.ADDED_SUMMARY, what=entry(EntityKind.SOURCE, "doe-2021-example"))
    assert (await ask(moderator_session, SOURCE, curator))["content"].startswith(done(added, 1))
    refused = await ask(moderator_session, PERSON)  # Manage Server, without the role
    assert say(Msg.NOT_A_MODERATOR) in refused["content"]
    assert audit_count(moderator_session) == 1
    shown = await ask(moderator_session, "/config show")  # Manage Server may always see and change it
    assert say(Msg.MODERATORS_ROLE, role=f"<@&{CURATORS}>") in shown["content"]


async def test_setting_a_role_one_does_not_hold_asks_first(moderator_session) -> None:
    warning = await ask(moderator_session, f"/config moderator-role role:{CURATORS}")
    assert is_ephemeral(warning)
    assert warning["content"].startswith(before(Msg.ROLE_NOT_HELD, "role"))
    assert say(Msg.MODERATORS_MANAGE_SERVER) in (await ask(moderator_session, "/config show"))["content"]
    set_it = first_message(await moderator_session.press(button(warning, Msg.ROLE_SET_ANYWAY)["custom_id"]))
    assert say(Msg.MODERATORS_ROLE, role=f"<@&{CURATORS}>") in set_it["content"]
    shown = await ask(moderator_session, "/config show")
    assert say(Msg.MODERATORS_ROLE, role=f"<@&{CURATORS}>") in shown["content"]


async def test_cancelling_a_role_one_does_not_hold_leaves_the_setting(moderator_session) -> None:
    warning = await ask(moderator_session, f"/config moderator-role role:{CURATORS}")
    cancelled = first_message(await moderator_session.press(button(warning, Msg.CANCEL)["custom_id"]))
    assert cancelled["content"] == say(Msg.ROLE_CANCELLED)
    assert say(Msg.MODERATORS_MANAGE_SERVER) in (await ask(moderator_session, "/config show"))["content"]


async def test_only_manage_server_changes_the_moderator_role(moderator_session) -> None:
    curator = replace(member(moderator_session), extra_roles=(CURATORS,))
    answer = await ask(moderator_session, f"/config moderator-role role:{CURATORS}", curator)
    assert say(Msg.NOT_A_MANAGER) in answer["content"]
    assert say(Msg.MODERATORS_MANAGE_SERVER) in (await ask(moderator_session, "/config show"))["content"]


def stored_incident(session: OfflineSession, slug: str, guild_id: int | None = None) -> IncidentEntry:
    found = session.bot.library.visible_entry(
        guild_id=guild_id or session.invoker.guild_id, kind=EntityKind.INCIDENT, key=slug
    )
    assert isinstance(found, IncidentEntry)
    return found


async def test_a_speakers_display_name_and_an_incidents_name_resolve_and_the_quote_keeps_the_slugs(
    moderator_session,
) -> None:
    answer = await ask(
        moderator_session,
        '/add quote incident:singh text:"Quixotic quokkas quarrel." speaker:"Jagmeet Singh" source:castanet',
    )
    assert answer["content"].startswith(done(added_to(QUOTE_BY_SINGH, "singh-2020"), 1)), answer["content"]
    quote = stored_incident(moderator_session, "singh-2020").quotes[-1]
    assert (quote.speaker, quote.source) == ("jagmeet-singh", "singh-2020-castanet")


async def test_a_partys_abbreviation_resolves_to_its_slug(moderator_session) -> None:
    answer = await ask(moderator_session, f"{POSITION_IN_SINGH} party:ndp source:cbc")
    assert say(Msg.UNDO_HINT) in answer["content"], answer["content"]
    position = stored_incident(moderator_session, "singh-2020").motions[0].positions[-1]
    assert (position.party, position.label, position.source) == (
        "new-democratic-party",
        "New Democratic Party",
        "singh-2020-cbc",
    )


async def test_a_name_close_to_several_people_is_refused_with_the_choices_and_nothing_is_saved(
    moderator_session,
) -> None:
    answer = await ask(
        moderator_session,
        '/add quote incident:singh-2020 text:"My careful words." speaker:trudeau source:singh-2020-cbc',
    )
    person = kind_name(EntityKind.PERSON)
    assert answer["content"].startswith(
        before(Msg.REFERENCE_AMBIGUOUS, "choices", option="speaker", text="trudeau", kind=person)
    ), answer["content"]
    assert "• Justin Trudeau (LPC) — `justin-trudeau`" in answer["content"]
    assert "— `pierre-trudeau`" in answer["content"]
    assert say(Msg.NOTHING_SAVED) in answer["content"]
    assert "My careful words." in answer["content"]
    assert audit_count(moderator_session) == 0


async def test_a_rulings_subject_given_by_name_is_saved_as_the_person_and_shown_by_ruling(
    moderator_session,
) -> None:
    line = (
        '/add ruling incident:singh-2020 outcome:warned summary:"Warned him." ruled_by:"Anthony Rota"'
        ' subject:"Jagmeet Singh" source:cbc'
    )
    answer = await ask(moderator_session, line)
    assert say(Msg.UNDO_HINT) in answer["content"], answer["content"]
    ruling = stored_incident(moderator_session, "singh-2020").rulings[-1]
    assert (ruling.ruled_by, ruling.subject) == ("anthony-rota", "jagmeet-singh")

    shown = await ask(moderator_session, "/ruling query:singh-2020")

    assert "Anthony Rota ruled on Jagmeet Singh: warned" in all_text(shown)


async def test_a_name_that_matches_no_one_is_refused_with_suggestions(moderator_session) -> None:
    line = '/add ruling incident:singh-2020 outcome:warned summary:"Warned." ruled_by:zzqx-nobody'
    answer = await ask(moderator_session, line)
    unknown = before(
        Msg.REFERENCE_UNKNOWN_SUGGESTING,
        "choices",
        option="ruled_by",
        text="zzqx-nobody",
        kind=kind_name(EntityKind.PERSON),
    )
    assert answer["content"].startswith(unknown), answer["content"]
    assert answer["content"].count("\n• ") >= 3
    assert "Warned." in answer["content"]
    assert audit_count(moderator_session) == 0


async def test_a_source_matching_none_of_the_incidents_is_refused_with_them(moderator_session) -> None:
    answer = await ask(moderator_session, f"{POSITION_IN_SINGH} party:ndp source:globe")
    source = kind_name(EntityKind.SOURCE)
    assert answer["content"].startswith(
        before(Msg.REFERENCE_UNKNOWN_SUGGESTING, "choices", option="source", text="globe", kind=source)
    ), answer["content"]
    assert "CBC News — `singh-2020-cbc`" in answer["content"]
    assert audit_count(moderator_session) == 0


async def test_a_submitted_autocomplete_value_resolves_exactly(moderator_session) -> None:
    listed = choices(await moderator_session.complete("/add participant incident:singh-2020 person:pierre"))
    assert listed[0]["value"] == "pierre-poilievre", listed
    answer = await ask(
        moderator_session, '/add participant incident:singh-2020 person:pierre-poilievre role:"Member"'
    )
    assert say(Msg.UNDO_HINT) in answer["content"], answer["content"]
    assert stored_incident(moderator_session, "singh-2020").participants[-1].person == "pierre-poilievre"


async def test_a_guilds_own_person_is_found_by_name_there_and_not_elsewhere(moderator_session) -> None:
    await ask(moderator_session, PERSON)
    line = '/suggest participant incident:singh-2020 person:"Jane Doe" role:"Member"'
    here = await ask(moderator_session, line, member(moderator_session))
    assert here["content"].startswith(before(Msg.SUGGESTED, "summary", suggestion=1)), here["content"]
    elsewhere = await ask(moderator_session, line, in_other_guild(moderator_session))
    person = kind_name(EntityKind.PERSON)
    assert elsewhere["content"].startswith(
        before(Msg.REFERENCE_UNKNOWN_SUGGESTING, "choices", option="person", text="Jane Doe", kind=person)
    ), elsewhere["content"]
    assert "jane-doe" not in elsewhere["content"]


async def test_a_duplicate_slug_is_refused(moderator_session) -> None:
    await ask(moderator_session, SOURCE)
    answer = await ask(moderator_session, INCIDENT.replace("slug:doe-2021", "slug:singh-2020"))
    an_incident = kind_name(EntityKind.INCIDENT, article=True)
    assert say(Msg.ALREADY_EXISTS, a_kind=an_incident, key="singh-2020") in answer["content"]


async def test_a_date_that_does_not_parse_asks_for_yyyy_mm_dd(moderator_session) -> None:
    await ask(moderator_session, SOURCE)
    answer = await ask(moderator_session, INCIDENT.replace("2021-03-04", "2021-02-30"))
    assert say(Msg.NOT_A_DATE, path="`date`", value="2021-02-30") in answer["content"]
    assert audit_count(moderator_session) == 1


async def test_a_quote_without_a_source_is_refused_naming_the_quote_and_the_incidents_sources(
    moderator_session,
) -> None:
    await ask(moderator_session, '/add quote incident:singh text:"Words." speaker:"Jagmeet Singh" source:cbc')
    answer = await ask(
        moderator_session, '/add quote incident:singh text:"More words." speaker:"Jagmeet Singh"'
    )
    keys = ", ".join(f"`{key}`" for key in stored_incident(moderator_session, "singh-2020").sources)
    quote_10 = say(Msg.PLACE, part=say(Msg.PART_QUOTE), number=10)
    needs = say(Msg.SOURCE_REQUIRED, path=quote_10, sources=say(Msg.ONE_OF_SOURCES, keys=keys))
    assert answer["content"].startswith(say(Msg.CANNOT_SAVE, problem=needs)), answer["content"]
    assert "`singh-2020-cbc`" in keys
    assert say(Msg.NOTHING_SAVED) in answer["content"]
    assert audit_count(moderator_session) == 1


async def test_text_options_carry_the_database_limits(moderator_session) -> None:
    add = moderator_session.bot.tree.get_command("add", type=discord.AppCommandType.chat_input)
    incident = add.to_dict(moderator_session.bot.tree)["options"][0]
    limits = {option["name"]: option.get("max_length") for option in incident["options"]}
    assert limits["title"] == TITLE_MAX
    assert limits["summary"] == TEXT_MAX


async def test_an_add_without_its_long_text_opens_a_form_that_saves_it(moderator_session) -> None:
    requests = await moderator_session.invoke('/add quote incident:singh speaker:"Jagmeet Singh" source:cbc')
    modal = opened_modal(requests)
    assert {f.custom_id: f.max_length for f in modal_fields(modal)}["text"] == TEXT_MAX
    answer = first_message(
        await moderator_session.submit(modal["custom_id"], {"text": "Quixotic quokkas quarrel."})
    )
    assert answer["content"].startswith(done(added_to(QUOTE_BY_SINGH, "singh-2020"), 1))
    found = await ask(moderator_session, '/quote query:"quixotic quokkas"', member(moderator_session))
    assert found["embeds"][0]["description"] == "> Quixotic quokkas quarrel."


async def test_a_refused_form_hands_back_the_text_so_nothing_is_lost(moderator_session) -> None:
    requests = await moderator_session.invoke("/add quote incident:singh-2020 speaker:jagmeet-singh")
    modal = opened_modal(requests)
    answer = first_message(await moderator_session.submit(modal["custom_id"], {"text": "My careful words."}))
    assert before(Msg.SOURCE_REQUIRED, "sources", path=QUOTE_9) in answer["content"]
    assert "My careful words." in answer["content"]
    assert is_ephemeral(answer)


async def test_an_edit_is_answered_by_the_next_lookup(moderator_session) -> None:
    await ask(moderator_session, '/edit incident incident:singh-2020 title:"A corrected title"')
    answer = await ask(moderator_session, "/incident singh-2020", member(moderator_session))
    assert answer["embeds"][0]["title"] == "A corrected title"


async def test_an_edit_after_a_lookup_is_answered_by_the_next_lookup(moderator_session) -> None:
    await ask(moderator_session, "/incident singh-2020", member(moderator_session))
    await ask(moderator_session, '/edit incident incident:singh-2020 title:"A corrected title"')
    answer = await ask(moderator_session, "/incident singh-2020", member(moderator_session))
    assert answer["embeds"][0]["title"] == "A corrected title"


async def test_an_edit_without_changes_opens_the_current_text_and_saves_the_change(moderator_session) -> None:
    modal = opened_modal(await moderator_session.invoke("/edit quote incident:singh-2020 number:4"))
    assert {f.custom_id: f.value for f in modal_fields(modal)}["text"] == "I will not."
    await moderator_session.submit(modal["custom_id"], {"text": "I will not!"})
    answer = await ask(moderator_session, '/quote query:"i will not"', member(moderator_session))
    assert answer["embeds"][0]["description"] == "> I will not!"


async def test_a_form_opened_before_someone_elses_edit_is_refused_as_a_conflict(moderator_session) -> None:
    modal = opened_modal(await moderator_session.invoke("/edit quote incident:singh-2020 number:4"))
    second = replace(moderator_session.invoker, user_id=9)
    await ask(moderator_session, '/edit quote incident:singh-2020 number:4 said_to:"the Chair"', second)
    answer = first_message(await moderator_session.submit(modal["custom_id"], {"text": "I won't."}))
    changed = say(Msg.CHANGED_MEANWHILE, kind=kind_name(EntityKind.INCIDENT), key="singh-2020")
    assert changed in answer["content"]
    assert "I won't." in answer["content"]


async def test_a_form_sent_from_another_server_writes_nothing_and_hands_back_the_text(
    moderator_session,
) -> None:
    modal = opened_modal(await moderator_session.invoke("/edit quote incident:singh-2020 number:4"))

    refusal = first_message(
        await moderator_session.submit(
            modal["custom_id"], {"text": "I will not!"}, invoker=moderator_elsewhere(moderator_session)
        )
    )

    assert is_ephemeral(refusal)
    assert refusal["content"].startswith(say(Msg.ANOTHER_SERVER))
    assert "I will not!" in refusal["content"]
    assert audit_count(moderator_session) == 0


async def test_a_form_sent_after_losing_the_moderator_right_writes_nothing_and_hands_back_the_text(
    moderator_session,
) -> None:
    modal = opened_modal(await moderator_session.invoke("/edit quote incident:singh-2020 number:4"))
    demoted = replace(moderator_session.invoker, moderator=False)

    refusal = first_message(
        await moderator_session.submit(modal["custom_id"], {"text": "I will not!"}, invoker=demoted)
    )

    assert refusal["content"].startswith(say(Msg.NOT_A_MODERATOR))
    assert "I will not!" in refusal["content"]
    assert audit_count(moderator_session) == 0


async def test_a_form_sent_by_another_member_than_the_one_it_was_opened_for_writes_nothing(
    moderator_session,
) -> None:
    modal = opened_modal(await moderator_session.invoke("/edit quote incident:singh-2020 number:4"))
    other_moderator = replace(moderator_session.invoker, user_id=9)

    refusal = first_message(
        await moderator_session.submit(modal["custom_id"], {"text": "I will not!"}, invoker=other_moderator)
    )

    assert refusal["content"] == say(Msg.FORM_NOT_YOURS)
    assert audit_count(moderator_session) == 0


async def test_remove_asks_first_and_refuses_anyone_else(moderator_session) -> None:
    prompt = await ask(moderator_session, "/remove quote incident:singh-2020 number:4")
    assert is_ephemeral(prompt)
    assert prompt["content"] == say(Msg.REMOVAL_CONFIRM, what=SINGH_QUOTE)
    stranger = replace(moderator_session.invoker, user_id=9)
    refusal = first_message(
        await moderator_session.press(button(prompt, Msg.REMOVE)["custom_id"], invoker=stranger)
    )
    assert say(Msg.REMOVAL_NOT_YOURS) in refusal["content"]
    assert await quote_found(moderator_session, "I will not.")


async def test_a_removal_confirmed_from_another_server_removes_nothing(moderator_session) -> None:
    prompt = await ask(moderator_session, "/remove quote incident:singh-2020 number:4")

    refusal = first_message(
        await moderator_session.press(
            button(prompt, Msg.REMOVE)["custom_id"], invoker=moderator_elsewhere(moderator_session)
        )
    )

    assert is_ephemeral(refusal)
    assert refusal["content"] == say(Msg.ANOTHER_SERVER)
    assert await quote_found(moderator_session, "I will not.")


async def test_a_removal_confirmed_after_losing_the_moderator_right_removes_nothing(
    moderator_session,
) -> None:
    prompt = await ask(moderator_session, "/remove quote incident:singh-2020 number:4")
    demoted = replace(moderator_session.invoker, moderator=False)

    refusal = first_message(
        await moderator_session.press(button(prompt, Msg.REMOVE)["custom_id"], invoker=demoted)
    )

    assert refusal["content"] == say(Msg.NOT_A_MODERATOR)
    assert await quote_found(moderator_session, "I will not.")


async def test_confirmed_removal_hides_the_quote_and_undo_brings_it_back(moderator_session) -> None:
    prompt = await ask(moderator_session, "/remove quote incident:singh-2020 number:4")
    removed = first_message(await moderator_session.press(button(prompt, Msg.REMOVE)["custom_id"]))
    summary = say(Msg.REMOVED_PART_SUMMARY, what=SINGH_QUOTE)
    assert removed["content"].startswith(done(summary, 1))
    assert not buttons(removed)
    assert not await quote_found(moderator_session, "I will not.")
    undone = await ask(moderator_session, "/undo")
    assert undone["content"] == done(say(Msg.UNDID_SUMMARY, change=1, summary=summary), 2)
    assert await quote_found(moderator_session, "I will not.")


async def test_removing_a_whole_incident_hides_it_until_undone(moderator_session) -> None:
    prompt = await ask(moderator_session, "/remove incident incident:singh-2020")
    assert prompt["content"] == say(Msg.REMOVAL_CONFIRM, what=entry(EntityKind.INCIDENT, "singh-2020"))
    await moderator_session.press(button(prompt, Msg.REMOVE)["custom_id"])
    gone = await ask(moderator_session, "/incident singh-2020", member(moderator_session))
    assert "Jagmeet Singh ordered out" not in all_text(gone)
    await ask(moderator_session, "/undo entry:1")
    back = await ask(moderator_session, "/incident singh-2020", member(moderator_session))
    assert "Jagmeet Singh ordered out" in back["embeds"][0]["title"]


async def test_cancel_removes_nothing(moderator_session) -> None:
    prompt = await ask(moderator_session, "/remove quote incident:singh-2020 number:4")
    cancelled = first_message(await moderator_session.press(button(prompt, Msg.CANCEL)["custom_id"]))
    assert cancelled["content"] == say(Msg.REMOVAL_CANCELLED)
    assert await quote_found(moderator_session, "I will not.")


async def test_an_expired_confirmation_removes_nothing(
    moderator_session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.modules["cogs.confirm"], "CONFIRM_TIMEOUT", 0.05)
    prompt = await ask(moderator_session, "/remove quote incident:singh-2020 number:4")
    await asyncio.sleep(0.5)
    stored = moderator_session.fake.find_message(button(prompt, Msg.REMOVE)["custom_id"])
    assert stored is not None
    assert stored["content"] == say(Msg.REMOVAL_EXPIRED)
    assert all(b["disabled"] for b in buttons(stored))
    assert await quote_found(moderator_session, "I will not.")


async def test_history_lists_an_entrys_changes_a_page_at_a_time(moderator_session) -> None:
    for n in range(12):
        await ask(moderator_session, f"/add alias target:person:jagmeet-singh alias:Nickname{n}")
    page = await ask(moderator_session, "/history target:person:jagmeet-singh")
    singh = entry(EntityKind.PERSON, "jagmeet-singh")
    assert is_ephemeral(page)
    assert page["embeds"][0]["title"] == say(Msg.HISTORY_TITLE, target=singh)
    assert say(Msg.PAGE, page=1, pages=2) in page["embeds"][0]["footer"]["text"]
    assert page["embeds"][0]["description"].startswith(
        f"**#12** {say(Msg.ALIAS_ADDED_SUMMARY, alias='Nickname11', of=singh)} — "
    )
    turned = first_message(await moderator_session.press(button(page, Msg.NEXT)["custom_id"]))
    assert turned["embeds"][0]["description"].startswith(
        f"**#2** {say(Msg.ALIAS_ADDED_SUMMARY, alias='Nickname1', of=singh)} — "
    )


@pytest.mark.parametrize("target", ["jagmeet-singh", '"Jagmeet Singh"'])
async def test_history_finds_the_entry_a_bare_slug_or_name_resolves_to(moderator_session, target) -> None:
    await ask(moderator_session, "/add alias target:person:jagmeet-singh alias:Nickname")
    page = await ask(moderator_session, f"/history target:{target}")
    assert page["embeds"][0]["title"] == say(
        Msg.HISTORY_TITLE, target=entry(EntityKind.PERSON, "jagmeet-singh")
    )


async def test_a_refused_history_does_not_say_nothing_was_changed(discord_session) -> None:
    body = await ask(discord_session, "/history target:person:jagmeet-singh")
    assert is_ephemeral(body)
    assert body["content"] == say(Msg.NOT_A_MODERATOR_TO_READ)


async def test_history_of_a_name_close_to_several_entries_names_them(moderator_session) -> None:
    body = await ask(moderator_session, '/history target:"jagmet sing"')
    assert is_ephemeral(body)
    assert body["content"].startswith(before(Msg.ENTRY_AMBIGUOUS, "candidates", text="jagmet sing"))
    assert "`person:jagmeet-singh`" in body["content"]


async def test_history_of_a_name_that_matches_nothing_says_so(moderator_session) -> None:
    body = await ask(moderator_session, "/history target:zzqx-nobody")
    assert is_ephemeral(body)
    assert body["content"] == say(Msg.HISTORY_TARGET_UNKNOWN, text="zzqx-nobody")


async def removed_lines(session: OfflineSession) -> str:
    body = await ask(session, "/removed")
    assert is_ephemeral(body)
    return str(body["embeds"][0]["description"])


async def test_removed_lists_what_was_removed_and_restore_brings_it_back(moderator_session) -> None:
    await ask(moderator_session, PERSON)
    prompt = await ask(moderator_session, "/remove person person:jane-doe")
    await moderator_session.press(button(prompt, Msg.REMOVE)["custom_id"])
    assert (await removed_lines(moderator_session)).startswith(
        before(Msg.REMOVED_LINE, "when", kind=kind_name(EntityKind.PERSON), key="jane-doe")
    )
    listed = choices(await moderator_session.complete("/restore target:jane"))
    assert [c["value"] for c in listed] == ["person:jane-doe"]

    restored = await ask(moderator_session, "/restore target:person:jane-doe")

    summary = say(Msg.RESTORED_SUMMARY, kind=kind_name(EntityKind.PERSON), key="jane-doe")
    assert restored["content"].startswith(done(summary, 3))
    assert await removed_lines(moderator_session) == say(Msg.NOTHING_REMOVED)
    assert (await ask(moderator_session, "/person jane doe", member(moderator_session)))["embeds"]


async def test_restoring_an_entry_that_is_not_removed_says_so(moderator_session) -> None:
    body = await ask(moderator_session, "/restore target:person:jagmeet-singh")
    assert is_ephemeral(body)
    assert body["content"] == say(
        Msg.NOT_REMOVED, kind=kind_name(EntityKind.PERSON, capital=True), key="jagmeet-singh"
    )


async def test_undo_takes_back_an_add(moderator_session) -> None:
    await ask(moderator_session, "/add alias target:person:jagmeet-singh alias:Jag2")
    assert (await ask(moderator_session, "/person Jag2", member(moderator_session)))["embeds"]
    await ask(moderator_session, "/undo")
    answer = await ask(moderator_session, "/person jag2", member(moderator_session))
    assert "Jag2" not in all_text(answer)


async def test_undo_takes_back_an_edit(moderator_session) -> None:
    await ask(moderator_session, '/edit incident incident:singh-2020 title:"A corrected title"')
    answer = await ask(moderator_session, "/undo")
    edited = say(Msg.EDITED_SUMMARY, what=entry(EntityKind.INCIDENT, "singh-2020"), fields="title")
    assert answer["content"] == done(say(Msg.UNDID_SUMMARY, change=1, summary=edited), 2)
    back = await ask(moderator_session, "/incident singh-2020", member(moderator_session))
    assert back["embeds"][0]["title"].startswith("NDP Leader Jagmeet Singh ordered out")


async def test_a_member_suggestion_waits_and_changes_nothing(moderator_session) -> None:
    someone = member(moderator_session)
    answer = await ask(
        moderator_session,
        '/suggest quote incident:singh-2020 text:"Quixotic quokkas quarrel." speaker:jagmeet-singh'
        " source:singh-2020-cbc",
        someone,
    )
    summary = added_to(QUOTE_BY_SINGH, "singh-2020")
    assert answer["content"] == say(Msg.SUGGESTED, suggestion=1, summary=summary)
    assert not await quote_found(moderator_session, "Quixotic quokkas quarrel.")
    assert audit_count(moderator_session) == 0


async def test_the_number_option_lists_the_incidents_quotes(moderator_session) -> None:
    listed = choices(await moderator_session.complete("/edit quote incident:singh-2020 number:"))
    assert {"name": "4 — “I will not.” — Jagmeet Singh", "value": 4} in listed
    assert [choice["value"] for choice in listed] == [1, 2, 3, 4, 5, 6, 7, 8]


async def test_the_number_option_lists_the_quotes_of_an_incident_typed_by_name(moderator_session) -> None:
    listed = choices(await moderator_session.complete("/edit quote incident:singh number:"))
    assert [choice["value"] for choice in listed] == [1, 2, 3, 4, 5, 6, 7, 8]


async def test_the_source_option_lists_the_incidents_own_sources_first(moderator_session) -> None:
    listed = choices(await moderator_session.complete("/add quote incident:skinner-2016 source:"))
    assert listed[0]["value"].startswith("skinner-2016")


async def test_the_source_option_finds_a_source_by_its_publisher_and_names_it(moderator_session) -> None:
    listed = choices(await moderator_session.complete("/add quote incident:singh source:cbc"))
    assert listed[0] == {"name": "singh-2020-cbc — CBC News", "value": "singh-2020-cbc"}


async def test_the_target_option_offers_people_parties_and_incidents(moderator_session) -> None:
    listed = choices(await moderator_session.complete("/add alias target:singh"))
    assert {"name": "person: Jagmeet Singh (NDP)", "value": "person:jagmeet-singh"} in listed


async def test_a_member_correction_is_queued_against_the_current_text(moderator_session) -> None:
    someone = member(moderator_session)
    line = '/suggest-edit quote incident:singh-2020 number:4 said_to:"the Chair"'
    answer = await ask(moderator_session, line, someone)
    edited = say(Msg.EDITED_SUMMARY, what=part_of(Msg.PART_QUOTE, 4, "singh-2020"), fields="said_to")
    assert answer["content"] == say(Msg.SUGGESTED, suggestion=1, summary=edited)
    assert audit_count(moderator_session) == 0


def people_involved(answer: dict[str, Any]) -> str | None:
    fields = answer["embeds"][0].get("fields") or []
    return next((f["value"] for f in fields if f["name"] == say(Msg.PEOPLE_INVOLVED)), None)


async def test_a_moderator_lists_who_was_involved_and_edits_and_removes_them_by_number(
    moderator_session,
) -> None:
    for line in (SOURCE, PERSON, INCIDENT):
        await ask(moderator_session, line)
    added = await ask(moderator_session, PARTICIPANT)
    as_participant = say(Msg.PART_AS, part=say(Msg.PART_PARTICIPANT), who="Jane Doe")
    assert added["content"].startswith(done(added_to(as_participant, "doe-2021"), 4)), added["content"]
    someone = member(moderator_session)
    incident = await ask(moderator_session, "/incident doe-2021", someone)
    assert people_involved(incident) == "**Jane Doe** — Member for Example Centre (an NDP member)"
    person = all_text(await ask(moderator_session, "/person jane-doe", someone))
    assert "Jane Doe named by the Speaker" in person
    assert "as Member for Example Centre" in person

    listed = choices(await moderator_session.complete("/edit participant incident:doe-2021 number:"))
    assert listed == [{"name": "1 — jane-doe: Member for Example Centre", "value": 1}]
    edited = await ask(moderator_session, '/edit participant incident:doe-2021 number:1 role:"Whip"')
    participant = part_of(Msg.PART_PARTICIPANT, 1, "doe-2021")
    assert edited["content"].startswith(done(say(Msg.EDITED_SUMMARY, what=participant, fields="role"), 5))
    incident = await ask(moderator_session, "/incident doe-2021", someone)
    assert people_involved(incident) == "**Jane Doe** — Whip (an NDP member)"

    prompt = await ask(moderator_session, "/remove participant incident:doe-2021 number:1")
    assert prompt["content"] == say(Msg.REMOVAL_CONFIRM, what=f"{participant} (jane-doe: Whip)")
    await moderator_session.press(button(prompt, Msg.REMOVE)["custom_id"])
    assert people_involved(await ask(moderator_session, "/incident doe-2021", someone)) is None
    assert "Jane Doe named by the Speaker" not in all_text(
        await ask(moderator_session, "/person jane-doe", someone)
    )


async def test_a_member_suggests_who_was_involved_and_nothing_changes_yet(moderator_session) -> None:
    someone = member(moderator_session)
    before = people_involved(await ask(moderator_session, "/incident singh-2020", someone))
    line = '/suggest participant incident:singh-2020 person:justin-trudeau role:"Prime Minister"'
    answer = await ask(moderator_session, line, someone)
    as_participant = say(Msg.PART_AS, part=say(Msg.PART_PARTICIPANT), who="Justin Trudeau")
    summary = added_to(as_participant, "singh-2020")
    assert answer["content"] == say(Msg.SUGGESTED, suggestion=1, summary=summary)
    assert people_involved(await ask(moderator_session, "/incident singh-2020", someone)) == before
    assert audit_count(moderator_session) == 0


async def test_every_command_fits_discords_size_limit_with_room_to_spare(moderator_session) -> None:
    tree = moderator_session.bot.tree
    sizes = {command.name: command_characters(command.to_dict(tree)) for command in tree.get_commands()}
    assert {"add", "edit", "remove", "suggest", "suggest-edit"} <= set(sizes)
    too_large = {
        name: size for name, size in sizes.items() if size > COMMAND_TOTAL_CHARACTERS - COMMAND_HEADROOM
    }
    assert not too_large, f"over {COMMAND_TOTAL_CHARACTERS} - {COMMAND_HEADROOM} characters: {too_large}"


async def test_a_renamed_person_finds_their_incidents_under_the_new_name_at_once(moderator_session) -> None:
    for line in (SOURCE, PERSON, INCIDENT, MOTION, PARTICIPANT):
        await ask(moderator_session, line)
    someone = member(moderator_session)
    not_found = say(Msg.NO_MATCH, what=say(Msg.TOPIC_INCIDENT), query="Quillfeather")
    assert not_found in all_text(await ask(moderator_session, "/incident Quillfeather", someone))

    await ask(moderator_session, '/edit person person:jane-doe name:"Jane Quillfeather"')
    incident = await ask(moderator_session, "/incident Quillfeather", someone)
    assert incident["embeds"][0]["title"] == "Jane Doe named by the Speaker"
    assert people_involved(incident) == "**Jane Quillfeather** — Member for Example Centre (an NDP member)"
    objected = all_text(await ask(moderator_session, "/who-objected Quillfeather apologise", someone))
    assert say(Msg.MOVED_BY, who="Jane Quillfeather") in objected

    await ask(moderator_session, "/undo")
    assert not_found in all_text(await ask(moderator_session, "/incident Quillfeather", someone))


async def test_a_problem_in_a_part_names_it_by_number_from_one_and_by_who(moderator_session) -> None:
    prompt = await ask(moderator_session, "/remove party party:ndp")
    await moderator_session.press(button(prompt, Msg.REMOVE)["custom_id"])
    answer = await ask(moderator_session, '/edit incident incident:singh title:"A corrected title"')
    participant_1 = say(Msg.PLACE_NAMED, part=say(Msg.PART_PARTICIPANT), number=1, label="Jagmeet Singh")
    problem = say(
        Msg.PROBLEM_AT,
        place=say(Msg.FIELD_OF, field="party", place=participant_1),
        problem="unknown party 'new-democratic-party'",
    )
    assert f"• {problem}\n" in answer["content"], answer["content"]
    assert say(Msg.NOTHING_SAVED) in answer["content"]
    assert audit_count(moderator_session) == 1  # the removal


async def test_a_close_call_lists_the_guilds_own_entry_first(moderator_session) -> None:
    await ask(moderator_session, '/add person slug:justin-trudeau-mp name:"Justin Trudeau"')
    line = '/add quote incident:singh-2020 text:"Words." speaker:"Justin Trudeau" source:singh-2020-cbc'
    answer = await ask(moderator_session, line)
    choices_shown = [line for line in answer["content"].splitlines() if line.startswith("• ")]
    assert choices_shown == [
        "• Justin Trudeau — `justin-trudeau-mp`",
        "• Justin Trudeau (LPC) — `justin-trudeau`",
    ]
    assert audit_count(moderator_session) == 1


async def test_a_refused_reference_opens_no_form(moderator_session) -> None:
    requests = await moderator_session.invoke("/add quote incident:singh speaker:trudeau source:cbc")
    assert not modals(requests)
    answer = first_message(requests)
    assert answer["content"].startswith(
        before(
            Msg.REFERENCE_AMBIGUOUS,
            "choices",
            option="speaker",
            text="trudeau",
            kind=kind_name(EntityKind.PERSON),
        )
    ), answer["content"]
    assert is_ephemeral(answer)


async def test_a_position_without_a_source_is_named_by_its_number_on_its_motion(moderator_session) -> None:
    answer = await ask(moderator_session, f"{POSITION_IN_SINGH} party:ndp")
    positions = len(stored_incident(moderator_session, "singh-2020").motions[0].positions)
    new_position = say(
        Msg.PLACE_IN,
        place=say(Msg.PLACE, part=say(Msg.PART_POSITION), number=positions + 1),
        owner=say(Msg.PLACE, part=say(Msg.PART_MOTION), number=1),
    )
    assert answer["content"].startswith(
        before(Msg.CANNOT_SAVE, "problem") + before(Msg.SOURCE_REQUIRED, "sources", path=new_position)
    ), answer["content"]
    assert audit_count(moderator_session) == 0
