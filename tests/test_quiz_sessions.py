"""Quiz state in the database: clicks, closing and scoring, one quiz per channel (bot.quiz.sessions)."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import Session

from bot.errors import Conflict, Forbidden, NotFound
from bot.messages.catalogue import Msg, speaking
from bot.quiz import sessions
from bot.quiz.questions import Question
from bot.quiz.sessions import Taken
from db.session import Database

GUILD, CHANNEL, OTHER_CHANNEL, TEACHER, ALICE, BOB = 10, 20, 21, 1, 501, 502
NOW = dt.datetime(2026, 12, 3, 18, 0, tzinfo=dt.UTC)
QUESTIONS = [
    Question("year", f"Question {n}?", ("2019", "2020", "2021"), 1, "[Source](https://example.org)")
    for n in (1, 2)
]


def start(session: Session, channel: int = CHANNEL, seconds: int = 30) -> sessions.Asked:
    return sessions.start(
        session,
        guild_id=GUILD,
        channel_id=channel,
        user_id=TEACHER,
        questions=QUESTIONS,
        settings={},
        seconds=seconds,
        now=NOW,
    )


def click(
    session: Session, question: int, user: int, choice: int, at: dt.datetime = NOW, guild: int = GUILD
) -> sessions.Click:
    return sessions.answer(
        session,
        question_id=question,
        guild_id=guild,
        user_id=user,
        display_name=f"user {user}",
        choice=choice,
        now=at,
    )


def test_an_answer_is_taken_changed_and_kept_once(database: Database) -> None:
    with database.session() as session:
        asked = start(session)

        outcomes = [click(session, asked.id, ALICE, c).taken for c in (0, 1, 1)]
        closed = sessions.close(session, question_id=asked.id, now=NOW)

    assert outcomes == [Taken.TAKEN, Taken.CHANGED, Taken.SAME]
    assert closed is not None
    assert (closed.answered, closed.right) == (1, ("user 501",))


def test_a_click_from_another_guild_is_refused_and_not_counted(database: Database) -> None:
    with database.session() as session:
        asked = start(session)

        with pytest.raises(Forbidden) as refused:
            click(session, asked.id, ALICE, 1, guild=GUILD + 1)
        closed = sessions.close(session, question_id=asked.id, now=NOW)

    assert refused.value.msg is Msg.ANOTHER_SERVER
    assert closed is not None
    assert closed.answered == 0


def test_a_click_after_the_time_is_up_is_refused(database: Database) -> None:
    with database.session() as session:
        asked = start(session, seconds=30)

        late = click(session, asked.id, ALICE, 1, at=NOW + dt.timedelta(seconds=31))

    assert late.taken is Taken.CLOSED


def test_closing_twice_scores_once(database: Database) -> None:
    with database.session() as session:
        asked = start(session)
        click(session, asked.id, ALICE, 1)

        first = sessions.close(session, question_id=asked.id, now=NOW)
        second = sessions.close(session, question_id=asked.id, now=NOW)
        scores = sessions.scores(session, guild_id=GUILD)

    assert first is not None
    assert second is None
    assert scores == [sessions.Standing("user 501", 1)]


def test_a_click_on_a_closed_question_is_not_counted(database: Database) -> None:
    with database.session() as session:
        asked = start(session)
        sessions.close(session, question_id=asked.id, now=NOW)

        refused = click(session, asked.id, BOB, 1)
        board = sessions.scores(session, guild_id=GUILD)

    assert refused.taken is Taken.CLOSED
    assert board == []


def test_a_question_closes_early_once_everyone_from_the_last_one_answered(database: Database) -> None:
    with database.session() as session:
        asked = start(session)
        click(session, asked.id, ALICE, 1)
        click(session, asked.id, BOB, 0)
        second = sessions.advance(session, channel_id=CHANNEL, user_id=TEACHER, teacher=False, now=NOW).asked
        assert second is not None

        alice = click(session, second.id, ALICE, 1)
        bob = click(session, second.id, BOB, 1)

    assert (alice.all_answered, bob.all_answered) == (False, True)


def test_a_channel_holds_one_open_quiz_and_two_channels_do_not_interfere(database: Database) -> None:
    with database.session() as session:
        here = start(session)
        with pytest.raises(Conflict):
            start(session)
        there = start(session, channel=OTHER_CHANNEL)
        click(session, here.id, ALICE, 1)
        sessions.stop(session, channel_id=OTHER_CHANNEL, user_id=TEACHER, teacher=False, now=NOW)

        still = click(session, here.id, ALICE, 0)

    assert there.id != here.id
    assert still.taken is Taken.CHANGED


def test_only_the_starter_or_a_teacher_moves_the_quiz_on(database: Database) -> None:
    with database.session() as session:
        start(session)
        with pytest.raises(Forbidden):
            sessions.advance(session, channel_id=CHANNEL, user_id=BOB, teacher=False, now=NOW)
        moved = sessions.advance(session, channel_id=CHANNEL, user_id=BOB, teacher=True, now=NOW)

    assert moved.asked is not None
    assert moved.asked.number == 2


def test_the_last_next_ends_the_quiz_with_its_leaderboard(database: Database) -> None:
    with database.session() as session:
        asked = start(session)
        click(session, asked.id, ALICE, 1)
        click(session, asked.id, BOB, 0)
        sessions.advance(session, channel_id=CHANNEL, user_id=TEACHER, teacher=False, now=NOW)
        ended = sessions.advance(session, channel_id=CHANNEL, user_id=TEACHER, teacher=False, now=NOW).ended
        with pytest.raises(NotFound):
            sessions.advance(session, channel_id=CHANNEL, user_id=TEACHER, teacher=False, now=NOW)

    assert ended is not None
    assert ended.finished
    assert ended.standings == (sessions.Standing("user 501", 1), sessions.Standing("user 502", 0))


def test_open_questions_are_found_again_for_their_timers(database: Database) -> None:
    with database.session() as session:
        asked = start(session, seconds=45)
        session.commit()
    with database.session() as session:
        waiting = sessions.waiting(session)

    assert waiting == [sessions.Waiting(asked.id, CHANNEL, NOW + dt.timedelta(seconds=45))]


def test_clearing_the_scores_forgets_the_guild_only(database: Database) -> None:
    with database.session() as session:
        asked = start(session)
        click(session, asked.id, ALICE, 1)
        sessions.close(session, question_id=asked.id, now=NOW)

        cleared = sessions.clear_scores(session, guild_id=GUILD)
        left = sessions.scores(session, guild_id=GUILD)

    assert (cleared, left) == (1, [])


def test_a_quiz_keeps_the_language_it_was_started_in_for_its_reveals(database: Database) -> None:
    with database.session() as session:
        with speaking("fr"):
            asked = start(session)
        closed = sessions.close(session, question_id=asked.id, now=NOW)

    assert closed is not None
    assert closed.locale == "fr"
