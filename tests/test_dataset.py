"""The dataset format, the shipped dataset's content, and loading/exporting it through the database."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rapidfuzz import fuzz
from sqlalchemy import func
from sqlmodel import Session, SQLModel, select

from db.dataset.files import dump_dataset, read_dataset, write_dataset
from db.dataset.provenance import check_file
from db.dataset.reader import export_dataset
from db.dataset.schema import (
    SHIPPED_DATASET,
    UNVERSIONED,
    Dataset,
    DatasetError,
    IncidentEntry,
    TermEntry,
    parse_dataset,
)
from db.dataset.seed import record_version
from db.dataset.writer import ScopeWriter, load_dataset
from db.models import (
    SHARED_GUILD,
    TEXT_MAX,
    Attribution,
    Chamber,
    DatasetVersion,
    Delivery,
    Incident,
    IncidentSource,
    Motion,
    Participant,
    Party,
    Person,
    Position,
    Quote,
    Ruling,
    Source,
    Stance,
)
from tests.excerpts import excerpt_folder

TABLES: list[type[SQLModel]] = [
    Chamber,
    Party,
    Person,
    Source,
    Incident,
    IncidentSource,
    Participant,
    Motion,
    Position,
    Quote,
    Ruling,
]


@pytest.fixture(scope="module")
def shipped() -> Dataset:
    return read_dataset(SHIPPED_DATASET)


@pytest.fixture(scope="module")
def sources() -> Path:
    return excerpt_folder()


@pytest.fixture(scope="module")
def index(sources: Path) -> dict[str, Any]:
    return json.loads((sources / "index.json").read_text(encoding="utf-8"))


def incident(dataset: Dataset, slug: str) -> IncidentEntry:
    return next(entry for entry in dataset.incidents if entry.slug == slug)


def citations(dataset: Dataset) -> list[tuple[str, str]]:
    """(what, source key) for every incident, motion, position, quote and ruling."""
    cited = []
    for entry in dataset.incidents:
        cited += [(f"{entry.slug} (incident)", key) for key in entry.sources]
        for motion in entry.motions:
            cited.append((f"{entry.slug} motion", motion.source))
            cited += [(f"{entry.slug} position {p.label}", p.source) for p in motion.positions]
        cited += [(f"{entry.slug} quote {q.text[:30]}", q.source) for q in entry.quotes]
        cited += [(f"{entry.slug} ruling {r.outcome}", r.source) for r in entry.rulings]
    return cited


# --- the shipped file -------------------------------------------------------------------------------


def test_shipped_dataset_validates_as_format_version_1(shipped: Dataset) -> None:
    assert shipped.format == "parlbot-dataset"
    assert shipped.version == 1
    assert shipped.dataset_version == "2026.12.5"
    assert len(shipped.incidents) == 12
    assert [term.slug for term in shipped.terms] == [
        "mace",
        "naming",
        "suspension",
        "unanimous-consent",
        "withdrawing-a-remark",
    ]
    assert shipped.questions == []  # quiz questions are a guild's own


def test_shipped_file_is_written_in_canonical_form(shipped: Dataset) -> None:
    assert SHIPPED_DATASET.read_text(encoding="utf-8") == dump_dataset(shipped)


def test_every_index_incident_is_shipped_under_the_same_slug(shipped: Dataset, index: dict[str, Any]) -> None:
    assert {entry["slug"] for entry in index["incidents"]} == {entry.slug for entry in shipped.incidents}


def test_every_source_url_in_the_index_is_a_dataset_source(shipped: Dataset, index: dict[str, Any]) -> None:
    urls = {source.url for source in shipped.sources}
    wanted = {
        source["url"]
        for entry in index["incidents"]
        for source in [entry["source"], *entry.get("additional_sources", [])]
    }
    assert wanted - urls == set()


def test_each_incident_cites_its_index_source_as_main_page(shipped: Dataset, index: dict[str, Any]) -> None:
    url_of = {source.key: source.url for source in shipped.sources}
    for entry in index["incidents"]:
        assert url_of[incident(shipped, entry["slug"]).sources[0]] == entry["source"]["url"]


def test_the_shipped_dataset_holds_against_its_excerpts(sources: Path) -> None:
    # Quotes piece by piece in their own source's section, speakers named, fragments found
    # (db.dataset.provenance; the same check as `parlbot db check FILE --sources DIR`).
    assert [str(problem) for problem in check_file(SHIPPED_DATASET, sources)] == []


def test_every_excerpt_named_by_a_source_exists(shipped: Dataset, sources: Path) -> None:
    named = {source.excerpt for source in shipped.sources if source.excerpt is not None}
    assert {name for name in named if not (sources / name).is_file()} == set()


def test_every_incident_quote_ruling_motion_and_position_cites_a_known_source(shipped: Dataset) -> None:
    keys = {source.key for source in shipped.sources}
    cited = citations(shipped)
    assert [(what, key) for what, key in cited if key not in keys] == []


def test_every_source_with_a_url_uses_http_or_https(shipped: Dataset) -> None:
    urls = [source.url for source in shipped.sources if source.url is not None]
    assert all(url.startswith(("http://", "https://")) for url in urls)


def test_only_the_seed_article_lacks_a_url_and_none_is_invented(shipped: Dataset) -> None:
    without_url = [source for source in shipped.sources if source.url is None]
    assert [(source.key, source.excerpt) for source in without_url] == [
        ("singh-2020-seed-article", "singh-2020-article.txt")
    ]
    seed = without_url[0]
    assert (seed.publisher, seed.published) == (None, dt.date(2020, 6, 17))
    assert "names no publisher" in (seed.note or "")


def word_runs(text: str, length: int) -> set[tuple[str, ...]]:
    words = re.findall(r"[\w’']+", text.casefold())
    return {tuple(words[i : i + length]) for i in range(len(words) - length + 1)}


def test_summaries_are_written_afresh_not_copied_from_the_index(
    shipped: Dataset, index: dict[str, Any]
) -> None:
    for entry in index["incidents"]:
        ours = incident(shipped, entry["slug"]).summary
        assert fuzz.ratio(ours, entry["summary"]) < 85, entry["slug"]
        # Names and set phrases recur; a run of eight words in common means a sentence was copied.
        assert word_runs(ours, 8) & word_runs(entry["summary"], 8) == set(), entry["slug"]


def test_incidents_answer_to_their_nicknames(shipped: Dataset) -> None:
    aliases = {entry.slug: {alias.casefold() for alias in entry.aliases} for entry in shipped.incidents}
    assert "elbowgate" in aliases["trudeau-2016"]
    assert "fuddle duddle" in aliases["trudeau-1971"]
    assert "dodgy dave" in aliases["skinner-2016"]
    assert "wacko" in aliases["poilievre-2024"]
    assert "haka" in aliases["maipi-clarke-2024"]
    assert "mace" in aliases["heseltine-1976"] & aliases["russell-moyle-2018"]


def test_canadian_parties_carry_both_languages(shipped: Dataset) -> None:
    parties = {party.slug: party for party in shipped.parties}
    ndp = parties["new-democratic-party"]
    assert (ndp.name_fr, ndp.abbreviation, ndp.abbreviation_fr) == (
        "Nouveau Parti démocratique",
        "NDP",
        "NPD",
    )
    assert parties["bloc-quebecois"].abbreviation == "BQ"
    assert "Bloc Quebecois" in parties["bloc-quebecois"].aliases


# --- source disagreements are recorded, not resolved ------------------------------------------------


def test_singh_2020_keeps_each_sources_title_for_the_chair(shipped: Dataset) -> None:
    singh = incident(shipped, "singh-2020")
    hughes = next(p for p in singh.participants if p.person == "carol-hughes")
    assert hughes.role.startswith("Assistant Deputy Speaker")
    asked = next(r for r in singh.rulings if r.ruled_by == "carol-hughes")
    assert asked.source == "singh-2020-huffpost"
    assert "seed article" not in asked.summary
    assert '"Deputy Speaker Carol Hughes" in that news report' in (singh.notes or "")
    will_not = next(q for q in singh.quotes if q.text == "I will not.")
    assert "calls her “Deputy Speaker Carol Hughes”" in (will_not.note or "")


def test_singh_2020_records_both_accounts_of_who_objected(shipped: Dataset) -> None:
    (motion,) = incident(shipped, "singh-2020").motions
    bloc = next(p for p in motion.positions if p.source == "singh-2020-seed-article" and p.stance == "object")
    assert (bloc.party, bloc.attribution) == ("bloc-quebecois", Attribution.NEWS_REPORTED)
    assert 'who gave an audible "no."' in (bloc.detail or "")
    unnamed = next(p for p in motion.positions if p.label == "At least one MP (unnamed)")
    assert (unnamed.person, unnamed.party, unnamed.stance) == (None, None, Stance.OBJECT)
    assert unnamed.source == "singh-2020-castanet"
    assert "it was unclear who said no" in (unnamed.detail or "")


def test_singh_2020_includes_the_seed_articles_quotes(shipped: Dataset) -> None:
    seed_quotes = [
        q.text for q in incident(shipped, "singh-2020").quotes if q.source == "singh-2020-seed-article"
    ]
    assert "I will not." in seed_quotes
    assert any("why can't we act?" in text for text in seed_quotes)


def test_singh_2020_tells_when_and_why_it_happened_and_what_followed(shipped: Dataset) -> None:
    summary = incident(shipped, "singh-2020").summary
    assert summary.startswith("On Wednesday afternoon, 17 June 2020, a few minutes after a special sitting")
    assert "exchanged heated words off camera" in summary
    assert "got angry after Therrien brushed off and dismissed the motion" in summary
    assert "“making what he described as a dismissive gesture”" in summary
    assert "choking back tears" in summary
    assert summary.endswith("CBC News reported Blanchet saying that the one-day suspension was not enough.")


def test_singh_2020_keeps_each_outlets_wording_of_the_admission(shipped: Dataset) -> None:
    quotes = [(q.source, q.text, q.delivery) for q in incident(shipped, "singh-2020").quotes]
    assert (
        "singh-2020-huffpost",
        "I called him a racist and I believe that’s so.",
        Delivery.TRANSLATED,
    ) in quotes
    assert ("singh-2020-seed-article", "I called him a racist.", Delivery.REPORTED) in quotes
    assert ("singh-2020-castanet", "I believe that's so.", Delivery.REPORTED) in quotes


def test_singh_2020_keeps_the_seed_articles_account_of_rotas_decision_and_the_order_of_events(
    shipped: Dataset,
) -> None:
    singh = incident(shipped, "singh-2020")
    rota = [r.source for r in singh.rulings if r.ruled_by == "anthony-rota"]
    assert rota == ["singh-2020-myyellowknifenow", "singh-2020-seed-article"]
    assert 'then that Hughes "later asked Singh to apologize"' in (singh.notes or "")
    assert "HuffPost Canada has Hughes ask Singh whether he wished to intervene" in (singh.notes or "")


def test_singh_2020_claims_no_admission_or_consent_the_sources_do_not_make(shipped: Dataset) -> None:
    (motion,) = incident(shipped, "singh-2020").motions
    assert Attribution.SELF_ACKNOWLEDGED not in {p.attribution for p in motion.positions}
    others = next(p for p in motion.positions if p.label == "All other parties")
    assert (others.stance, others.attribution) == (Stance.CONSENT, Attribution.INFERRED)
    assert all(q.said_to != "reporters" for q in incident(shipped, "singh-2020").quotes)


def test_singh_2020_names_blanchet_only_as_the_cbc_text_does(shipped: Dataset) -> None:
    blanchet = next(p for p in shipped.people if p.slug == "blanchet")
    assert (blanchet.name, blanchet.party) == ("Blanchet", None)
    cbc = next(s for s in shipped.sources if s.key == "singh-2020-cbc")
    assert "has no such demand" in (cbc.note or "")


def test_heseltine_1976_ties_the_304_to_303_division_to_the_motion_only_by_inference(
    shipped: Dataset,
) -> None:
    main = incident(shipped, "heseltine-1976").motions[0]
    assert main.moved_by == "eric-varley"
    assert "304 votes to 303" in (main.result_detail or "")
    assert [p.attribution for p in main.positions] == [Attribution.INFERRED]


def test_bishop_2014_reports_the_lost_suspension_and_the_independents_votes(shipped: Dataset) -> None:
    suspension = next(
        m for m in incident(shipped, "bishop-2014").motions if m.procedure == "suspension_of_standing_orders"
    )
    assert suspension.result == "failed"
    assert "83 to 51" in (suspension.result_detail or "")
    by_person = {p.person: p for p in suspension.positions if p.person}
    for independent in ("andrew-wilkie", "cathy-mcgowan"):
        assert (by_person[independent].stance, by_person[independent].attribution) == (
            Stance.NO,
            Attribution.NEWS_REPORTED,
        )


def test_maipi_clarke_2024_records_the_68_to_55_vote(shipped: Dataset) -> None:
    naming = incident(shipped, "maipi-clarke-2024").motions[0]
    assert naming.result == "passed"
    assert "68-55" in (naming.result_detail or "")


# --- validation errors ------------------------------------------------------------------------------


@pytest.fixture
def small() -> dict[str, Any]:
    """A valid one-incident dataset to break in one place."""
    return {
        "format": "parlbot-dataset",
        "version": 1,
        "dataset_version": "test.1",
        "chambers": [
            {
                "slug": "ca-commons",
                "name": "House of Commons",
                "legislature": "Parliament",
                "country": "Canada",
            }
        ],
        "parties": [{"slug": "ndp", "name": "New Democratic Party", "country": "Canada"}],
        "people": [
            {"slug": "a-member", "name": "A Member", "party": "ndp"},
            {"slug": "the-speaker", "name": "The Speaker"},
        ],
        "sources": [{"key": "news", "url": "https://example.org/a", "publisher": "News"}],
        "incidents": [
            {
                "slug": "an-incident",
                "title": "An incident",
                "date": "2020-06-17",
                "chamber": "ca-commons",
                "kind": "naming",
                "summary": "Something happened.",
                "sources": ["news"],
                "participants": [{"person": "a-member", "role": "MP", "party": "ndp"}],
                "motions": [
                    {
                        "text": "That something be done.",
                        "procedure": "unanimous_consent",
                        "result": "not_moved",
                        "source": "news",
                        "positions": [
                            {
                                "party": "ndp",
                                "label": "NDP",
                                "stance": "consent",
                                "attribution": "recorded",
                                "source": "news",
                            }
                        ],
                    }
                ],
                "quotes": [
                    {
                        "speaker": "a-member",
                        "speaker_label": "A Member",
                        "text": "No.",
                        "delivery": "verbatim",
                        "source": "news",
                    }
                ],
                "rulings": [
                    {
                        "ruled_by": "the-speaker",
                        "ruled_by_label": "The Speaker",
                        "outcome": "named",
                        "summary": "Named.",
                        "source": "news",
                    }
                ],
            }
        ],
    }


def problems_of(data: dict[str, Any]) -> list[str]:
    with pytest.raises(DatasetError) as caught:
        parse_dataset(data)
    return [str(problem) for problem in caught.value.problems]


def test_the_small_dataset_is_valid(small: dict[str, Any]) -> None:
    assert parse_dataset(small).incidents[0].quotes[0].text == "No."


def test_a_quote_by_someone_the_dataset_holds_no_person_for_survives_a_round_trip(
    small: dict[str, Any],
) -> None:
    del small["incidents"][0]["quotes"][0]["speaker"]
    small["incidents"][0]["quotes"][0]["speaker_label"] = "the Justice Minister"

    again = parse_dataset(json.loads(dump_dataset(parse_dataset(small))))

    assert again.incidents[0].quotes[0].speaker is None
    assert again.incidents[0].quotes[0].speaker_label == "the Justice Minister"


def test_an_unknown_person_is_reported_at_its_json_path(small: dict[str, Any]) -> None:
    small["incidents"][0]["quotes"][0]["speaker"] = "nobody"
    assert problems_of(small) == ["incidents[0].quotes[0].speaker: unknown person 'nobody'"]


def test_a_rulings_subject_must_be_a_known_person(small: dict[str, Any]) -> None:
    small["incidents"][0]["rulings"][0]["subject"] = "nobody"
    assert problems_of(small) == ["incidents[0].rulings[0].subject: unknown person 'nobody'"]


def test_an_original_text_needs_the_language_it_was_said_in(small: dict[str, Any]) -> None:
    small["incidents"][0]["quotes"][0]["original_text"] = "Non."
    (problem,) = problems_of(small)
    assert problem.startswith("incidents[0].quotes[0]: ")
    assert "original_language" in problem


def test_a_quotes_original_and_notes_survive_a_load_and_export(database: Any, small: dict[str, Any]) -> None:
    quote = small["incidents"][0]["quotes"][0]
    quote.update(
        original_text="Non.", original_language="French", delivery="translated", note="English as printed."
    )
    small["incidents"][0]["rulings"][0]["subject"] = "a-member"
    small["sources"][0].update(note="A stored copy.")
    del small["sources"][0]["publisher"]
    dataset = parse_dataset(small)
    with database.session() as session:
        load_dataset(session, dataset, guild_id=SHARED_GUILD)
        record_version(session, dataset.dataset_version, guild_id=SHARED_GUILD)
        session.commit()
        assert export_dataset(session) == dataset


def test_a_duplicate_slug_is_reported_at_the_second_entry(small: dict[str, Any]) -> None:
    small["people"].append({"slug": "a-member", "name": "Someone Else"})
    assert problems_of(small) == ["people[2].slug: duplicate slug 'a-member'"]


def test_a_date_not_written_yyyy_mm_dd_is_rejected(small: dict[str, Any]) -> None:
    small["incidents"][0]["date"] = "17 June 2020"
    assert problems_of(small) == ["incidents[0].date: Value error, expected a date written YYYY-MM-DD"]


def test_an_impossible_date_is_rejected(small: dict[str, Any]) -> None:
    small["incidents"][0]["date"] = "2020-02-30"
    (problem,) = problems_of(small)
    assert problem.startswith("incidents[0].date: ")


def test_a_quote_without_a_source_is_rejected(small: dict[str, Any]) -> None:
    del small["incidents"][0]["quotes"][0]["source"]
    assert problems_of(small) == ["incidents[0].quotes[0].source: Field required"]


def test_a_citation_must_be_one_of_the_incidents_sources(small: dict[str, Any]) -> None:
    small["sources"].append({"key": "other", "url": "https://example.org/b", "publisher": "Other"})
    small["incidents"][0]["rulings"][0]["source"] = "other"
    assert problems_of(small) == [
        "incidents[0].rulings[0].source: source 'other' is not listed in the incident's sources"
    ]


def test_a_text_over_the_column_limit_is_rejected(small: dict[str, Any]) -> None:
    small["incidents"][0]["summary"] = "x" * (TEXT_MAX + 1)
    (problem,) = problems_of(small)
    assert problem.startswith("incidents[0].summary: String should have at most 4000 characters")


def test_a_source_url_must_be_http(small: dict[str, Any]) -> None:
    small["sources"][0]["url"] = "ftp://example.org/a"
    (problem,) = problems_of(small)
    assert problem.startswith("sources[0].url: String should match pattern")


def test_the_error_message_names_every_problem(small: dict[str, Any]) -> None:
    small["incidents"][0]["chamber"] = "senate"
    small["incidents"][0]["motions"][0]["positions"][0]["party"] = "whigs"
    with pytest.raises(DatasetError, match=r"incidents\[0\]\.chamber: unknown chamber 'senate'") as caught:
        parse_dataset(small)
    assert "incidents[0].motions[0].positions[0].party: unknown party 'whigs'" in str(caught.value)


def test_unreadable_json_is_a_dataset_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(DatasetError, match="is not valid JSON"):
        read_dataset(path)


def test_write_then_read_gives_the_same_dataset(shipped: Dataset, tmp_path: Path) -> None:
    path = tmp_path / "copy.json"
    write_dataset(shipped, path)
    assert read_dataset(path) == shipped
    assert "Québécois" in path.read_text(encoding="utf-8")  # written as UTF-8, not \u escapes


def test_top_level_entries_are_sorted_by_slug_whatever_the_file_order(small: dict[str, Any]) -> None:
    small["people"].reverse()
    assert [person.slug for person in parse_dataset(small).people] == ["a-member", "the-speaker"]


# --- loading and exporting --------------------------------------------------------------------------


def row_counts(session: Session) -> dict[str, int]:
    return {table.__name__: session.exec(select(func.count()).select_from(table)).one() for table in TABLES}


def test_loading_adds_every_entry(database: Any, shipped: Dataset) -> None:
    with database.session() as session:
        report = load_dataset(session, shipped)
        session.commit()
        counts = row_counts(session)
    assert report.incidents.added == 12
    assert report.sources.added == len(shipped.sources)
    assert counts["Incident"] == 12
    assert counts["Quote"] == sum(len(entry.quotes) for entry in shipped.incidents)
    assert counts["Position"] == sum(len(m.positions) for entry in shipped.incidents for m in entry.motions)


def test_loading_twice_changes_nothing(database: Any, shipped: Dataset) -> None:
    with database.session() as session:
        load_dataset(session, shipped)
        session.commit()
        before = row_counts(session)
        again = load_dataset(session, shipped)
        session.commit()
        after = row_counts(session)
    assert after == before
    assert not again.changed_anything
    assert again.incidents.unchanged == 12
    assert again.people.unchanged == len(shipped.people)


def test_loading_leaves_the_commit_to_the_caller(database: Any, shipped: Dataset) -> None:
    with database.session() as session:
        load_dataset(session, shipped)
        session.rollback()
        assert set(row_counts(session).values()) == {0}


def test_a_changed_incident_has_its_children_replaced(database: Any, shipped: Dataset) -> None:
    with database.session() as session:
        load_dataset(session, shipped)
        session.commit()
        edited = shipped.model_copy(deep=True)
        skinner = incident(edited, "skinner-2016")
        skinner.quotes = skinner.quotes[:1]
        report = load_dataset(session, edited)
        session.commit()
        stored = session.exec(select(Incident).where(Incident.slug == "skinner-2016")).one()
        quotes = session.exec(select(Quote).where(Quote.incident_id == stored.id)).all()
    assert (report.incidents.changed, report.incidents.unchanged) == (1, 11)
    assert [quote.text for quote in quotes] == [skinner.quotes[0].text]


def test_export_after_load_equals_the_parsed_file(database: Any, shipped: Dataset) -> None:
    database.seed()
    with database.session() as session:
        assert export_dataset(session) == shipped


def test_export_of_an_unseeded_scope_is_marked_unversioned(database: Any, shipped: Dataset) -> None:
    with database.session() as session:
        load_dataset(session, shipped)
        session.commit()
        exported = export_dataset(session)
    assert exported.dataset_version == UNVERSIONED
    assert exported.incidents == shipped.incidents


def test_seed_records_the_dataset_version_for_the_shared_scope(database: Any, shipped: Dataset) -> None:
    first = database.seed()
    second = database.seed()
    with database.session() as session:
        recorded = session.get(DatasetVersion, SHARED_GUILD)
    assert first.incidents.added == 12
    assert not second.changed_anything
    assert recorded is not None
    assert recorded.version == shipped.dataset_version


def test_a_guild_scope_is_loaded_beside_the_shared_one(database: Any, shipped: Dataset) -> None:
    guild = 4242
    database.seed()
    with database.session() as session:
        report = load_dataset(session, shipped, guild_id=guild)
        session.commit()
        shared_count = session.exec(
            select(func.count()).select_from(Incident).where(Incident.guild_id == SHARED_GUILD)
        ).one()
        exported = export_dataset(session, guild_id=guild)
    assert report.incidents.added == 12
    assert shared_count == 12
    assert exported.incidents == shipped.incidents


# -- glossary terms ------------------------------------------------------------------------------------


def a_term(**fields: Any) -> dict[str, Any]:
    return {
        "slug": "naming",
        "name": "Naming",
        "definition": "The Speaker names a member.",
        "source": "news",
        "incidents": ["an-incident"],
        **fields,
    }


def test_a_term_without_a_source_is_rejected(small: dict[str, Any]) -> None:
    term = a_term()
    del term["source"]
    small["terms"] = [term]
    assert problems_of(small) == ["terms[0].source: Field required"]


def test_a_term_must_cite_a_known_source(small: dict[str, Any]) -> None:
    small["terms"] = [a_term(source="nowhere")]
    assert problems_of(small) == ["terms[0].source: unknown source 'nowhere'"]


def test_a_term_must_be_linked_with_known_incidents_once_each(small: dict[str, Any]) -> None:
    small["terms"] = [a_term(incidents=["an-incident", "an-incident", "an-incidant"])]
    assert problems_of(small) == [
        "terms[0].incidents[2]: unknown incident 'an-incidant' (did you mean 'an-incident'?)",
        "terms[0].incidents[1]: duplicate entry 'an-incident'",
    ]


def test_a_guilds_term_linked_with_a_shared_incident_exports_with_that_incident(
    database: Any, small: dict[str, Any]
) -> None:
    with database.session() as session:
        load_dataset(session, parse_dataset(small), guild_id=SHARED_GUILD)
        ScopeWriter(session, 42).write(TermEntry.model_validate(a_term(name_fr="Désignation")))
        session.commit()
        exported = export_dataset(session, guild_id=42)
    assert [term.name_fr for term in exported.terms] == ["Désignation"]
    assert [incident.slug for incident in exported.incidents] == ["an-incident"]


# -- a guild's quiz questions ----------------------------------------------------------------------------


def a_question(**fields: Any) -> dict[str, Any]:
    return {
        "slug": "question-1",
        "prompt": "Who named the member?",
        "answer": "The Speaker",
        "wrong": ["The Clerk"],
        "source": "news",
        **fields,
    }


def test_a_question_must_cite_a_known_source_and_have_its_own_slug(small: dict[str, Any]) -> None:
    small["questions"] = [a_question(source="nowhere"), a_question()]
    assert problems_of(small) == [
        "questions[1].slug: duplicate slug 'question-1'",
        "questions[0].source: unknown source 'nowhere'",
    ]


def test_a_guilds_questions_load_once_and_export_as_they_were(database: Any, small: dict[str, Any]) -> None:
    shared = parse_dataset(small)
    dataset = parse_dataset(small | {"questions": [a_question(slug="question-2"), a_question()]})
    with database.session() as session:
        load_dataset(session, shared, guild_id=SHARED_GUILD)
        load_dataset(session, dataset, guild_id=42)
        again = load_dataset(session, dataset, guild_id=42)
        session.commit()
        exported = export_dataset(session, guild_id=42)
    assert [question.slug for question in dataset.questions] == ["question-1", "question-2"]
    assert (again.questions.added, again.questions.unchanged) == (0, 2)
    assert exported.questions == dataset.questions
