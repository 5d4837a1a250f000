"""Every reply follows the interaction's locale: ``fr`` answers in French, ``en-*`` in English, any other
locale in the guild's ``/config language``, then English. Commands, buttons, views, modals and the error
path all speak it, driven through the loopback as Discord would send them."""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Iterable, Iterator
from dataclasses import replace
from enum import StrEnum
from typing import Any

from bot.answers.queries import incident_detail
from bot.curation.changes import Actor
from bot.loopback.commandline import parse
from bot.loopback.payloads import Invoker
from bot.loopback.session import OfflineSession, is_ephemeral, modals
from bot.messages.catalogue import LOCALES, Msg, catalogue, say, speaking
from tests.discord_harness import all_text, buttons, first_message

Json = dict[str, Any]


def french(session: OfflineSession) -> Invoker:
    return replace(session.invoker, locale="fr")


def in_french(msg: Msg, **fields: object) -> str:
    with speaking("fr"):
        return say(msg, **fields)


async def answer(session: OfflineSession, line: str, invoker: Invoker | None = None) -> Json:
    return first_message(await session.invoke(line, invoker=invoker))


# Words parlbot's French shares with its English; any other English word of a message is untranslated.
SHARED_WORDS = {"incident", "motion", "page", "parlbot", "positions", "source", "sources"}


def phrases_of(msg: Msg) -> list[str]:
    """The runs of words ``msg``'s English text spells out around its fields ("ruled on")."""
    pieces = [literal.strip(" .,:;()·—\n") for literal, *_ in string.Formatter().parse(catalogue("en")[msg])]
    return [piece for piece in pieces if len(piece) >= 3 and piece.lower() not in SHARED_WORDS]


def words_of(msg: Msg) -> list[str]:
    """The English words of ``msg``'s text, but those French shares."""
    return [
        word
        for phrase in phrases_of(msg)
        for word in re.findall(r"[A-Za-z]{3,}", phrase)
        if word.lower() not in SHARED_WORDS
    ]


