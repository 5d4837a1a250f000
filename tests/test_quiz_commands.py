"""/quiz through the loopback Discord: a class session from start to scores, and a restart mid-quiz."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
from sqlmodel import col, select

from bot.client.bot import ParlBot
from bot.curation.changes import Actor
from bot.loopback.payloads import DEFAULT_GUILD_ID, Invoker
from bot.loopback.rest import FakeDiscord
from bot.loopback.session import OfflineSession
from bot.messages.catalogue import Msg, say
from bot.settings import Settings
from db.models import QuizAnswer, QuizQuestion
from db.session import Database
from tests.discord_harness import (
    all_text,
    before,
    buttons,
    first_message,
    is_ephemeral,
    message_bodies,
    restarted,
)

ALICE, BOB, CAROL = 501, 502, 503
OTHER_GUILD_ID = 1_246_000_000_000_000_888


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as discord_fake:
        yield discord_fake


@pytest.fixture
async def teacher(parlbot: ParlBot, fake: FakeDiscord) -> AsyncIterator[OfflineSession]:
    """The class channel, where a teacher (a moderator) runs the quiz."""
    async with OfflineSession(parlbot, moderator=True, username="Teacher", fake=fake) as session:
        yield session


def student(session: OfflineSession, user_id: int, name: str) -> Invoker:
    return Invoker(
        application_id=session.invoker.application_id,
        guild_id=session.invoker.guild_id,
        channel_id=session.invoker.channel_id,
        user_id=user_id,
        username=name,
    )


def question_of(body: dict[str, Any]) -> tuple[int, list[str]]:
    """The question id a message's buttons answer, and their custom ids in order."""
    ids = [str(button["custom_id"]) for button in buttons(body)]
    return int(ids[0].split(":")[2]), ids


def stored(database: Database, question_id: int) -> QuizQuestion:
    with database.session() as session:
        question = session.get(QuizQuestion, question_id)
        assert question is not None
        return question


def wrong(question: QuizQuestion) -> int:
    return next(index for index in range(len(question.choices)) if index != question.answer)


async def press(session: OfflineSession, who: Invoker, question_id: int, choice: int) -> dict[str, Any]:
    body = first_message(await session.press(f"parlbot:quiz:{question_id}:{choice}", invoker=who))
    assert is_ephemeral(body)
    return body


def receipt(msg: Msg, question: QuizQuestion, choice: int) -> str:
    return say(msg, number=question.number, choice=question.choices[choice])


