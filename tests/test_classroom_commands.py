"""/collection, /random, /on-this-day and /timeline through the loopback: who may change collections,
what each shows, a page at a time, and privately where /config ephemeral says so."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from bot.classroom.replies import day_of_month, incident_line
from bot.limits import BUTTON_LABEL, clip
from bot.loopback.payloads import Invoker
from bot.loopback.session import OfflineSession
from bot.messages.catalogue import Msg, say
from tests.discord_harness import all_text, before, buttons, choices, first_message, is_ephemeral

TEACHERS = 1_246_000_000_000_000_888
SINGH = "NDP Leader Jagmeet Singh ordered out of the Commons for calling Bloc MP Alain Therrien a racist"
SKINNER = 'Dennis Skinner ordered out for calling David Cameron "dodgy Dave" and refusing to withdraw'


async def ask(session: OfflineSession, line: str, invoker: Invoker | None = None) -> dict[str, Any]:
    return first_message(await session.invoke(line, invoker=invoker))


def member(session: OfflineSession, *roles: int) -> Invoker:
    """Someone without Manage Server, holding ``roles``."""
    return replace(session.invoker, user_id=77, moderator=False, extra_roles=roles)


def button(body: dict[str, Any], label: str) -> dict[str, Any]:
    return next(b for b in buttons(body) if b["label"] == label)


def description(body: dict[str, Any]) -> str:
    return str(body["embeds"][0].get("description") or "")


def guild_of(session: OfflineSession) -> int:
    return session.invoker.guild_id or 0


async def collect(session: OfflineSession, name: str, *slugs: str) -> None:
    for slug in slugs:
        answer = await ask(session, f'/collection add name:"{name}" incident:{slug}')
        assert is_ephemeral(answer), answer


# -- who may change a collection -------------------------------------------------------------------


async def test_a_member_who_does_not_teach_is_refused_and_nothing_is_kept(moderator_session) -> None:
    answer = await ask(
        moderator_session, "/collection add name:Unit incident:singh-2020", member(moderator_session)
    )

    assert is_ephemeral(answer)
    assert say(Msg.NOT_A_TEACHER) in answer["content"]
    assert moderator_session.bot.library.collections(guild_of(moderator_session)) == []


async def test_the_moderators_teach_while_no_teacher_role_is_set(moderator_session) -> None:
    answer = await ask(moderator_session, "/collection add name:Unit incident:singh-2020")

    assert answer["content"] == say(Msg.COLLECTION_CREATED, name="Unit", title=SINGH)


async def test_once_a_teacher_role_is_set_its_holders_teach_and_moderators_alone_do_not(
    moderator_session,
) -> None:
    manager = replace(moderator_session.invoker, extra_roles=(TEACHERS,))
    await ask(moderator_session, f"/config teacher-role role:{TEACHERS}", manager)

    teacher = await ask(
        moderator_session,
        "/collection add name:Unit incident:singh-2020",
        member(moderator_session, TEACHERS),
    )
    moderator = await ask(moderator_session, "/collection add name:Unit incident:skinner-2016")

    assert teacher["content"] == say(Msg.COLLECTION_CREATED, name="Unit", title=SINGH)
    assert say(Msg.NOT_A_TEACHER) in moderator["content"]
    assert moderator_session.bot.library.collection_incidents(guild_of(moderator_session), "unit") == [
        "singh-2020"
    ]


async def test_a_member_who_does_not_teach_cannot_remove(moderator_session) -> None:
    await collect(moderator_session, "Unit", "singh-2020")

    answer = await ask(
        moderator_session, "/collection remove name:Unit incident:singh-2020", member(moderator_session)
    )

    assert say(Msg.NOT_A_TEACHER) in answer["content"]
    assert moderator_session.bot.library.collection_incidents(guild_of(moderator_session), "Unit") == [
        "singh-2020"
    ]


# -- adding, removing, showing ---------------------------------------------------------------------


async def test_an_incident_is_added_by_the_words_that_name_it(moderator_session) -> None:
    answer = await ask(moderator_session, '/collection add name:Unit incident:"jagmeet singh"')

    assert answer["content"] == say(Msg.COLLECTION_CREATED, name="Unit", title=SINGH)


async def test_adding_to_an_existing_collection_counts_its_incidents(moderator_session) -> None:
    await collect(moderator_session, "Unit", "singh-2020")

    answer = await ask(moderator_session, "/collection add name:unit incident:skinner-2016")

    assert answer["content"] == say(Msg.COLLECTION_ADDED, name="Unit", title=SKINNER, count=2)


async def test_adding_an_incident_twice_is_refused_politely(moderator_session) -> None:
    await collect(moderator_session, "Unit", "singh-2020")

    answer = await ask(moderator_session, "/collection add name:Unit incident:singh-2020")

    assert is_ephemeral(answer)
    assert say(Msg.COLLECTION_ALREADY_IN, title=SINGH, name="Unit") in answer["content"]


async def test_show_lists_the_collections_for_everyone(moderator_session) -> None:
    await collect(moderator_session, "Unit 1", "singh-2020", "skinner-2016")
    await collect(moderator_session, "Unit 2", "butler-2021")

    listed = await ask(moderator_session, "/collection show", member(moderator_session))

    assert listed["embeds"][0]["title"] == say(Msg.COLLECTIONS_TITLE)
    assert description(listed).splitlines() == [
        say(Msg.COLLECTIONS_LINE, name="Unit 1", count=2),
        say(Msg.COLLECTIONS_LINE, name="Unit 2", count=1),
    ]
    assert not is_ephemeral(listed)


async def test_show_without_collections_says_how_to_start_one(discord_session) -> None:
    listed = await ask(discord_session, "/collection show")

    assert description(listed) == say(Msg.NO_COLLECTIONS)


async def test_show_a_collection_lists_its_incidents_in_the_order_added_each_with_its_button(
    moderator_session,
) -> None:
    await collect(moderator_session, "Unit", "skinner-2016", "singh-2020")

    shown = await ask(moderator_session, "/collection show name:unit", member(moderator_session))

    assert shown["embeds"][0]["title"] == say(Msg.COLLECTION_TITLE, name="Unit")
    lines = description(shown).splitlines()
    assert [line.split("**")[1] for line in lines][1] == SINGH
    assert lines[0].startswith("`2016-04-11`")
    opened = first_message(
        await moderator_session.press(button(shown, clip(SINGH, BUTTON_LABEL))["custom_id"])
    )
    assert opened["embeds"][0]["title"].startswith(SINGH)


async def test_a_long_collection_turns_its_pages(moderator_session) -> None:
    slugs = [line.slug for line in moderator_session.bot.library.timeline(guild_of(moderator_session))]
    await collect(moderator_session, "Everything", *slugs)

    first = await ask(moderator_session, "/collection show name:everything")
    assert say(Msg.PAGE, page=1, pages=2) in first["embeds"][0]["footer"]["text"]
    second = first_message(await moderator_session.press(button(first, say(Msg.NEXT))["custom_id"]))

    assert say(Msg.PAGE, page=2, pages=2) in second["embeds"][0]["footer"]["text"]
    assert len(description(first).splitlines()) + len(description(second).splitlines()) == len(slugs)


async def test_an_unknown_collection_is_a_polite_private_answer(discord_session) -> None:
    answer = await ask(discord_session, "/collection show name:nothing")

    assert is_ephemeral(answer)
    assert say(Msg.COLLECTION_UNKNOWN, name="nothing") in answer["content"]


async def test_removing_an_incident_takes_it_out(moderator_session) -> None:
    await collect(moderator_session, "Unit", "singh-2020", "skinner-2016")

    answer = await ask(moderator_session, "/collection remove name:Unit incident:singh-2020")

    assert answer["content"] == say(Msg.COLLECTION_ITEM_REMOVED, incident="singh-2020", name="Unit", count=1)
    assert moderator_session.bot.library.collection_incidents(guild_of(moderator_session), "Unit") == [
        "skinner-2016"
    ]


async def test_removing_an_incident_not_in_the_collection_is_refused(moderator_session) -> None:
    await collect(moderator_session, "Unit", "singh-2020")

    answer = await ask(moderator_session, "/collection remove name:Unit incident:skinner-2016")

    assert say(Msg.COLLECTION_NOT_IN, incident="skinner-2016", name="Unit") in answer["content"]


async def test_removing_a_whole_collection_asks_first(moderator_session) -> None:
    await collect(moderator_session, "Unit", "singh-2020")

    prompt = await ask(moderator_session, "/collection remove name:unit")
    assert is_ephemeral(prompt)
    assert prompt["content"] == say(Msg.COLLECTION_CONFIRM_DELETE, name="Unit", count=1)
    done = first_message(
        await moderator_session.press(button(prompt, say(Msg.COLLECTION_DELETE))["custom_id"])
    )

    assert done["content"] == say(Msg.COLLECTION_DELETED, name="Unit", count=1)
    assert moderator_session.bot.library.collections(guild_of(moderator_session)) == []


async def test_cancelling_the_removal_keeps_the_collection(moderator_session) -> None:
    await collect(moderator_session, "Unit", "singh-2020")

    prompt = await ask(moderator_session, "/collection remove name:Unit")
    cancelled = first_message(await moderator_session.press(button(prompt, say(Msg.CANCEL))["custom_id"]))

    assert cancelled["content"] == say(Msg.COLLECTION_DELETE_CANCELLED)
    assert moderator_session.bot.library.collection_incidents(guild_of(moderator_session), "Unit") == [
        "singh-2020"
    ]


async def test_collection_names_are_autocompleted(moderator_session) -> None:
    await collect(moderator_session, "Unit 1: order", "singh-2020")
    await collect(moderator_session, "Unit 2: privilege", "skinner-2016")

    offered = choices(await moderator_session.complete("/collection show name:PRIV"))

    assert offered == [{"name": "Unit 2: privilege", "value": "Unit 2: privilege"}]


async def test_incidents_are_autocompleted_as_lookups_are(moderator_session) -> None:
    offered = choices(await moderator_session.complete("/collection add name:Unit incident:poili"))

    assert offered[0]["value"] == "poilievre-2024"


# -- /random ---------------------------------------------------------------------------------------


async def test_random_draws_from_the_collection_and_shows_it_as_incident_does(moderator_session) -> None:
    await collect(moderator_session, "Unit", "singh-2020")

    drawn = await ask(moderator_session, "/random collection:unit", member(moderator_session))
    shown = await ask(moderator_session, "/incident singh-2020", member(moderator_session))

    assert drawn["embeds"] == shown["embeds"]
    assert not is_ephemeral(drawn)


async def test_random_draws_from_a_chamber(discord_session) -> None:
    drawn = await ask(discord_session, "/random chamber:nz-house-of-representatives")

    assert drawn["embeds"][0]["footer"]["text"].endswith("maipi-clarke-2024")


async def test_random_answers_privately_where_lookups_do(moderator_session) -> None:
    await ask(moderator_session, "/config ephemeral setting:on")

    assert is_ephemeral(await ask(moderator_session, "/random", member(moderator_session)))


async def test_random_with_nothing_to_draw_says_so(moderator_session) -> None:
    await collect(moderator_session, "Unit", "butler-2021")

    answer = await ask(moderator_session, "/random collection:Unit chamber:ca-house-of-commons")

    assert is_ephemeral(answer)
    assert say(Msg.RANDOM_NOTHING) in answer["content"]


async def test_random_refuses_a_chamber_it_does_not_know(discord_session) -> None:
    answer = await ask(discord_session, "/random chamber:atlantis")

    assert is_ephemeral(answer)
    assert answer["content"].startswith(before(Msg.SEARCH_UNKNOWN_CHAMBER, "allowed", value="atlantis"))


async def test_chambers_are_autocompleted_by_their_names(discord_session) -> None:
    offered = choices(await discord_session.complete("/random chamber:uk"))

    assert [choice["value"] for choice in offered] == ["uk-house-of-commons"]


# -- /on-this-day ----------------------------------------------------------------------------------


async def test_on_this_day_shows_the_days_anniversaries(discord_session) -> None:
    discord_session.bot.library.today = lambda: dt.date(2031, 6, 17)

    shown = await ask(discord_session, "/on-this-day")

    assert shown["embeds"][0]["title"] == say(Msg.ON_THIS_DAY_TITLE, day=day_of_month(dt.date(2031, 6, 17)))
    assert SINGH in description(shown)
    assert [b["custom_id"] for b in buttons(shown)] == ["parlbot:n:incident:singh-2020"]


async def test_on_a_day_without_one_the_nearest_anniversary_is_shown(discord_session) -> None:
    discord_session.bot.library.today = lambda: dt.date(2031, 6, 19)

    shown = await ask(discord_session, "/on-this-day")

    expected = say(
        Msg.NEAREST_DAY_TITLE,
        day=day_of_month(dt.date(2031, 6, 19)),
        nearest=day_of_month(dt.date(2020, 6, 17)),
    )
    assert shown["embeds"][0]["title"] == expected
    assert SINGH in description(shown)


# -- /timeline -------------------------------------------------------------------------------------


async def test_the_timeline_lists_incidents_in_date_order_a_page_at_a_time(discord_session) -> None:
    first = await ask(discord_session, "/timeline")

    assert first["embeds"][0]["title"] == say(Msg.TIMELINE_TITLE, count=12)
    dates = [line.split("`")[1] for line in description(first).splitlines()]
    assert dates == sorted(dates)
    assert dates[0] == "1971-02-16"
    second = first_message(await discord_session.press(button(first, say(Msg.NEXT))["custom_id"]))
    assert len(description(second).splitlines()) == 4


async def test_the_timeline_narrows_to_a_chamber_and_years(discord_session) -> None:
    shown = await ask(discord_session, "/timeline chamber:ca-house-of-commons from:2011 to:2016")

    lines = description(shown).splitlines()
    assert [line.split("`")[1] for line in lines] == ["2011-12-14", "2016-05-18"]
    assert lines[0].endswith("House of Commons of Canada")


async def test_the_timeline_narrows_to_a_person(discord_session) -> None:
    shown = await ask(discord_session, "/timeline person:bercow")

    assert [b["custom_id"].rsplit(":", 1)[1] for b in buttons(shown)] == [
        "skinner-2016",
        "russell-moyle-2018",
    ]


async def test_each_timeline_line_is_date_title_and_chamber(discord_session) -> None:
    library = discord_session.bot.library
    line = library.timeline(guild_of(discord_session))[0]

    shown = await ask(discord_session, "/timeline to:1971")

    assert description(shown) == incident_line(line)


async def test_a_date_that_cannot_be_read_is_refused(discord_session) -> None:
    answer = await ask(discord_session, "/timeline from:spring")

    assert is_ephemeral(answer)
    assert say(Msg.TIMELINE_BAD_DATE, value="spring") in answer["content"]


async def test_dates_that_run_backwards_are_refused(discord_session) -> None:
    answer = await ask(discord_session, "/timeline from:2020 to:2010")

    assert say(Msg.TIMELINE_BAD_RANGE, start="2020-01-01", end="2010-12-31") in answer["content"]


async def test_a_timeline_with_nothing_in_it_says_so(discord_session) -> None:
    shown = await ask(discord_session, "/timeline from:1900 to:1901")

    assert description(shown) == say(Msg.TIMELINE_NOTHING)
    assert "Singh" not in all_text(shown)


async def test_the_timeline_answers_privately_where_lookups_do(moderator_session) -> None:
    await ask(moderator_session, "/config ephemeral setting:on")

    assert is_ephemeral(await ask(moderator_session, "/timeline", member(moderator_session)))