def data_texts(value: object) -> Iterator[str]:
    """Every string a view holds (its data, in the language the sources give it)."""
    if isinstance(value, str) and not isinstance(value, StrEnum):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from data_texts(getattr(value, item.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from data_texts(item)


def chrome(text: str, data: Iterable[str]) -> str:
    """``text`` with every piece of the data blanked out: what is left is parlbot's own words."""
    for piece in sorted(set(data), key=len, reverse=True):
        text = text.replace(piece, "\0")
    return text


def said(words: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(words)}(?!\w)", text) is not None


async def test_the_french_incident_answer_has_none_of_the_english_chrome(discord_session) -> None:
    """The issue's acceptance test: none of the words parlbot adds to the data is English in French."""
    library, guild = discord_session.bot.library, discord_session.invoker.guild_id
    data: list[str] = []
    for locale in LOCALES:
        with speaking(locale), library.database.session() as session:
            data += data_texts(incident_detail(session, slug="singh-2020", guild_id=guild))
    english = chrome(all_text(await answer(discord_session, "/incident singh-2020")), data)
    french_answer = all_text(await answer(discord_session, "/incident singh-2020", french(discord_session)))
    left = chrome(french_answer, data)

    used = {msg for msg in Msg if any(said(phrase, english) for phrase in phrases_of(msg))}
    assert {Msg.PEOPLE_INVOLVED, Msg.KEY_QUOTES, Msg.RULED_ON, Msg.UNOFFICIAL, Msg.ALL_QUOTES} <= used
    english_left = {msg: [w for w in words_of(msg) if said(w, left)] for msg in used}
    assert {msg: words for msg, words in english_left.items() if words} == {}
    assert "17 June 2020" in english
    assert "17 June 2020" not in left
    assert "17 juin 2020" in left


async def test_the_french_incident_answer_labels_its_fields_in_french(discord_session) -> None:
    embed = (await answer(discord_session, "/incident singh-2020", french(discord_session)))["embeds"][0]
    names = {f["name"] for f in embed["fields"]}
    assert {in_french(Msg.PEOPLE_INVOLVED), in_french(Msg.KEY_QUOTES), in_french(Msg.RULING)} <= names
    assert embed["footer"]["text"] == f"{in_french(Msg.UNOFFICIAL)} · singh-2020"


async def test_a_motion_reads_its_procedure_and_result_in_french(discord_session) -> None:
    embed = (await answer(discord_session, "/incident singh-2020", french(discord_session)))["embeds"][0]
    motion = next(f["value"] for f in embed["fields"] if f["name"] == in_french(Msg.MOTION))
    procedure = in_french(Msg.PROCEDURE_UNANIMOUS_CONSENT)
    result = in_french(Msg.RESULT_NOT_MOVED)
    assert in_french(Msg.PROCEDURE, procedure=procedure, result=result) in motion


async def test_a_party_shows_its_french_abbreviation_in_french(discord_session) -> None:
    embed = (await answer(discord_session, "/incident singh-2020", french(discord_session)))["embeds"][0]
    people = next(f["value"] for f in embed["fields"] if f["name"] == in_french(Msg.PEOPLE_INVOLVED))
    assert "(NPD)" in people
    assert "(NDP)" not in people


async def test_an_english_locale_answers_in_english(discord_session) -> None:
    for locale in ("en-US", "en-GB"):
        invoker = replace(discord_session.invoker, locale=locale)
        embed = (await answer(discord_session, "/incident singh-2020", invoker))["embeds"][0]
        assert embed["footer"]["text"] == f"{say(Msg.UNOFFICIAL)} · singh-2020"


async def test_another_locale_answers_in_the_guilds_language_then_english(discord_session, library) -> None:
    german = replace(discord_session.invoker, locale="de")
    footer = (await answer(discord_session, "/incident singh-2020", german))["embeds"][0]["footer"]["text"]
    assert footer == f"{say(Msg.UNOFFICIAL)} · singh-2020"

    guild = discord_session.invoker.guild_id
    assert guild is not None
    library.set_language(actor=Actor(guild, 1), language="fr")
    footer = (await answer(discord_session, "/incident singh-2020", german))["embeds"][0]["footer"]["text"]
    assert footer == f"{in_french(Msg.UNOFFICIAL)} · singh-2020"
    english = replace(discord_session.invoker, locale="en-US")
    footer = (await answer(discord_session, "/incident singh-2020", english))["embeds"][0]["footer"]["text"]
    assert footer == f"{say(Msg.UNOFFICIAL)} · singh-2020"


async def test_a_reply_button_answers_in_the_language_of_whoever_presses_it(discord_session) -> None:
    await discord_session.invoke("/incident singh-2020")
    pressed = await discord_session.press("parlbot:n:objected:singh-2020", invoker=french(discord_session))
    title = first_message(pressed)["embeds"][0]["title"]
    assert title.startswith(in_french(Msg.WHO_OBJECTED_TITLE, title="\0").partition("\0")[0])


async def test_a_views_pages_turn_in_french(discord_session) -> None:
    body = await answer(discord_session, "/search speaker", french(discord_session))
    footer = body["embeds"][0]["footer"]["text"]
    pages = int(footer.rpartition("/")[2])
    assert footer.endswith(in_french(Msg.PAGE, page=1, pages=pages))
    nav = {b["label"]: b["custom_id"] for b in buttons(body)}
    turned = first_message(
        await discord_session.press(nav[in_french(Msg.NEXT)], invoker=french(discord_session))
    )
    assert turned["embeds"][0]["footer"]["text"].endswith(in_french(Msg.PAGE, page=2, pages=pages))


async def test_someone_elses_pages_are_refused_in_the_language_of_whoever_presses(discord_session) -> None:
    body = await answer(discord_session, "/search trudeau")
    nav = {b["label"]: b["custom_id"] for b in buttons(body)}
    stranger = replace(french(discord_session), user_id=discord_session.invoker.user_id + 1)
    refusal = first_message(await discord_session.press(nav[say(Msg.NEXT)], invoker=stranger))
    assert refusal["content"] == in_french(Msg.SEARCH_NOT_YOURS)
    assert is_ephemeral(refusal)


async def test_a_refusal_on_the_error_path_is_in_french(discord_session) -> None:
    body = await answer(discord_session, "/undo", french(discord_session))
    assert body["content"] == in_french(Msg.UNDO_NOT_STAFF)


async def test_no_match_is_told_in_french(discord_session) -> None:
    body = await answer(discord_session, "/incident qqqqzzzz", french(discord_session))
    what = in_french(Msg.TOPIC_INCIDENT)
    assert body["content"].startswith(in_french(Msg.NO_MATCH, what=what, query="qqqqzzzz"))


async def test_a_form_opens_in_french(moderator_session) -> None:
    invoker = french(moderator_session)
    await moderator_session.invoke(
        '/add quote incident:singh speaker:"Jagmeet Singh" source:cbc', invoker=invoker
    )
    modal = modals(moderator_session.fake.requests)[-1]
    assert modal["title"] == in_french(Msg.ADD_TITLE, subject=in_french(Msg.PART_QUOTE))


async def test_help_names_the_commands_in_french(discord_session) -> None:
    text = all_text(await answer(discord_session, "/help", french(discord_session)))
    assert "/recherche requête" in text
    assert "/search query" not in text


async def test_a_french_command_line_names_its_options_and_choices_in_french(moderator_session) -> None:
    line = (
        '/ajouter décision incident:singh-2020 sanction:"désignation par son nom" rendue_par:"Anthony Rota"'
    )
    parsed = parse(line, moderator_session.bot.tree)
    assert parsed.path == ("add", "ruling")
    assert parsed.values["outcome"] == "named"
    assert parsed.values["ruled_by"] == "Anthony Rota"