async def test_a_class_quiz_from_start_to_scores(teacher: OfflineSession, seeded_database: Database) -> None:
    alice, bob, carol = (
        student(teacher, ALICE, "alice"),
        student(teacher, BOB, "bobbie"),
        student(teacher, CAROL, "carol"),
    )
    started = first_message(await teacher.invoke("/quiz start questions:3 seconds:600"))
    assert started["content"] == say(Msg.QUIZ_STARTED, who="Teacher", count=3, seconds=600)
    assert started["embeds"][0]["title"] == say(Msg.QUIZ_QUESTION_TITLE, number=1, total=3)
    first_id, first_buttons = question_of(started)
    assert 3 <= len(first_buttons) <= 4
    first = stored(seeded_database, first_id)

    # Alice answers wrong, then changes to the right answer; Bobbie answers wrong.
    assert (await press(teacher, alice, first_id, wrong(first)))["content"] == receipt(
        Msg.QUIZ_ANSWER_TAKEN, first, wrong(first)
    )
    assert (await press(teacher, alice, first_id, first.answer))["content"] == receipt(
        Msg.QUIZ_ANSWER_CHANGED, first, first.answer
    )
    await press(teacher, bob, first_id, wrong(first))

    # /quiz next reveals question 1 (answer, who got it, source) and asks question 2.
    asked = first_message(await teacher.invoke("/quiz next"))
    answer_shown, question_asked = asked["embeds"]
    assert question_asked["title"] == say(Msg.QUIZ_QUESTION_TITLE, number=2, total=3)
    revealed = teacher.fake.find_message(first_buttons[0])
    assert revealed is not None
    assert revealed["embeds"][0]["fields"] == answer_shown["fields"]
    assert answer_shown["title"] == say(Msg.QUIZ_CLOSED_TITLE, number=1, total=3)
    fields = {field["name"]: field["value"] for field in answer_shown["fields"]}
    assert fields[say(Msg.QUIZ_RIGHT_ANSWER)] == f"**{first.choices[first.answer]}**"
    assert fields[say(Msg.QUIZ_WHO_GOT_IT, right=1, answered=2)] == "Alice"
    assert fields[say(Msg.QUIZ_SOURCE)] == first.source
    assert "Bobbie" not in all_text(revealed)  # a name no question holds (the data has a Bob Katter)

    # Carol's click on the closed question is refused, politely and privately.
    refused = await press(teacher, carol, first_id, 0)
    assert refused["content"] == receipt(Msg.QUIZ_QUESTION_CLOSED, first, 0)

    # Question 2: both answer right; everyone who answered question 1 has answered, so it closes.
    second_id, second_buttons = question_of(asked)
    second = stored(seeded_database, second_id)
    await press(teacher, alice, second_id, second.answer)
    await press(teacher, bob, second_id, second.answer)
    closed = teacher.fake.find_message(second_buttons[0])
    assert closed is not None
    assert closed["embeds"][0]["title"] == say(Msg.QUIZ_CLOSED_TITLE, number=2, total=3)

    third = first_message(await teacher.invoke("/quiz next"))
    assert [embed["title"] for embed in third["embeds"]] == [
        say(Msg.QUIZ_CLOSED_TITLE, number=2, total=3),
        say(Msg.QUIZ_QUESTION_TITLE, number=3, total=3),
    ]
    ended = first_message(await teacher.invoke("/quiz next"))
    assert ended["content"] == say(Msg.QUIZ_FINISHED, total=3)
    assert ended["embeds"][0]["title"] == say(Msg.QUIZ_CLOSED_TITLE, number=3, total=3)
    assert ended["embeds"][1]["description"] == "\n".join(
        [
            say(Msg.QUIZ_LEADER_LINE, rank=1, name="Alice", points=2, asked=3),
            say(Msg.QUIZ_LEADER_LINE, rank=2, name="Bobbie", points=1, asked=3),
        ]
    )

    scores = first_message(await teacher.invoke("/quiz scores", invoker=carol))
    assert scores["embeds"][0]["description"] == "\n".join(
        [
            say(Msg.QUIZ_SCORE_LINE, rank=1, name="Alice", points=2),
            say(Msg.QUIZ_SCORE_LINE, rank=2, name="Bobbie", points=1),
        ]
    )
    for body in message_bodies(teacher.fake.requests):
        assert body.get("allowed_mentions", {"parse": []}) == {"parse": []}


async def test_a_restart_in_mid_quiz_keeps_answers_and_buttons(
    teacher: OfflineSession, parlbot_settings: Settings, fake: FakeDiscord, seeded_database: Database
) -> None:
    alice = student(teacher, ALICE, "alice")
    question_id, _ = question_of(first_message(await teacher.invoke("/quiz start questions:2 seconds:600")))
    question = stored(seeded_database, question_id)
    await press(teacher, alice, question_id, wrong(question))
    await teacher.bot.close()

    again = restarted(parlbot_settings)
    try:
        async with OfflineSession(again, moderator=True, username="Teacher", fake=fake) as session:
            changed = await press(session, alice, question_id, question.answer)
            assert changed["content"] == receipt(Msg.QUIZ_ANSWER_CHANGED, question, question.answer)
            asked = first_message(await session.invoke("/quiz next"))
            assert asked["embeds"][-1]["title"] == say(Msg.QUIZ_QUESTION_TITLE, number=2, total=2)
            revealed = fake.find_message(f"parlbot:quiz:{question_id}:0")
            assert revealed is not None
            who = say(Msg.QUIZ_WHO_GOT_IT, right=1, answered=1)
            assert {f["name"]: f["value"] for f in revealed["embeds"][0]["fields"]}[who] == "Alice"
    finally:
        again.library.close()


