"""Data keeps its language: entries carry French titles and summaries beside the English, replies in
French show them where present and say when a text is shown in English only, the dataset round-trips
them, and the provenance check holds each French text to what its English says."""

from __future__ import annotations

import copy
import datetime as dt
import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import text
from sqlmodel import select

from bot.answers import render
from bot.answers.queries import IncidentDetail, IncidentRef, RulingView, SourceRef
from bot.loopback.session import OfflineSession, modals
from bot.messages.catalogue import Msg, say, speaking
from db.dataset.files import read_dataset
from db.dataset.provenance import check_dataset, translation_problems
from db.dataset.reader import export_dataset
from db.dataset.schema import SHIPPED_DATASET, Dataset, parse_dataset
from db.dataset.writer import load_dataset
from db.models import Incident, IncidentKind, RulingOutcome
from db.session import Database
from tests.discord_harness import first_message
from tests.excerpts import excerpt_folder

SOURCE = SourceRef("src", "https://example.org/a", "A title", "Publisher", None)
REF = IncidentRef("doe-2021", "Jane Doe named", dt.date(2021, 3, 4), "Jane Doe désignée par son nom")
FRENCH_RULING = "A désigné la députée."
RULING = RulingView(1, REF, "Speaker", None, RulingOutcome.NAMED, "Named.", SOURCE, summary_fr=FRENCH_RULING)
DETAIL = IncidentDetail(
    ref=REF,
    chamber="House of Commons of Canada",
    country="Canada",
    kind=IncidentKind.NAMING,
    summary="The Speaker named Jane Doe.",
    notes=None,
    aliases=(),
    participants=(),
    motions=(),
    quotes=(),
    rulings=(RULING,),
    sources=(SOURCE,),
    summary_fr="Le président a désigné Jane Doe par son nom.",
)
ENGLISH_ONLY = "(en anglais seulement)"  # pinned: the note a French reader sees


def embed_of(detail: IncidentDetail) -> dict[str, Any]:
    embed: dict[str, Any] = render.incident_reply(detail).embeds[0]
    return embed


def ruling_texts(embed: dict[str, Any]) -> list[str]:
    return [f["value"] for f in embed["fields"] if f["name"] == say(Msg.RULING)]


# -- replies -------------------------------------------------------------------------------------


def test_a_french_reply_shows_the_french_title_and_summaries() -> None:
    with speaking("fr"):
        embed = embed_of(DETAIL)
        rulings = ruling_texts(embed)
    assert embed["title"] == "Jane Doe désignée par son nom"
    assert embed["description"].startswith("Le président a désigné Jane Doe par son nom.")
    assert FRENCH_RULING in rulings[0]


def test_an_english_reply_is_unchanged_by_the_french_texts() -> None:
    english = replace(
        DETAIL, ref=replace(REF, title_fr=None), summary_fr=None, rulings=(replace(RULING, summary_fr=None),)
    )
    assert render.incident_reply(DETAIL) == render.incident_reply(english)
    assert embed_of(DETAIL)["title"] == "Jane Doe named"


def test_a_french_reply_says_which_texts_are_in_english_only() -> None:
    untranslated = replace(DETAIL, ref=replace(REF, title_fr=None), summary_fr=None)
    with speaking("fr"):
        note = say(Msg.ENGLISH_ONLY)
        embed = embed_of(untranslated)
        rulings = ruling_texts(embed)
    assert note == ENGLISH_ONLY
    assert embed["title"] == f"Jane Doe named {note}"
    assert embed["description"].startswith(f"The Speaker named Jane Doe. {note}")
    assert note not in rulings[0]  # the ruling has its French


def test_the_english_only_note_survives_a_title_as_long_as_a_title_may_be() -> None:
    longest = replace(DETAIL, ref=replace(REF, title="T" * 256, title_fr=None))
    with speaking("fr"):
        title = embed_of(longest)["title"]
    assert title.endswith(ENGLISH_ONLY)
    assert len(title) <= 256


async def test_incident_asked_in_french_answers_with_its_french_title(
    discord_session: OfflineSession,
) -> None:
    french = replace(discord_session.invoker, locale="fr")
    body = first_message(await discord_session.invoke("/incident singh-2020", invoker=french))
    embed = body["embeds"][0]
    shipped = next(i for i in read_dataset(SHIPPED_DATASET).incidents if i.slug == "singh-2020")
    assert shipped.title_fr is not None
    assert shipped.summary_fr is not None
    assert embed["title"] == shipped.title_fr
    assert embed["description"].startswith(shipped.summary_fr[:200])
    assert ENGLISH_ONLY not in embed["title"] + embed["description"]


