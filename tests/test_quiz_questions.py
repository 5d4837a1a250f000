"""Quiz questions generated from the shipped dataset: properties every question keeps, for every incident."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot import limits
from bot.answers.queries import IncidentDetail
from bot.messages.catalogue import say
from bot.messages.outcomes import OUTCOME
from bot.quiz.pool import pool
from bot.quiz.questions import Filters, Pooled, Question, QuestionKind, draw, label, questions, same
from bot.search.text import fold
from db.session import Database

SEEDS = range(5)


@pytest.fixture
def shipped(seeded_database: Database) -> list[Pooled]:
    with seeded_database.session() as session:
        return pool(session, guild_id=None)


def every_question(shipped: list[Pooled]) -> list[Question]:
    return [q for seed in SEEDS for q in questions(shipped, random.Random(seed))]


def test_every_incident_gives_questions(shipped: list[Pooled]) -> None:
    asked_about = {q.incident for q in questions(shipped, random.Random(0))}

    assert asked_about == {p.detail.ref.slug for p in shipped}


def test_every_generated_kind_is_asked_somewhere(shipped: list[Pooled]) -> None:
    generated = {kind.value for kind in QuestionKind if kind is not QuestionKind.CUSTOM}

    assert {q.kind for q in questions(shipped, random.Random(0))} == generated


def test_every_question_has_two_to_four_distinct_button_labels(shipped: list[Pooled]) -> None:
    for question in every_question(shipped):
        folded = [fold(choice) for choice in question.choices]
        assert 3 <= len(question.choices) <= 4, question
        assert len(set(folded)) == len(folded), question
        assert all(0 < len(choice) <= limits.BUTTON_LABEL for choice in question.choices), question


def test_exactly_one_choice_names_the_right_answer(shipped: list[Pooled]) -> None:
    for question in every_question(shipped):
        assert 0 <= question.answer < len(question.choices)
        alike = [c for c in question.choices if same(c, question.right)]
        assert alike == [question.right], question


def test_every_question_cites_a_source(shipped: list[Pooled]) -> None:
    for question in every_question(shipped):
        assert question.source.strip(), question
        assert question.prompt.strip(), question


def test_the_right_answer_is_what_the_dataset_records(shipped: list[Pooled]) -> None:
    details = {p.detail.ref.slug: p.detail for p in shipped}
    for question in questions(shipped, random.Random(0)):
        detail = details[question.incident or ""]
        assert question.right in recorded(detail, question.kind), question


def recorded(detail: IncidentDetail, kind: str) -> set[str]:
    """Every label a true answer of ``kind`` could carry for the incident, as buttons show them."""
    found = {
        QuestionKind.RULED_BY: {r.ruled_by for r in detail.rulings},
        QuestionKind.SANCTION: {say(OUTCOME[r.outcome]) for r in detail.rulings},
        QuestionKind.OBJECTED: {p.who for m in detail.motions for p in m.positions},
        QuestionKind.CHAMBER: {detail.chamber},
        QuestionKind.YEAR: {str(detail.ref.date.year)},
        QuestionKind.QUOTE: {q.speaker for q in detail.quotes},
        QuestionKind.MOTION: {m.text for m in detail.motions},
    }[QuestionKind(kind)]
    return {label(text) for text in found}


def test_a_wrong_year_is_of_the_same_decade(shipped: list[Pooled]) -> None:
    for question in questions(shipped, random.Random(0), Filters(kind=QuestionKind.YEAR)):
        decades = {int(choice) // 10 for choice in question.choices}
        assert len(decades) == 1, question


def test_a_wrong_chamber_is_another_chamber(shipped: list[Pooled]) -> None:
    chambers = {p.detail.chamber for p in shipped}
    for question in questions(shipped, random.Random(0), Filters(kind=QuestionKind.CHAMBER)):
        assert set(question.choices) <= chambers


def test_the_same_seed_asks_the_same_questions(shipped: list[Pooled]) -> None:
    assert questions(shipped, random.Random(7)) == questions(shipped, random.Random(7))


def test_filters_narrow_to_an_incident_a_chamber_and_a_kind(shipped: list[Pooled]) -> None:
    one = questions(shipped, random.Random(0), Filters(incidents=frozenset({"singh-2020"})))
    commons = questions(shipped, random.Random(0), Filters(chamber="uk-house-of-commons"))
    quotes = questions(shipped, random.Random(0), Filters(kind=QuestionKind.QUOTE))

    assert {q.incident for q in one} == {"singh-2020"}
    uk = {p.detail.ref.slug for p in shipped if p.chamber == "uk-house-of-commons"}
    assert uk
    assert {q.incident for q in commons} <= uk
    assert {q.kind for q in quotes} == {"quote"}


def test_a_kind_without_two_plausible_wrong_choices_asks_nothing(shipped: list[Pooled]) -> None:
    alone = [p for p in shipped if p.detail.ref.slug == "singh-2020"]

    chambers = questions(alone, random.Random(0), Filters(kind=QuestionKind.CHAMBER))

    assert chambers == []  # the only chamber such a pool knows is the right one


def test_a_draw_takes_turns_between_kinds_and_never_repeats_a_prompt(shipped: list[Pooled]) -> None:
    drawn = draw(questions(shipped, random.Random(0)), 7, random.Random(0))

    assert len(drawn) == 7
    assert len({q.prompt for q in drawn}) == 7
    assert max(Counter(q.kind for q in drawn).values()) <= 2
