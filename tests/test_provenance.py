"""The provenance check (db.dataset.provenance): quotes and quoted fragments against their excerpts.

The fooling edits are those a reviewer tried on the old check (a substring search of the whole excerpt
file): each is applied to a copy of the shipped dataset, beside an honest quote that holds.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from db.dataset.provenance import (
    Problem,
    check_dataset,
    normalise,
    parse_excerpt,
    pieces,
    structural_problems,
    text_fields,
)
from db.dataset.schema import SHIPPED_DATASET, Dataset, QuoteEntry, parse_dataset
from tests import excerpts
from tests.excerpts import excerpt_folder, holding_document

SINGH = "singh-2020"
LABELS = {
    "jagmeet-singh": "Jagmeet Singh",
    "anthony-rota": "Speaker Anthony Rota",
    "alain-therrien": "Alain Therrien",
    "carol-hughes": "Carol Hughes",
    "bronwyn-bishop": "Bronwyn Bishop",
    "dennis-skinner": "Dennis Skinner",
}


@pytest.fixture(scope="module")
def sources() -> Path:
    return excerpt_folder()


@pytest.fixture(scope="module")
def shipped_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SHIPPED_DATASET.read_text(encoding="utf-8"))
    return document


def quote(text: str, speaker: str, source: str, delivery: str = "verbatim") -> dict[str, Any]:
    return {
        "speaker": speaker,
        "speaker_label": LABELS[speaker],
        "text": text,
        "delivery": delivery,
        "source": source,
    }


def incident_of(document: dict[str, Any], slug: str = SINGH) -> dict[str, Any]:
    found: dict[str, Any] = next(entry for entry in document["incidents"] if entry["slug"] == slug)
    return found


def with_quote(document: dict[str, Any], added: dict[str, Any], slug: str = SINGH) -> tuple[Dataset, str]:
    """A copy of ``document`` with ``added`` as incident ``slug``'s last quote, and that quote's path."""
    edited = copy.deepcopy(document)
    quotes = incident_of(edited, slug)["quotes"]
    quotes.append(added)
    return parse_dataset(edited), f"quotes[{len(quotes) - 1}]"


def problems_at(problems: list[Problem], where: str, slug: str = SINGH) -> list[str]:
    """The messages of the problems found in incident ``slug`` at ``where`` or under it."""
    return [
        p.message
        for p in problems
        if p.entry == f"incident {slug}" and (p.field == where or p.field.startswith(where + "."))
    ]


HONEST_AND_FOOLED = [
    pytest.param(
        quote("I believe that's so.", "jagmeet-singh", "singh-2020-castanet"),
        quote(
            "That prompted the Speaker to order Singh to leave the House for the rest of the day.",
            "anthony-rota",
            "singh-2020-castanet",
        ),
        "text",
        "narration",
        id="narration passed off as the Speaker's words",
    ),
    pytest.param(
        quote(
            "I called him a racist and I believe that’s so.",
            "jagmeet-singh",
            "singh-2020-huffpost",
            "translated",
        ),
        quote(
            "I called him a racist and I believe that’s so.",
            "jagmeet-singh",
            "singh-2020-castanet",
            "translated",
        ),
        "text",
        "is not in the text of singh-2020-castanet",
        id="one outlet's text cited to another",
    ),
    pytest.param(
        quote(
            "It’s true … I called him a racist and I believe that’s so.",
            "jagmeet-singh",
            "singh-2020-huffpost",
            "translated",
        ),
        quote(
            "I do not believe that a leader of a party can … I called him a racist and I believe that’s so.",
            "jagmeet-singh",
            "singh-2020-huffpost",
            "translated",
        ),
        "text",
        "not one remark",
        id="pieces of different sentences stitched with an ellipsis",
    ),
    pytest.param(
        quote(
            "It’s true … I called him a racist and I believe that’s so.",
            "jagmeet-singh",
            "singh-2020-huffpost",
            "translated",
        ),
        quote(
            "I called him a racist and I believe that’s so. … It’s true",
            "jagmeet-singh",
            "singh-2020-huffpost",
            "translated",
        ),
        "text",
        "out of order",
        id="pieces stitched out of order",
    ),
    pytest.param(
        quote("I will not", "jagmeet-singh", "singh-2020-huffpost"),
        quote("not stated (all rights reserved presumed)", "jagmeet-singh", "singh-2020-huffpost"),
        "text",
        "is not in the text of singh-2020-huffpost",
        id="a header line of the excerpt file used as a quote",
    ),
    pytest.param(
        quote("I will not.", "jagmeet-singh", "singh-2020-seed-article"),
        quote("no", "alain-therrien", "singh-2020-seed-article"),
        "text",
        "too short to check",
        id="a one-word quote",
    ),
    pytest.param(
        quote("I will not.", "jagmeet-singh", "singh-2020-seed-article"),
        quote("I will not.", "carol-hughes", "singh-2020-seed-article"),
        "speaker",
        "gives these words to Jagmeet Singh, not Carol Hughes",
        id="a quote re-attributed to someone else",
    ),
]


@pytest.mark.parametrize(("honest", "fooled", "field", "said"), HONEST_AND_FOOLED)
def test_a_fooling_edit_is_caught_where_the_honest_quote_holds(
    sources: Path,
    shipped_document: dict[str, Any],
    honest: dict[str, Any],
    fooled: dict[str, Any],
    field: str,
    said: str,
) -> None:
    dataset, at = with_quote(shipped_document, honest)
    assert problems_at(check_dataset(dataset, sources), at) == []
    dataset, at = with_quote(shipped_document, fooled)
    found = problems_at(check_dataset(dataset, sources), f"{at}.{field}")
    assert any(said in message for message in found), found


def test_a_quote_whose_speaker_is_inferred_with_a_note_skips_the_speaker_check(
    sources: Path, shipped_document: dict[str, Any]
) -> None:
    inferred = quote("I will not.", "carol-hughes", "singh-2020-seed-article")
    inferred |= {"speaker_inferred": True, "note": "the chair's own words, as another record gives them"}
    dataset, at = with_quote(shipped_document, inferred)
    assert problems_at(check_dataset(dataset, sources), f"{at}.speaker") == []


def test_a_transcript_turn_gives_its_words_to_the_speaker_it_is_headed_with(
    sources: Path, shipped_document: dict[str, Any]
) -> None:
    narration = (
        "Early in Question Time Mrs Bishop delivered a warning before the Prime Minister answered a question."
    )
    added = quote(narration, "bronwyn-bishop", "bishop-2014-abc-pm")
    dataset, at = with_quote(shipped_document, added, "bishop-2014")
    assert problems_at(check_dataset(dataset, sources), f"{at}.speaker", "bishop-2014") == [
        "the source gives these words to LOUISE YAXLEY, not Bronwyn Bishop"
    ]


def test_translated_needs_the_source_to_say_another_language_was_spoken(
    sources: Path, shipped_document: dict[str, Any]
) -> None:
    dataset, at = with_quote(
        shipped_document, quote("I will not", "jagmeet-singh", "singh-2020-huffpost", "translated")
    )
    assert problems_at(check_dataset(dataset, sources), f"{at}.delivery") == [
        "translated, but the source does not say another language was spoken"
    ]


def test_verbatim_is_refused_where_the_source_says_the_words_were_in_another_language(
    sources: Path, shipped_document: dict[str, Any]
) -> None:
    dataset, at = with_quote(shipped_document, quote("It’s true", "jagmeet-singh", "singh-2020-huffpost"))
    assert problems_at(check_dataset(dataset, sources), f"{at}.delivery") == [
        "verbatim, but the source says the words were said in another language"
    ]


def test_a_quoted_fragment_in_a_summary_must_be_in_one_of_the_incidents_sources(sources: Path) -> None:
    document = holding_document()
    incident_of(document)["summary"] = (
        "Singh “wept openly in the chamber” and “after refusing to apologize for calling”."
    )
    problems = check_dataset(parse_dataset(document), sources)
    assert problems_at(problems, "summary") == [
        "“wept openly in the chamber” is not in any of the incident's cited sources"
    ]


def test_a_short_fragment_holds_only_when_the_source_prints_it_whole_as_a_quote(sources: Path) -> None:
    document = holding_document()
    incident_of(document)["summary"] = (
        "Singh called Therrien a “racist” and was asked by “Assistant Deputy” Hughes."
    )
    problems = check_dataset(parse_dataset(document), sources)
    assert [message.split(":")[0] for message in problems_at(problems, "summary")] == ["“Assistant Deputy”"]


def test_fragments_are_found_in_text_fields_the_models_do_not_name(sources: Path) -> None:
    class NotedQuote(QuoteEntry):
        note: str | None = None

    noted = NotedQuote(
        speaker=None,
        speaker_label="x",
        text="t",
        delivery="verbatim",
        source="s",
        note="HuffPost: “I will not”",
    )
    assert ("note", "HuffPost: “I will not”") in list(text_fields(noted))
    assert "text" not in dict(text_fields(noted))


def test_a_source_that_cannot_be_mapped_to_a_section_is_reported(sources: Path) -> None:
    document = holding_document()
    document["sources"][0] |= {"url": "https://example.org/elsewhere", "publisher": "Somebody Else"}
    problems = check_dataset(parse_dataset(document), sources)
    assert [(p.entry, p.field) for p in problems] == [("source huffpost", "excerpt")]
    assert "cannot be mapped to a section of singh-2020.txt" in problems[0].message


def test_a_source_without_its_url_is_mapped_by_its_publisher(sources: Path) -> None:
    document = holding_document()
    document["sources"][0] |= {"url": "https://example.org/elsewhere", "publisher": "CBC News"}
    document["incidents"][0]["quotes"] = []
    document["incidents"][0]["summary"] = "Blanchet said “the one-day suspension is not enough”."
    assert check_dataset(parse_dataset(document), sources) == []


def test_the_small_dataset_holds(sources: Path) -> None:
    assert check_dataset(parse_dataset(holding_document()), sources) == []


def test_header_lines_are_kept_apart_from_the_verbatim_text() -> None:
    content = (
        "SLUG: x\n\n=====\nSOURCE 1\nURL: https://example.org/a\nTitle: A page\nPublisher: Press\n"
        "Verbatim text used:\n---\n“Hello there, everybody,” she said.\n---\n"
    )
    [section] = parse_excerpt("x.txt", content)
    assert section.headers["URL"] == "https://example.org/a"
    assert section.text == '"Hello there, everybody," she said.'


def test_a_file_without_sections_is_one_page_of_text_without_its_header_lines() -> None:
    [section] = parse_excerpt("article.txt", 'SLUG: x\nFirst paragraph.\n\n"Second," he said.\n')
    assert section.text == 'First paragraph.\n\n"Second," he said.'
    assert [section.text[span.start : span.end] for span in section.spans] == ["Second,"]


def test_only_marks_dashes_and_white_space_are_normalised() -> None:
    assert normalise("“It’s  true” — he said…") == '"It\'s true"-he said...'
    assert pieces("It’s true … I called him") == ["It's true", "I called him"]


def test_structural_problems_name_the_entry_and_the_field(shipped_document: dict[str, Any]) -> None:
    document = copy.deepcopy(shipped_document)
    incident_of(document)["quotes"][0]["speaker"] = "jagmet-singh"
    dataset, problems = structural_problems(document)
    assert dataset is None
    assert [(p.entry, p.field) for p in problems] == [("incident singh-2020", "quotes[0].speaker")]
    assert "unknown person 'jagmet-singh'" in problems[0].message


def test_a_missing_excerpt_folder_fails_when_sources_are_required(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(excerpts, "SHARED_SOURCES", tmp_path / "missing")
    monkeypatch.delenv(excerpts.SOURCES_ENV, raising=False)
    monkeypatch.setenv(excerpts.REQUIRE_SOURCES_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="PARLBOT_REQUIRE_SOURCES is set"):
        excerpts.excerpt_folder()


def test_the_excerpt_folder_named_by_parlbot_sources_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(excerpts, "SHARED_SOURCES", tmp_path / "missing")
    monkeypatch.setenv(excerpts.SOURCES_ENV, str(tmp_path))
    assert excerpts.excerpt_folder() == tmp_path


def test_a_missing_excerpt_folder_skips_saying_why_when_sources_are_not_required(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(excerpts, "SHARED_SOURCES", tmp_path / "missing")
    monkeypatch.delenv(excerpts.SOURCES_ENV, raising=False)
    monkeypatch.delenv(excerpts.REQUIRE_SOURCES_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="is not checked out next to the repository"):
        excerpts.excerpt_folder()


def test_a_quoted_fragment_in_a_source_entry_must_be_in_its_own_section(sources: Path) -> None:
    document = holding_document()
    document["sources"][0]["note"] = "Says Singh was “tossed out of the House of Commons chamber” and “wept”."
    problems = check_dataset(parse_dataset(document), sources)
    assert [str(p) for p in problems] == ["source huffpost · note: “wept” is not in its own section"]


def test_a_remark_stitched_across_two_speakers_is_given_to_the_second(
    sources: Path, shipped_document: dict[str, Any]
) -> None:
    stitched = quote(
        "Which word? … I think he knows the word beginning with D and ending with Y that he inappropriately"
        " used.",
        "dennis-skinner",
        "skinner-2016-itv",
    )
    dataset, at = with_quote(shipped_document, stitched, "skinner-2016")
    assert problems_at(check_dataset(dataset, sources), f"{at}.speaker", "skinner-2016") == [
        "the source gives these words to John Bercow, not Dennis Skinner"
    ]


def with_term(definition: str) -> dict[str, Any]:
    """The holding document with one term, citing the HuffPost section, defined as given."""
    document = holding_document()
    document["terms"] = [
        {
            "slug": "unanimous-consent",
            "name": "Unanimous consent",
            "definition": definition,
            "source": "huffpost",
        }
    ]
    return document


def test_a_terms_definition_quoting_its_source_holds(sources: Path) -> None:
    document = with_term("Every member agrees; Singh's motion “did not receive unanimous consent”.")
    assert check_dataset(parse_dataset(document), sources) == []


def test_a_terms_definition_must_quote_the_source_that_states_its_meaning(sources: Path) -> None:
    problems = check_dataset(parse_dataset(with_term("Every member agrees.")), sources)
    assert [(p.entry, p.field) for p in problems] == [("term unanimous-consent", "definition")]


def test_a_terms_quoted_words_must_be_in_its_own_source(sources: Path) -> None:
    # Castanet's words, in the same excerpt file but not in the HuffPost section the term cites.
    document = with_term("Every member agrees: “at least one objection and that blocked the move”.")
    problems = check_dataset(parse_dataset(document), sources)
    assert [str(p) for p in problems] == [
        "term unanimous-consent · definition: “at least one objection and that blocked the move” is not in "
        "its source huffpost"
    ]