async def test_a_question_past_its_time_at_restart_closes_at_once(
    teacher: OfflineSession, parlbot_settings: Settings, fake: FakeDiscord, seeded_database: Database
) -> None:
    question_id, ids = question_of(first_message(await teacher.invoke("/quiz start questions:2 seconds:600")))
    await teacher.bot.close()
    with seeded_database.session() as session:
        question = session.get(QuizQuestion, question_id)
        assert question is not None
        question.closes_at = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=5)
        session.commit()

    again = restarted(parlbot_settings)
    try:
        async with OfflineSession(again, fake=fake):
            # The extension's module is its own copy (discord.py loads it from its spec), hence getattr.
            timers: dict[int, asyncio.Task[None]] = getattr(again.get_cog("Quiz"), "timers")  # noqa: B009
            await timers[teacher.invoker.channel_id]
            revealed = fake.find_message(ids[0])
            assert revealed is not None
            assert revealed["embeds"][0]["title"] == say(Msg.QUIZ_CLOSED_TITLE, number=1, total=2)
    finally:
        again.library.close()
    with seeded_database.session() as session:
        assert session.exec(select(QuizQuestion).where(col(QuizQuestion.closed_at).is_not(None))).all()


async def test_a_channel_holds_one_quiz_and_another_channel_its_own(teacher: OfflineSession) -> None:
    await teacher.invoke("/quiz start questions:2")

    second = first_message(await teacher.invoke("/quiz start questions:2"))
    elsewhere = first_message(
        await teacher.invoke("/quiz start questions:2", invoker=replace(teacher.invoker, channel_id=777))
    )

    assert second["content"] == say(Msg.QUIZ_ALREADY_RUNNING)
    assert is_ephemeral(second)
    assert elsewhere["embeds"][0]["title"] == say(Msg.QUIZ_QUESTION_TITLE, number=1, total=2)


async def test_an_answer_from_another_server_is_refused_and_not_counted(
    teacher: OfflineSession, seeded_database: Database
) -> None:
    question_id, _ = question_of(first_message(await teacher.invoke("/quiz start questions:2")))
    outsider = replace(student(teacher, ALICE, "alice"), guild_id=OTHER_GUILD_ID)

    refused = await press(teacher, outsider, question_id, 0)

    assert refused["content"] == say(Msg.ANOTHER_SERVER)
    with seeded_database.session() as session:
        assert session.exec(select(QuizAnswer).where(col(QuizAnswer.question_id) == question_id)).all() == []


async def test_only_the_starter_or_a_teacher_runs_the_quiz(teacher: OfflineSession) -> None:
    await teacher.invoke("/quiz start questions:2")

    refused = first_message(await teacher.invoke("/quiz next", invoker=student(teacher, BOB, "bob")))

    assert refused["content"] == say(Msg.QUIZ_NOT_YOURS)
    assert is_ephemeral(refused)


async def test_a_quiz_on_one_incident_asks_about_it(
    teacher: OfflineSession, seeded_database: Database
) -> None:
    body = first_message(await teacher.invoke("/quiz start incident:singh-2020 questions:1 kind:year"))

    question = stored(seeded_database, question_of(body)[0])

    assert question.choices[question.answer] == "2020"


