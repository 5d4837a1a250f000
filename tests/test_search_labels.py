"""Labels follow the asker's language: autocomplete choices and /search results read in French where
the data has French (titles, names, abbreviations) or the catalogue words them (rulings, motions), in
English otherwise; the choices' values stay the same, so a command resolves them alike."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.library import Library
from bot.limits import clip
from bot.loopback.session import OfflineSession
from bot.messages.catalogue import Msg, say, speaking
from bot.search.documents import load_documents
from bot.search.index import LABEL_MAX, Document, DocumentKind, SearchIndex
from db.session import Database
from tests.discord_harness import choices

SINGH_FR = "Le chef du NPD Jagmeet Singh expulsé des Communes"  # the start of singh-2020's title_fr
SINGH_EN = "NDP Leader Jagmeet Singh ordered out of the Commons"


@pytest.fixture(scope="module")
def documents(shipped_db: Database) -> list[Document]:
    with shipped_db.session() as session:
        return load_documents(session)


@pytest.fixture(scope="module")
def library(shipped_db: Database, documents: list[Document]) -> Library:
    return Library(shipped_db, SearchIndex(documents))


def complete_in(locale: str, library: Library, topic: str, query: str) -> list[tuple[str, str]]:
    with speaking(locale):
        return library.complete(topic, query, guild_id=None)


def test_autocomplete_in_french_shows_the_french_title(library: Library) -> None:
    name, value = complete_in("fr", library, "incident", "singh")[0]
    assert (name.startswith(SINGH_FR), name.endswith(" (2020)"), value) == (True, True, "singh-2020")


def test_autocomplete_in_english_shows_the_english_title(library: Library) -> None:
    name, _ = complete_in("en", library, "incident", "singh")[0]
    assert name.startswith(SINGH_EN)


@pytest.mark.parametrize(
    ("topic", "query"),
    [
        ("incident", "singh"),
        ("ruling", "fergus"),
        ("search", "npd"),
        ("person", ""),
        ("who-objected", "rcmp"),
    ],
)
def test_choices_lead_to_the_same_values_in_both_languages(library: Library, topic: str, query: str) -> None:
    english = [value for _, value in complete_in("en", library, topic, query)]
    assert english
    assert [value for _, value in complete_in("fr", library, topic, query)] == english


def test_a_ruling_choice_is_worded_in_french_with_the_french_outcome(library: Library) -> None:
    names = [name for name, _ in complete_in("fr", library, "ruling", "fergus")]
    with speaking("fr"):
        start = say(
            Msg.RULING_CHOICE_ON,
            ruled_by="Speaker Greg Fergus",
            subject="Rachael Thomas",
            outcome=say(Msg.OUTCOME_ORDERED_TO_LEAVE_SITTING),
        )
    assert any(name.startswith(start[:60]) for name in names), names
    assert len(set(names)) == len(names)


def test_french_choices_that_would_read_the_same_say_how_they_differ(documents: list[Document]) -> None:
    ruling = next(d for d in documents if d.kind is DocumentKind.RULING and d.detail_fr)
    twin = replace(ruling, key="ruling:0", detail_fr="Une autre décision.")
    library = Library(Database("sqlite://"), SearchIndex([ruling, twin]))
    names = [name for name, _ in complete_in("fr", library, "ruling", "")]
    told = [f"{ruling.label_fr} — {detail}" for detail in (ruling.detail_fr, twin.detail_fr)]
    assert names == [clip(name, LABEL_MAX) for name in told]


def test_people_parties_and_terms_are_named_in_french(library: Library) -> None:
    assert complete_in("fr", library, "person", "singh")[0][0] == "Jagmeet Singh (NPD)"
    assert complete_in("fr", library, "party", "npd")[0][0] == "Nouveau Parti démocratique (NPD/NDP)"
    assert complete_in("fr", library, "term", "masse")[0][0] == "La masse"
    assert complete_in("en", library, "party", "ndp")[0][0] == "New Democratic Party (NDP/NPD)"


def test_search_results_are_labelled_in_french(library: Library) -> None:
    with speaking("fr"):
        labels = [choice.label for choice in library.search("singh", guild_id=None)]
    assert any(label.startswith(SINGH_FR) for label in labels)
    assert not any(label.startswith(SINGH_EN) for label in labels)


def test_entry_and_chamber_choices_are_named_in_french(library: Library) -> None:
    with speaking("fr"):
        entries = library.complete_entries("jagmeet singh", guild_id=None)
        chambers = library.chamber_choices("canada")
        person = say(Msg.LABELLED, label=say(Msg.KIND_PERSON), text="Jagmeet Singh (NPD)")
    assert (person, "person:jagmeet-singh") in entries
    assert chambers == [("Chambre des communes", "ca-house-of-commons")]


def test_a_french_label_is_kept_only_where_it_differs(documents: list[Document]) -> None:
    assert all(d.label_fr is None or d.label_fr != d.label for d in documents)
    assert all(d.label_fr is None for d in documents if d.kind is DocumentKind.QUOTE)
    assert (
        Document(kind=DocumentKind.TERM, key="t", label="Suspension", label_fr="Suspension").label_fr is None
    )


def test_every_french_label_fits_a_choice(documents: list[Document]) -> None:
    assert all(1 <= len(d.label_fr) <= LABEL_MAX for d in documents if d.label_fr)


def test_documents_built_while_french_is_spoken_keep_their_english_labels(
    shipped_db: Database, documents: list[Document]
) -> None:
    with speaking("fr"), shipped_db.session() as session:
        rebuilt = load_documents(session)  # as a French moderator's write re-indexes in its thread
    assert [(d.label, d.label_fr) for d in rebuilt] == [(d.label, d.label_fr) for d in documents]


async def test_autocomplete_through_discord_in_a_french_locale_shows_french_titles(
    discord_session: OfflineSession,
) -> None:
    french = replace(discord_session.invoker, locale="fr")
    listed = choices(await discord_session.complete("/incident query:singh", invoker=french))
    assert listed[0]["value"] == "singh-2020"
    assert listed[0]["name"].startswith(SINGH_FR)
    english = choices(await discord_session.complete("/incident query:singh"))
    assert english[0]["name"].startswith(SINGH_EN)