async def test_an_edit_gives_an_incident_its_french_title_through_the_form(
    moderator_session: OfflineSession,
) -> None:
    [modal] = modals(await moderator_session.invoke("/edit incident incident:trudeau-1971"))
    await moderator_session.submit(modal["custom_id"], {"title_fr": "Un titre en français"})
    french = replace(moderator_session.invoker, locale="fr")
    body = first_message(await moderator_session.invoke("/incident trudeau-1971", invoker=french))
    assert body["embeds"][0]["title"] == "Un titre en français"


# -- the dataset ---------------------------------------------------------------------------------


def test_every_shipped_incident_has_a_french_title_and_summary() -> None:
    dataset = read_dataset(SHIPPED_DATASET)
    assert [i.slug for i in dataset.incidents if not (i.title_fr and i.summary_fr)] == []
    assert [i.slug for i in dataset.incidents for r in i.rulings if not r.summary_fr] == []


def test_the_french_texts_round_trip_through_the_database(database: Database) -> None:
    shipped = read_dataset(SHIPPED_DATASET)
    with database.session() as session:
        load_dataset(session, shipped, guild_id=0)
        session.commit()
        stored = session.exec(select(Incident).where(Incident.slug == "singh-2020")).one()
        singh = next(i for i in shipped.incidents if i.slug == "singh-2020")
        assert (stored.title_fr, stored.summary_fr) == (singh.title_fr, singh.summary_fr)
        exported = export_dataset(session, guild_id=0)
    assert exported.incidents == shipped.incidents


def test_rows_from_before_the_french_columns_have_no_french(empty_database: Database) -> None:
    empty_database.upgrade("0003")
    with empty_database.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO chamber (guild_id, slug, name, legislature, country)"
                " VALUES (0, 'c', 'Chamber', 'Legislature', 'Canada')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO incident (guild_id, slug, title, date, chamber_id, kind, summary, aliases)"
                " VALUES (0, 'i', 'Title', '2020-06-17', 1, 'naming', 'Summary', '[]')"
            )
        )
    empty_database.upgrade()
    with empty_database.session() as session:
        incident = session.exec(select(Incident)).one()
    assert (incident.title_fr, incident.summary_fr) == (None, None)


@pytest.fixture
def empty_database(database_url: str) -> Iterator[Database]:
    db = Database(database_url)
    yield db
    db.dispose()


# -- the provenance check ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SHIPPED_DATASET.read_text(encoding="utf-8"))
    return document


def with_singh(document: dict[str, Any], **fields: str) -> Dataset:
    edited = copy.deepcopy(document)
    singh = next(entry for entry in edited["incidents"] if entry["slug"] == "singh-2020")
    singh.update(fields)
    return parse_dataset(edited)


def test_a_french_summary_may_not_give_a_number_its_english_lacks(shipped_document: dict[str, Any]) -> None:
    dataset = with_singh(shipped_document, summary_fr="Singh a été expulsé pour 5 jours.")
    singh = next(i for i in dataset.incidents if i.slug == "singh-2020")
    assert list(translation_problems(singh)) == [("summary_fr", "says 5, which its English does not")]


def test_a_french_summary_may_not_translate_a_sources_words(shipped_document: dict[str, Any]) -> None:
    """A quote stays as the source printed it: translated into French it is in no source, nor quoted
    by the English."""
    dataset = with_singh(shipped_document, summary_fr="Singh a dit « je ne le ferai pas ».")
    problems = [p for p in check_dataset(dataset, excerpt_folder()) if p.field == "summary_fr"]
    assert [p.message.split(",")[0] for p in problems] == [
        "“je ne le ferai pas” is not in any of the incident's cited sources",
        "quotes “je ne le ferai pas”",
    ]


def test_a_french_summary_quoting_what_its_english_quotes_holds(shipped_document: dict[str, Any]) -> None:
    summary_fr = "CBC News : “making what he described as a dismissive gesture”."
    dataset = with_singh(shipped_document, summary_fr=summary_fr)
    assert [p for p in check_dataset(dataset, excerpt_folder()) if p.field == "summary_fr"] == []


def test_the_shipped_french_says_no_more_than_its_english() -> None:
    dataset = read_dataset(SHIPPED_DATASET)
    assert [p for i in dataset.incidents for p in translation_problems(i)] == []