async def test_stop_ends_the_quiz_with_its_leaderboard(teacher: OfflineSession) -> None:
    await teacher.invoke("/quiz start questions:3")

    ended = first_message(await teacher.invoke("/quiz stop"))

    assert ended["content"] == say(Msg.QUIZ_STOPPED, asked=1, total=3)
    assert ended["embeds"][-1]["description"] == say(Msg.QUIZ_NOBODY_ANSWERED)
    assert first_message(await teacher.invoke("/quiz next"))["content"] == say(Msg.QUIZ_NONE_RUNNING)


async def test_a_teacher_clears_the_scores_after_confirming(
    teacher: OfflineSession, seeded_database: Database
) -> None:
    question_id, _ = question_of(first_message(await teacher.invoke("/quiz start questions:1")))
    await press(teacher, student(teacher, ALICE, "alice"), question_id, 0)
    await teacher.invoke("/quiz next")

    refused = first_message(await teacher.invoke("/quiz clear-scores", invoker=student(teacher, BOB, "bob")))
    confirm = first_message(await teacher.invoke("/quiz clear-scores"))
    cleared = first_message(await teacher.press(buttons(confirm)[0]["custom_id"]))

    assert refused["content"] == say(Msg.NOT_A_TEACHER)
    assert confirm["content"] == say(Msg.QUIZ_CONFIRM_CLEAR, count=1)
    assert cleared["content"] == say(Msg.QUIZ_CLEARED, count=1)
    assert first_message(await teacher.invoke("/quiz scores"))["content"] == say(Msg.QUIZ_NO_SCORES)


ADD = (
    '/quiz add prompt:"Which office keeps order in the Commons?" answer:"The Speaker"'
    ' wrong1:"The Clerk" wrong2:"The Whip" source:singh-2020-cbc'
)


async def test_a_teacher_adds_a_question_that_quizzes_ask_until_it_is_undone(teacher: OfflineSession) -> None:
    added = first_message(await teacher.invoke(ADD))
    asked = first_message(await teacher.invoke("/quiz start kind:custom questions:1"))
    await teacher.invoke("/quiz stop")
    await teacher.invoke("/undo")
    gone = first_message(await teacher.invoke("/quiz start kind:custom questions:1"))

    assert is_ephemeral(added)
    assert added["content"].startswith(before(Msg.QUIZ_ADDED, "change", key="question-1"))
    assert asked["embeds"][0]["description"].startswith("Which office keeps order in the Commons?\n\n")
    assert sorted(button["label"] for button in buttons(asked)) == ["The Clerk", "The Speaker", "The Whip"]
    assert gone["content"] == say(Msg.QUIZ_NO_QUESTIONS)


async def test_a_question_whose_choices_repeat_is_refused(teacher: OfflineSession) -> None:
    refused = first_message(await teacher.invoke(ADD.replace('"The Whip"', '"the speaker"')))

    assert is_ephemeral(refused)
    assert "question-1" not in all_text(refused)


async def test_only_teachers_add_questions(teacher: OfflineSession) -> None:
    refused = first_message(await teacher.invoke(ADD, invoker=student(teacher, BOB, "bob")))

    assert refused["content"] == say(Msg.NOT_A_TEACHER)


async def test_a_quiz_on_a_collection_asks_about_its_incidents_only(
    teacher: OfflineSession, seeded_database: Database
) -> None:
    actor = Actor(DEFAULT_GUILD_ID, teacher.invoker.user_id)
    for slug in ("singh-2020", "skinner-2016"):
        teacher.bot.library.add_to_collection(actor=actor, name="Unit 1", slug=slug)  # type: ignore[attr-defined]

    body = first_message(await teacher.invoke('/quiz start collection:"Unit 1" questions:4 kind:year'))
    await teacher.invoke("/quiz stop")

    with seeded_database.session() as session:
        quiz_id = stored(seeded_database, question_of(body)[0]).quiz_id
        asked = session.exec(select(QuizQuestion).where(col(QuizQuestion.quiz_id) == quiz_id)).all()
    assert sorted(question.choices[question.answer] for question in asked) == ["2016", "2020"]
