"""The read commands, driven from raw interaction payloads through the bot's CommandTree.

Each test sends what Discord would send and asserts on the JSON body discord.py sent back to the
loopback Discord (which itself rejects any body that breaks Discord's limits).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.answers.render import Action
from bot.curation.changes import Actor
from bot.limits import ELLIPSIS
from bot.loopback.session import OfflineSession
from bot.messages.catalogue import Msg, say
from db.models import EntityKind
from tests.discord_harness import (
    all_text,
    before,
    buttons,
    choices,
    first_message,
    is_ephemeral,
    message_bodies,
)


async def ask(session: OfflineSession, line: str) -> dict[str, Any]:
    return first_message(await session.invoke(line))


def field(body: dict[str, Any], name: Msg) -> str:
    return next(f["value"] for f in body["embeds"][0]["fields"] if f["name"] == say(name))


async def test_incident_by_slug_shows_title_date_people_ruling_and_sources(discord_session) -> None:
    body = await ask(discord_session, "/incident singh-2020")
    embed = body["embeds"][0]
    assert embed["title"].startswith("NDP Leader Jagmeet Singh ordered out of the Commons")
    assert "17 June 2020" in embed["description"]
    assert "House of Commons of Canada" in embed["description"]
    assert "**Alain Therrien**" in field(body, Msg.PEOPLE_INVOLVED)
    assert "huffingtonpost.ca" in field(body, Msg.SOURCES)
    assert any("Anthony Rota" in f["value"] for f in embed["fields"] if f["name"] == say(Msg.RULING))
    assert embed["footer"]["text"] == f"{say(Msg.UNOFFICIAL)} · singh-2020"
    assert not is_ephemeral(body)


async def test_incident_reply_never_pings_anyone(discord_session) -> None:
    body = await ask(discord_session, "/incident singh-2020")
    assert body["allowed_mentions"] == {"parse": []}


async def test_incident_with_typos_finds_the_entry(discord_session) -> None:
    body = await ask(discord_session, '/incident query:"jagmet sigh"')
    assert body["embeds"][0]["footer"]["text"].endswith("singh-2020")


async def test_incident_by_a_person_in_it_finds_the_entry(discord_session) -> None:
    body = await ask(discord_session, "/incident therrien")
    assert body["embeds"][0]["footer"]["text"].endswith("singh-2020")


async def test_close_call_offers_did_you_mean_buttons_privately(discord_session) -> None:
    body = await ask(discord_session, "/incident 2016")
    assert is_ephemeral(body)
    assert body["content"].startswith(before(Msg.DID_YOU_MEAN, "choices", query="2016"))
    assert {b["custom_id"] for b in buttons(body)} == {
        "parlbot:e:incident:trudeau-2016",
        "parlbot:e:incident:skinner-2016",
    }


async def test_pressing_did_you_mean_replaces_the_prompt_with_the_answer(discord_session) -> None:
    await discord_session.invoke("/incident 2016")
    requests = await discord_session.press("parlbot:e:incident:skinner-2016")
    callback = next(r for r in requests if r.route == "callback")
    assert callback.body is not None
    assert callback.body["type"] == 7  # UPDATE_MESSAGE
    assert "dodgy Dave" in callback.body["data"]["embeds"][0]["title"]


async def test_nothing_close_answers_privately_with_suggestions(discord_session) -> None:
    body = await ask(discord_session, "/incident zzzqqqxx")
    assert is_ephemeral(body)
    no_match = say(Msg.NO_MATCH, what=say(Msg.TOPIC_INCIDENT), query="zzzqqqxx")
    assert body["content"].startswith(f"{no_match} {before(Msg.NO_MATCH_SUGGESTIONS, 'suggestions')}•")
    assert body["content"].endswith(say(Msg.NO_MATCH_TIP))


async def test_echoed_mentions_are_defused(discord_session) -> None:
    body = await ask(discord_session, '/incident query:"@everyone <@&123>"')
    assert "@everyone" not in body["content"]
    assert "@\u200beveryone" in body["content"]
    assert body["allowed_mentions"] == {"parse": []}


async def test_who_objected_says_who_and_how_it_is_known(discord_session) -> None:
    body = await ask(discord_session, "/who-objected singh-2020")
    text = all_text(body)
    assert say(Msg.MOVED_BY, who="Jagmeet Singh") in text
    assert "Bloc Québécois" in text
    assert say(Msg.ATTRIBUTION_NEWS_REPORTED).capitalize() in text
    assert "unclear who said no" in text


async def test_who_objected_for_an_incident_without_a_motion_says_so(discord_session) -> None:
    body = await ask(discord_session, "/who-objected skinner-2016")
    assert body["embeds"][0]["description"] == say(Msg.NO_MOTION)


async def test_quote_by_its_words_shows_speaker_incident_and_source(discord_session) -> None:
    body = await ask(discord_session, '/quote query:"why can\'t we act"')
    embed = body["embeds"][0]
    assert embed["title"].startswith("Jagmeet Singh")
    assert "why can't we act?" in embed["description"]
    assert "singh-2020" in field(body, Msg.INCIDENT)


async def test_ruling_names_who_ruled_and_the_sanction(discord_session) -> None:
    body = await ask(discord_session, '/ruling query:"skinner dodgy dave"')
    text = all_text(body)
    assert "Speaker John Bercow" in text
    assert "remainder of this day's sitting" in text or "rest of the day's sitting" in text


async def test_person_lists_party_and_incidents(discord_session) -> None:
    body = await ask(discord_session, "/person therrien")
    embed = body["embeds"][0]
    assert embed["title"] == "Alain Therrien"
    assert "Bloc Québécois" in embed["description"]
    assert "singh-2020" in field(body, Msg.APPEARS_IN)


async def test_pressing_an_incident_button_answers_privately(discord_session) -> None:
    await discord_session.invoke("/person therrien")
    body = first_message(await discord_session.press("parlbot:n:incident:singh-2020"))
    assert is_ephemeral(body)
    assert body["embeds"][0]["footer"]["text"].endswith("singh-2020")


async def test_a_button_whose_action_is_no_longer_known_answers_politely(discord_session) -> None:
    await discord_session.invoke("/incident singh-2020")
    old = discord_session.fake.find_message("parlbot:n:quotes:singh-2020")  # as an older bot had sent it
    button = next(
        b
        for row in old["components"]
        for b in row["components"]
        if b["custom_id"].endswith("quotes:singh-2020")
    )
    button["custom_id"] = "parlbot:n:retired:singh-2020"
    body = first_message(await discord_session.press("parlbot:n:retired:singh-2020"))
    assert is_ephemeral(body)
    assert body["content"] == say(Msg.BUTTON_GONE)


def test_every_action_a_button_can_carry_is_answered(library) -> None:
    quote = library.search("i will not", guild_id=None)[0]
    arguments = {Action.QUOTE: quote.argument, Action.PERSON: "jagmeet-singh", Action.TERM: "naming"}
    for action in Action:
        reply = library.act(action, arguments.get(action, "singh-2020"), guild_id=None)
        assert reply.embeds, action


async def test_all_quotes_button_lists_every_quote_of_the_incident(discord_session) -> None:
    incident = await ask(discord_session, "/incident singh-2020")
    assert "parlbot:n:quotes:singh-2020" in {b["custom_id"] for b in buttons(incident)}
    body = first_message(await discord_session.press("parlbot:n:quotes:singh-2020"))
    assert "I will not." in all_text(body)


async def test_search_ranks_across_kinds_and_pages(discord_session) -> None:
    body = await ask(discord_session, "/search trudeau")
    embed = body["embeds"][0]
    assert embed["description"].startswith("1. Justin Trudeau")
    assert before(Msg.PAGE, "pages", page=1) in embed["footer"]["text"]
    assert [b["label"] for b in buttons(body)][-2:] == [say(Msg.PREVIOUS), say(Msg.NEXT)]


async def test_every_result_on_a_search_page_opens(discord_session) -> None:
    body = await ask(discord_session, "/search trudeau")
    results = [b for b in buttons(body) if b["custom_id"].startswith("parlbot:")]
    assert len(results) == 8
    assert [row["components"][-1]["label"] for row in body["components"]][-1] == say(Msg.NEXT)
    opened = first_message(await discord_session.press(results[-1]["custom_id"]))
    assert is_ephemeral(opened)
    assert opened["embeds"]


async def test_search_next_page_turns_for_the_person_who_searched(discord_session) -> None:
    body = await ask(discord_session, "/search trudeau")
    next_button = next(b for b in buttons(body) if b["label"] == say(Msg.NEXT))
    requests = await discord_session.press(next_button["custom_id"])
    page = message_bodies(requests)[0]
    assert before(Msg.PAGE, "pages", page=2) in page["embeds"][0]["footer"]["text"]
    assert page["embeds"][0]["description"].startswith("9. ")


async def test_search_pages_refuse_someone_else_politely(discord_session) -> None:
    body = await ask(discord_session, "/search trudeau")
    next_button = next(b for b in buttons(body) if b["label"] == say(Msg.NEXT))
    stranger = replace(discord_session.invoker, user_id=discord_session.invoker.user_id + 1)
    answer = first_message(await discord_session.press(next_button["custom_id"], invoker=stranger))
    assert is_ephemeral(answer)
    assert answer["content"] == say(Msg.SEARCH_NOT_YOURS)


async def test_a_blank_query_is_refused_with_the_reason_not_a_generic_one(discord_session) -> None:
    body = await ask(discord_session, '/incident query:"   "')
    assert is_ephemeral(body)
    assert body["content"] == say(Msg.EMPTY_QUERY)


async def test_autocomplete_choices_that_would_read_the_same_say_how_they_differ(discord_session) -> None:
    listed = choices(await discord_session.complete("/ruling query:fergus"))
    names = [c["name"] for c in listed]
    assert len(set(names)) == len(names)
    assert "Speaker Greg Fergus on Rachael Thomas: ordered to leave sitting (poilievre-2024)" in names
    assert "Speaker Greg Fergus on Pierre Poilievre: ordered to leave sitting (poilievre-2024)" in names


async def test_search_by_a_country_named_in_party_names_lists_its_incidents_before_party_members(
    discord_session,
) -> None:
    body = await ask(discord_session, "/search canada")
    first = body["embeds"][0]["description"].splitlines()[:6]
    years = ("(2024)", "(2020)", "(2016)", "(2011)", "(2010)", "(1971)")
    assert sorted(line[-6:] for line in first) == sorted(years), first


async def test_search_by_a_countrys_abbreviation_lists_its_incidents_first(discord_session) -> None:
    body = await ask(discord_session, "/search UK")
    first = body["embeds"][0]["description"].splitlines()[:4]
    assert all(line.endswith(("(2021)", "(2018)", "(2016)", "(1976)")) for line in first), first


async def test_autocomplete_finds_incidents_by_a_countrys_abbreviation_and_demonym(discord_session) -> None:
    assert choices(await discord_session.complete("/incident query:nz"))[0]["value"] == "maipi-clarke-2024"
    british = [c["value"] for c in choices(await discord_session.complete("/incident query:british"))]
    assert {"butler-2021", "skinner-2016", "heseltine-1976"} <= set(british[:4])


async def test_autocomplete_ranks_half_typed_names(discord_session) -> None:
    listed = choices(await discord_session.complete("/incident query:poili"))
    assert listed[0]["value"] == "poilievre-2024"
    assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in listed)


async def test_autocomplete_on_empty_input_suggests_recent_incidents(discord_session) -> None:
    listed = choices(await discord_session.complete("/incident query:"))
    assert 0 < len(listed) <= 25
    assert listed[0]["value"] in {"maipi-clarke-2024", "poilievre-2024"}


async def test_autocomplete_value_resolves_exactly_when_submitted(discord_session) -> None:
    listed = choices(await discord_session.complete('/quote query:"i will not"'))
    body = await ask(discord_session, f"/quote query:{listed[0]['value']}")
    assert body["embeds"][0]["description"] == "> I will not."


async def test_a_failing_database_gets_a_private_apology_not_a_traceback(discord_session, library) -> None:
    library.database.engine.dispose()
    with library.database.engine.begin() as connection:
        connection.exec_driver_sql("DROP TABLE quote")
    body = await ask(discord_session, "/incident singh-2020")
    assert is_ephemeral(body)
    assert body["content"] == say(Msg.APOLOGY)
    assert "Traceback" not in body["content"]


async def test_a_button_for_an_entry_removed_since_answers_politely(discord_session, library) -> None:
    await discord_session.invoke("/person therrien")
    actor = Actor(discord_session.invoker.guild_id or 0, discord_session.invoker.user_id)
    library.remove(actor=actor, kind=EntityKind.INCIDENT, key="singh-2020")
    body = first_message(await discord_session.press("parlbot:n:incident:singh-2020"))
    assert is_ephemeral(body)
    assert body["content"] == say(Msg.INCIDENT_GONE, slug="singh-2020")


# -- answers that read like a reference work ---------------------------------------------------------------

INTERNAL_WORDS = ("seed article", "Seed article", "stored excerpt", "stored copy", "rendering as printed")


def field_of(body: dict[str, Any], name: str) -> str:
    return next(f["value"] for f in body["embeds"][0]["fields"] if f["name"] == name)


async def test_a_source_without_publisher_reads_as_a_dated_news_report(discord_session) -> None:
    body = await ask(discord_session, "/incident singh-2020")
    sources = field(body, Msg.SOURCES).splitlines()
    assert sources[-1] == f"{say(Msg.NEWS_REPORT)}, 17 June 2020"
    assert sources[3].startswith("[CBC News](https://www.cbc.ca/")
    assert sources[3].endswith(", 18 June 2020")
    assert not [word for word in INTERNAL_WORDS if word in all_text(body)]


async def test_no_internal_note_reaches_a_member_in_any_answer_about_an_incident(discord_session) -> None:
    for line in ("/incident singh-2020", "/who-objected singh-2020", "/ruling singh-2020", "/person singh"):
        text = all_text(await ask(discord_session, line))
        assert not [word for word in INTERNAL_WORDS if word in text], line
    quotes = first_message(await discord_session.press("parlbot:n:quotes:singh-2020"))
    assert not [word for word in INTERNAL_WORDS if word in all_text(quotes)]


def test_provenance_notes_stay_in_the_sources_view(library) -> None:
    reply = library.act(Action.SOURCES, "singh-2020", guild_id=None)
    embed = reply.embeds[0]
    assert "names no publisher" in embed["description"]
    notes = next(f["value"] for f in embed["fields"] if f["name"] == say(Msg.QUOTE_NOTES))
    assert "“I will not.” — The seed article calls her “Deputy Speaker Carol Hughes”" in notes


async def test_the_seed_incident_shows_every_part_with_nothing_clipped_or_dropped(discord_session) -> None:
    body = await ask(discord_session, "/incident singh-2020")
    embed = body["embeds"][0]
    assert "choking back tears" in embed["description"]
    assert not embed["description"].split("\n\n")[0].endswith(ELLIPSIS)
    names = [f["name"] for f in embed["fields"]]
    assert names.count(say(Msg.RULING)) == 3
    assert len(field(body, Msg.SOURCES).splitlines()) == 5
    quotes = first_message(await discord_session.press("parlbot:n:quotes:singh-2020"))
    shown = [f["value"] for f in quotes["embeds"][0]["fields"]]
    assert len(shown) == 8
    assert "the post quoting him says he was choking back tears" in shown[4]
    assert not [value for value in shown if ELLIPSIS in value]


def test_the_seed_incidents_sources_view_shows_every_note_whole(library) -> None:
    embed = library.act(Action.SOURCES, "singh-2020", guild_id=None).embeds[0]
    differ = next(f["value"] for f in embed["fields"] if f["name"] == say(Msg.SOURCES_DIFFER))
    assert differ.endswith("The motion's full text is not in the pages read, nor any Hansard page.")
    notes = next(f["value"] for f in embed["fields"] if f["name"] == say(Msg.QUOTE_NOTES))
    assert len(notes.splitlines()) == 7  # every quote but the one with no note
    assert (
        "Blanchet demanding that Singh apologize, but the text kept has no such demand"
        in embed["description"]
    )


async def test_a_translated_quote_says_how_under_the_words_not_in_the_title(discord_session) -> None:
    body = await ask(discord_session, '/quote query:"I called him a racist and I believe"')
    embed = body["embeds"][0]
    assert embed["title"] == "Jagmeet Singh"
    said = say(Msg.DELIVERY_TRANSLATED, language="French", publisher="HuffPost Canada")
    assert embed["description"] == f"> I called him a racist and I believe that’s so.\n_{said}_"


async def test_a_reported_quote_says_once_in_plain_words_that_wording_differs(discord_session) -> None:
    body = await ask(
        discord_session, '/quote query:"I stated that the Chair is acting in a disgraceful manner"'
    )
    embed = body["embeds"][0]
    assert embed["title"] == "Rachael Thomas"
    reported = say(Msg.DELIVERY_REPORTED, publisher="National Post (via PressReader), by Catherine Levesque")
    assert embed["description"].endswith(f"\n_{reported}_")
    assert field(body, Msg.CONTEXT) == (
        "Her reply when Fergus asked her to withdraw, as an unofficial transcript of Tuesday's proceedings "
        "has it (National Post); the Hansard leaves out “I withdraw”."
    )


async def test_people_involved_show_name_role_then_party_once(discord_session) -> None:
    people = field(await ask(discord_session, "/incident singh-2020"), Msg.PEOPLE_INVOLVED).splitlines()
    assert people == [
        "**Jagmeet Singh** — NDP Leader; asked for unanimous consent for the motion",
        "**Alain Therrien** — Bloc House Leader",
        "**Claude DeBellefeuille** — Bloc MP; raised the point of order",
        "**Carol Hughes** — Assistant Deputy Speaker; asked Singh to apologize (NDP)",
        "**Anthony Rota** — Speaker",
        "**Blanchet** — critic of the one-day suspension, per CBC News (18 June 2020)",
    ]


async def test_who_objected_names_each_who_once_with_every_source_under_it(discord_session) -> None:
    body = await ask(discord_session, "/who-objected singh-2020")
    names = [f["name"] for f in body["embeds"][0]["fields"]]
    objected = f"Bloc Québécois: {say(Msg.STANCE_OBJECT)}"
    assert names.count(objected) == 1
    news = say(Msg.ATTRIBUTION_NEWS_REPORTED).capitalize()
    lines = field_of(body, objected).splitlines()
    assert [line.split(" (")[0] for line in lines] == [
        f"• {news}",
        f"• {say(Msg.ATTRIBUTION_INFERRED).capitalize()}",
    ]
    assert lines[0].startswith(f"• {news} ({say(Msg.NEWS_REPORT)}, 17 June 2020): “All other parties")
    assert "“we don’t approve the motion that was just moved”; she did not say who said no." in lines[1]
    therrien = field_of(body, f"Alain Therrien (BQ): {say(Msg.STANCE_OBJECT)}")
    assert therrien.startswith(f"• {news} ([CBC News](https://www.cbc.ca/")


async def test_the_incident_lists_each_position_once_with_how_it_is_known(discord_session) -> None:
    positions = field(await ask(discord_session, "/incident singh-2020"), Msg.WHO_OBJECTED_OR_VOTED)
    first = positions.splitlines()[0]
    how = f"{say(Msg.ATTRIBUTION_NEWS_REPORTED)} ({say(Msg.NEWS_REPORT)}, 17 June 2020)"
    assert first.startswith(f"**Bloc Québécois** {say(Msg.STANCE_OBJECT)} — {how}")
    assert f" · {say(Msg.ATTRIBUTION_INFERRED)} ([HuffPost Canada" in first
    assert positions.count("**Bloc Québécois**") == 1


def ruled_on(who: str, subject: str, outcome: Msg) -> str:
    return say(Msg.RULED_ON, who=who, subject=subject, outcome=say(outcome))


async def test_a_ruling_says_who_ruled_on_whom_with_what_sanction(discord_session) -> None:
    body = await ask(discord_session, '/ruling query:"rachael thomas"')
    first = body["embeds"][0]["fields"][0]
    assert first["name"] == ruled_on(
        "Speaker Greg Fergus", "Rachael Thomas", Msg.OUTCOME_ORDERED_TO_LEAVE_SITTING
    )
    assert first["value"].startswith("Expelled Rachael Thomas, the first Conservative put out")


async def test_ruling_leads_with_the_ruling_the_query_matches(discord_session) -> None:
    body = await ask(discord_session, "/ruling query:wacko")
    names = [f["name"] for f in body["embeds"][0]["fields"]]
    assert names[0] == ruled_on("Speaker Greg Fergus", "Pierre Poilievre", Msg.OUTCOME_ASKED_TO_WITHDRAW)
    assert names[1] == ruled_on("Speaker Greg Fergus", "Rachael Thomas", Msg.OUTCOME_ORDERED_TO_LEAVE_SITTING)


async def test_an_old_ruling_button_carrying_an_incident_slug_still_answers(discord_session) -> None:
    await discord_session.invoke("/ruling query:wacko")
    old = discord_session.fake.find_message("parlbot:n:incident:poilievre-2024")
    button = next(b for row in old["components"] for b in row["components"])
    button["custom_id"] = "parlbot:n:ruling:poilievre-2024"  # as an older bot had sent it
    body = first_message(await discord_session.press("parlbot:n:ruling:poilievre-2024"))
    names = [f["name"] for f in body["embeds"][0]["fields"]]
    assert names[0] == ruled_on("Speaker Greg Fergus", "Rachael Thomas", Msg.OUTCOME_ORDERED_TO_LEAVE_SITTING)


async def test_the_incident_shows_each_ruling_as_who_on_whom_and_sanction(discord_session) -> None:
    body = await ask(discord_session, "/incident singh-2020")
    rulings = [f["value"] for f in body["embeds"][0]["fields"] if f["name"] == say(Msg.RULING)]
    headline = ruled_on("Speaker Anthony Rota", "Jagmeet Singh", Msg.OUTCOME_ORDERED_TO_LEAVE_SITTING)
    assert rulings[1].startswith(f"**{headline}**\nAsked Singh to leave")


async def test_person_gives_the_roles_the_sources_state_and_drops_trivial_aliases(discord_session) -> None:
    body = await ask(discord_session, "/person query:rota")
    embed = body["embeds"][0]
    assert embed["title"] == "Anthony Rota"
    assert say(Msg.ALSO_KNOWN_AS, aliases="Rota") not in embed.get("description", "")
    assert field(body, Msg.ROLES) == "Speaker — House of Commons of Canada, 17 June 2020"


async def test_person_gives_their_part_in_each_incident_and_the_rulings_on_them(discord_session) -> None:
    body = await ask(discord_session, "/person jagmeet-singh")
    assert body["embeds"][0]["description"].splitlines() == [
        say(Msg.PARTY, party="New Democratic Party (NDP)"),
        say(Msg.ALSO_KNOWN_AS, aliases="Jag"),
    ]
    assert field(body, Msg.ROLES) == "NDP Leader — House of Commons of Canada, 17 June 2020"
    outcomes = f"{say(Msg.OUTCOME_ASKED_TO_WITHDRAW)}, {say(Msg.OUTCOME_ORDERED_TO_LEAVE_SITTING)}"
    appears = field(body, Msg.APPEARS_IN)
    assert appears.endswith(
        "— as NDP Leader; asked for unanimous consent for the motion "
        + say(Msg.RULINGS_ON_THEM, outcomes=outcomes)
    )


async def test_person_groups_the_same_office_over_several_incidents(discord_session) -> None:
    body = await ask(discord_session, "/person john-bercow")
    assert (
        field(body, Msg.ROLES)
        == "Speaker — House of Commons of the United Kingdom, 11 April 2016, 10 December 2018"
    )


async def test_a_quote_said_in_another_language_shows_the_original_beside_the_english(
    moderator_session,
) -> None:
    added = await ask(
        moderator_session,
        '/add quote incident:singh-2020 text:"Quixotic quokkas quarrel." speaker:jagmeet-singh'
        " source:singh-2020-huffpost delivery:translated"
        ' original_text:"Les quokkas quichottesques se querellent." original_language:French',
    )
    assert added["content"].endswith(say(Msg.UNDO_HINT))
    body = await ask(moderator_session, '/quote query:"quixotic quokkas quarrel"')
    embed = body["embeds"][0]
    said = say(Msg.DELIVERY_TRANSLATED, language="French", publisher="HuffPost Canada")
    assert embed["description"] == f"> Quixotic quokkas quarrel.\n_{said}_"
    assert (
        field_of(body, say(Msg.ORIGINAL, language="French")) == "> Les quokkas quichottesques se querellent."
    )


async def test_an_embed_about_an_incident_carries_its_date_as_timestamp(discord_session) -> None:
    for line in (
        "/incident singh-2020",
        "/who-objected singh-2020",
        "/ruling singh-2020",
        '/quote "I will not"',
    ):
        body = await ask(discord_session, line)
        assert body["embeds"][0]["timestamp"] == "2020-06-17T00:00:00+00:00", line


async def test_a_quote_says_who_said_it_as_they_took_part_then(discord_session) -> None:
    body = await ask(discord_session, '/quote query:"I want to take the opportunity"')
    assert field(body, Msg.SAID_BY) == "Justin Trudeau — Prime Minister (LPC)"
