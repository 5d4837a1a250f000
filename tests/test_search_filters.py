"""bot.search.filters: reading chamber:, year: and kind: out of a query, and the index applying them."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.messages.catalogue import Msg
from bot.search.filters import Filters, parse_query
from bot.search.index import (
    Clear,
    Document,
    DocumentKind,
    Facets,
    Place,
    SearchIndex,
    TextField,
    without_texts,
)

UK = Place("uk-house-of-commons", ("House of Commons of the United Kingdom", "United Kingdom", "UK"))
CA = Place("ca-house-of-commons", ("House of Commons of Canada", "Canada"))


def incident(slug: str, title: str, year: int, place: Place, kind: str) -> Document:
    return Document(
        kind=DocumentKind.INCIDENT,
        key=slug,
        label=title,
        incident=slug,
        exact=(slug,),
        fields=(TextField(title),),
        date=dt.date(year, 1, 1),
        facets=Facets(chambers=(place,), years=(year,), incident_kinds=(kind,)),
    )


MACE_UK = incident("heseltine-1976", "Heseltine seizes the mace", 1976, UK, "mace")
MACE_UK_2018 = incident("russell-moyle-2018", "Russell-Moyle lifts the mace", 2018, UK, "mace")
ELBOW_CA = incident("trudeau-2016", "Trudeau elbows an MP", 2016, CA, "disorder")
SPEAKER = Document(
    kind=DocumentKind.PERSON,
    key="john-bercow",
    label="John Bercow",
    fields=(TextField("John Bercow"),),
    facets=Facets(chambers=(UK,), years=(2018,), incident_kinds=("mace",)),
)


@pytest.fixture
def index() -> SearchIndex:
    return SearchIndex([MACE_UK, MACE_UK_2018, ELBOW_CA, SPEAKER])


def keys(index: SearchIndex, text: str) -> list[str]:
    parsed = parse_query(text)
    return [hit.document.key for hit in index.search(parsed.text, filters=parsed.filters, limit=25)]


# -- parsing ---------------------------------------------------------------------------------------


def test_filters_are_taken_out_and_the_words_are_left() -> None:
    parsed = parse_query("chamber:uk year:2010-2016 mace")
    assert parsed.text == "mace"
    assert parsed.filters == Filters(chamber="uk", years=(2010, 2016))


def test_a_quoted_value_may_hold_spaces() -> None:
    assert parse_query('chamber:"House of Commons" red flag').filters.chamber == "house of commons"


@pytest.mark.parametrize("written", ["year:2010-2016", "year:2010..2016", "YEAR:2016-2010", "year:2010–2016"])
def test_a_year_range_reads_either_way_round_and_with_dots_or_a_dash(written: str) -> None:
    assert parse_query(written).filters.years == (2010, 2016)


def test_a_single_year_is_a_range_of_one() -> None:
    assert parse_query("year:1976").filters.years == (1976, 1976)


def test_country_is_another_name_for_chamber() -> None:
    assert parse_query("country:canada").filters.chamber == "canada"


def test_kind_takes_kinds_of_entry_plurals_and_kinds_of_incident() -> None:
    assert parse_query("kind:rulings").filters.kinds == {"ruling"}
    assert parse_query("kind:people").filters.kinds == {"person"}
    assert parse_query("kind:refusal-to-withdraw").filters.incident_kinds == {"refusal_to_withdraw"}
    assert parse_query("kind:named").filters.incident_kinds == {"naming"}


def test_a_value_that_cannot_be_read_is_a_problem_naming_what_is_allowed() -> None:
    kind = parse_query("kind:gossip mace")
    assert kind.problem is not None
    assert (kind.problem.msg, kind.problem.value) == (Msg.SEARCH_BAD_KIND, "gossip")
    assert "`quote`" in kind.problem.allowed
    assert "`sitting-suspended`" in kind.problem.allowed
    assert kind.text == "mace"
    year = parse_query("year:20x6").problem
    assert year is not None
    assert (year.msg, year.value) == (Msg.SEARCH_BAD_YEAR, "20x6")


def test_a_filter_with_no_value_is_a_problem() -> None:
    problem = parse_query("chamber: mace").problem
    assert problem is not None
    assert problem.msg is Msg.SEARCH_FILTER_EMPTY


def test_other_words_with_a_colon_stay_words_so_keys_still_resolve() -> None:
    parsed = parse_query("quote:12")
    assert parsed.text == "quote:12"
    assert not parsed.filters
    assert parsed.problem is None


# -- applying them ---------------------------------------------------------------------------------


def test_a_chamber_filter_keeps_that_chambers_entries(index: SearchIndex) -> None:
    assert sorted(keys(index, "chamber:uk mace")) == ["heseltine-1976", "russell-moyle-2018"]
    assert keys(index, "chamber:canada mace") == []


def test_a_chamber_is_named_by_any_of_its_names_or_words_of_them(index: SearchIndex) -> None:
    assert index.places_named("united kingdom") == {UK.slug}
    assert index.places_named("house of commons") == {UK.slug, CA.slug}
    assert index.places_named("narnia") == frozenset()


def test_a_year_range_keeps_the_entries_of_those_years(index: SearchIndex) -> None:
    assert keys(index, "year:1970-1980 mace") == ["heseltine-1976"]


def test_a_kind_of_entry_filter_keeps_that_kind(index: SearchIndex) -> None:
    assert keys(index, "kind:person bercow") == ["john-bercow"]
    assert keys(index, "kind:incident bercow") == []


def test_a_kind_of_incident_filter_keeps_those_incidents(index: SearchIndex) -> None:
    assert keys(index, "kind:disorder") == ["trudeau-2016"]


def test_a_filter_alone_lists_what_it_admits_newest_first(index: SearchIndex) -> None:
    assert keys(index, "chamber:uk") == ["russell-moyle-2018", "heseltine-1976", "john-bercow"]


def test_a_filter_alone_admitting_one_entry_resolves_to_it(index: SearchIndex) -> None:
    parsed = parse_query("year:2016")
    outcome = index.resolve(parsed.text, kinds=[DocumentKind.INCIDENT], filters=parsed.filters)
    assert isinstance(outcome, Clear)
    assert outcome.hit.document == without_texts(ELBOW_CA)


def test_autocomplete_applies_filters_to_the_half_typed_words(index: SearchIndex) -> None:
    parsed = parse_query("chamber:uk year:2018 ma")
    hits = index.complete(parsed.text, filters=parsed.filters)
    assert [hit.document.key for hit in hits] == ["russell-moyle-2018"]
