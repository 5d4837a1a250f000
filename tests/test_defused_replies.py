"""Stored text is shown defused in every reply: no mention renders as one, no control or bidi control
character reaches a member, and the words themselves are all still there.

The entries' texts are written straight into the database, as text stored before parlbot cleaned its
input would be (``hostile_library``); then lookups, searches, did-you-mean prompts, refusals naming
entries and autocomplete run through the loopback Discord, on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlmodel import Session, select

from bot.library import Library
from bot.loopback.session import OfflineSession, modal_fields, modals
from bot.messages.catalogue import Msg
from bot.settings import Settings
from db.models import Incident, Person, Quote, Source
from tests.discord_harness import (
    assert_defused,
    before,
    buttons,
    choices,
    first_message,
    message_bodies,
    shown_texts,
)

# What hostile text holds: every kind of mention, bidi overrides and isolates, a bell and an escape.
HOSTILE = "<@&456> @everyone <@123> <@!7> <#1> @here \u202eevil\u202c \u2066x\u2069 \u200fy \a\x1b"
UNSEEN = "\u202e\u202c\u2066\u2069\u200f\a\x1b"
QUOTE = f"I will not. {HOSTILE}"


def make_hostile(session: Session) -> None:
    """Hostile text in incident titles, a summary, people's names, a quote and a source's publisher."""
    for incident in session.exec(select(Incident).where(Incident.slug.in_(["singh-2020", "skinner-2016"]))):
        incident.title = f"{HOSTILE} {incident.title}"
        incident.summary = f"{incident.summary} {HOSTILE}"
    for person in session.exec(select(Person).where(Person.slug.in_(["justin-trudeau", "pierre-trudeau"]))):
        person.name = f"{person.name} {HOSTILE}"
    source = session.exec(select(Source).where(Source.key == "singh-2020-cbc")).one()
    source.publisher = f"CBC News {HOSTILE}"
    quote = session.exec(select(Quote).where(Quote.text == "I will not.")).one()
    quote.text = QUOTE


@pytest.fixture
def library(parlbot_settings: Settings) -> Iterator[Library]:
    """The library over the seeded database once hostile text is stored in it, indexed afresh."""
    opened = Library.open(parlbot_settings.database_url, seed=False)
    with opened.database.session() as session:
        make_hostile(session)
        session.commit()
    opened.close()
    reopened = Library.open(parlbot_settings.database_url, seed=False)
    yield reopened
    reopened.close()


async def ask(session: OfflineSession, line: str) -> dict[str, Any]:
    return first_message(await session.invoke(line))


def readable(text: str) -> str:
    """What a member reads of ``text``: zero-width spaces are not seen."""
    return text.replace("\u200b", "")


async def test_an_incident_shows_its_stored_title_and_summary_defused(discord_session) -> None:
    body = await ask(discord_session, "/incident singh-2020")
    assert_defused(body)
    assert "<@&456> @everyone <@123> <@!7> <#1> @here evil x y" in readable(body["embeds"][0]["title"])


async def test_a_quote_shows_all_its_words_and_only_its_mentions_and_controls_change(discord_session) -> None:
    prompt = await ask(discord_session, '/quote query:"I will not"')
    button = next(b for b in buttons(prompt) if "@\u200beveryone" in b["label"])
    body = first_message(await discord_session.press(button["custom_id"]))
    assert_defused(body)
    words = "".join(char for char in QUOTE if char not in UNSEEN)
    assert readable(body["embeds"][0]["description"]) == f"> {words}"


async def test_search_results_and_their_buttons_are_defused(discord_session) -> None:
    body = await ask(discord_session, "/search query:singh")
    assert_defused(body)
    assert any("@\u200beveryone" in button["label"] for button in buttons(body))


async def test_a_did_you_mean_prompt_lists_stored_titles_defused(discord_session) -> None:
    body = await ask(discord_session, "/incident 2016")
    assert body["content"].startswith(before(Msg.DID_YOU_MEAN, "choices", query="2016"))
    assert_defused(body)
    assert "@\u200beveryone" in body["content"]


async def test_a_refusal_listing_people_of_the_same_name_shows_them_defused(moderator_session) -> None:
    line = '/add quote incident:singh-2020 text:"My careful words." speaker:trudeau source:singh-2020-cbc'
    body = await ask(moderator_session, line)
    assert "— `justin-trudeau`" in body["content"], body["content"]
    assert_defused(body)


async def test_a_refusal_suggesting_sources_shows_their_publishers_defused(moderator_session) -> None:
    line = "/add position incident:singh-2020 motion:1 stance:object attribution:inferred source:globe"
    body = await ask(moderator_session, line)
    assert "— `singh-2020-cbc`" in body["content"], body["content"]
    assert_defused(body)


async def test_autocomplete_names_are_defused(discord_session) -> None:
    offered = choices(await discord_session.complete("/incident query:singh"))
    assert "singh-2020" in [choice["value"] for choice in offered]
    assert_defused({"choices": offered})


async def test_a_moderators_autocomplete_names_are_defused(moderator_session) -> None:
    offered = choices(await moderator_session.complete("/add quote incident:singh-2020 source:cbc"))
    assert "singh-2020-cbc" in [choice["value"] for choice in offered]
    assert_defused({"choices": offered})


async def test_a_person_of_several_incidents_lists_them_defused(discord_session) -> None:
    body = await ask(discord_session, "/person justin-trudeau")
    assert_defused(body)
    assert all("\u202e" not in text for text in shown_texts(body))


async def test_pressing_a_did_you_mean_button_answers_defused(discord_session) -> None:
    await discord_session.invoke("/incident 2016")
    for body in message_bodies(await discord_session.press("parlbot:e:incident:skinner-2016")):
        assert_defused(body)


async def test_an_edit_form_holds_the_stored_text_as_it_is_so_that_saving_changes_nothing_else(
    moderator_session,
) -> None:
    modal = modals(await moderator_session.invoke("/edit quote incident:singh-2020 number:4"))[0]
    assert_defused(modal)
    assert {field.custom_id: field.value for field in modal_fields(modal)}["text"] == QUOTE


def test_a_scope_holding_text_stored_before_the_rules_still_exports(library: Library) -> None:
    dataset = library.export(guild_id=0)

    # As stored, control characters included: a file says what the data holds.
    assert QUOTE in [quote.text for incident in dataset.incidents for quote in incident.quotes]
