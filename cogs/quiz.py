"""The /quiz commands and the answer buttons (docs/QUIZ.md); the rules live in ``bot.quiz``.

Each channel's open question has a timer (an asyncio task) that closes it when its time is up; the
timers are rebuilt from the database when the cog loads, so a restart resumes every quiz, and the answer
buttons are dynamic items whose custom id carries the question and the choice, so they keep working.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.answers.render import Reply
from bot.client.bot import ParlBot
from bot.client.interaction_log import watch
from bot.client.tree import answer_failure, send_ephemeral
from bot.curation.changes import Actor, EntityKind
from bot.defuse import one_line
from bot.messages.catalogue import Msg, say, speaking
from bot.quiz import replies
from bot.quiz.custom import QUESTION_MAX
from bot.quiz.questions import Filters, QuestionKind
from bot.quiz.sessions import Advanced, Asked, Closed
from cogs.checks import ensure_teacher, is_teacher, teacher_only
from cogs.common import (
    Interaction,
    Pages,
    Query,
    choices,
    deliver,
    in_time,
    lookup_private,
    message_kwargs,
    send,
)
from cogs.confirm import Confirm, Confirmation

log = logging.getLogger(__name__)

DEFAULT_QUESTIONS = 5
DEFAULT_SECONDS = 30
Autocompleted = app_commands.Range[str, 1, limits.CHOICE_VALUE]  # a text option its autocomplete fills
# Timer tasks' names carry "timeout": they are timers, which the loopback never waits for.
TIMER_NAME = "parlbot-quiz-timeout-{channel}"


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"parlbot:quiz:(?P<question>[0-9]+):(?P<choice>[0-9]+)",
):
    """A choice of a quiz question; its custom id is its whole state, so it works after a restart."""

    def __init__(self, question_id: int, choice: int, label: str, *, right: bool | None = None) -> None:
        self.question_id = question_id
        self.choice = choice
        style = discord.ButtonStyle.primary
        if right is not None:  # revealed: the right answer stands out
            style = discord.ButtonStyle.success if right else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=one_line(label or str(choice + 1), limits.BUTTON_LABEL),
                style=style,
                custom_id=f"parlbot:quiz:{question_id}:{choice}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # discord.py types this for any client
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnswerButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["question"]), int(match["choice"]), label or "")

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        watch(interaction)
        try:
            library = interaction.client.library
            click = await in_time(
                interaction,
                lambda: library.answer_quiz(
                    question_id=self.question_id,
                    guild_id=interaction.guild_id,
                    user_id=interaction.user.id,
                    display_name=interaction.user.display_name,
                    choice=self.choice,
                ),
                ephemeral=True,
            )
            await send(interaction, replies.receipt_reply(click))
            cog = interaction.client.get_cog(QuizCog.__cog_name__)
            if click.all_answered and isinstance(cog, QuizCog):
                await cog.close_now(self.question_id)
        except Exception as error:  # a dynamic item's view is discord.py's own, which only logs errors
            await answer_failure(interaction, error)


def answer_view(question_id: int, choices: tuple[str, ...], answer: int | None = None) -> discord.ui.View:
    """One button per choice (``answer`` given: the revealed question, its right answer in green)."""
    view = discord.ui.View(timeout=None)
    for choice, label in enumerate(choices[: limits.ACTION_ROWS * limits.BUTTONS_PER_ROW]):
        view.add_item(
            AnswerButton(question_id, choice, label, right=None if answer is None else choice == answer)
        )
    return view


def _kwargs(reply: Reply, view: discord.ui.View) -> dict[str, Any]:
    return {**message_kwargs(replace(reply, buttons=())), "view": view}


CLEARING = Confirmation(
    Msg.QUIZ_CLEAR, Msg.QUIZ_CLEAR_NOT_YOURS, Msg.QUIZ_CLEAR_CANCELLED, Msg.QUIZ_CLEAR_EXPIRED
)


async def _chambers(interaction: Interaction, value: str) -> list[app_commands.Choice[str]]:
    return choices(interaction.client.library.chamber_choices(value))  # in memory


async def _collections(interaction: Interaction, value: str) -> list[app_commands.Choice[str]]:
    library, guild_id = interaction.client.library, interaction.guild_id or 0
    names = await asyncio.to_thread(library.collection_names, guild_id, value)
    return choices((name, name) for name in names)


async def _sources(interaction: Interaction, value: str) -> list[app_commands.Choice[str]]:
    library = interaction.client.library
    keys = await asyncio.to_thread(
        library.visible_keys, guild_id=interaction.guild_id, kind=EntityKind.SOURCE
    )
    typed = value.casefold().strip()
    return choices((key, key) for key in keys if typed in key)


class QuizCog(commands.Cog, name="Quiz"):
    quiz = app_commands.Group(name="quiz", description="Class quizzes from the database.", guild_only=True)

    def __init__(self, bot: ParlBot) -> None:
        self.bot = bot
        self.timers: dict[int, asyncio.Task[None]] = {}  # by channel

    async def cog_load(self) -> None:
        """Time again every question still open in the database (closing at once those past due)."""
        for waiting in await asyncio.to_thread(self.bot.library.waiting_questions):
            self.schedule(waiting.channel_id, waiting.id, waiting.closes_at)

    async def cog_unload(self) -> None:
        for task in self.timers.values():
            task.cancel()

    # timers and reveals

    def schedule(self, channel_id: int, question_id: int, closes_at: dt.datetime) -> None:
        """Close the question at ``closes_at`` (the channel's one timer: any earlier one is cancelled)."""
        self.cancel(channel_id)
        self.timers[channel_id] = asyncio.create_task(
            self._expire(question_id, closes_at), name=TIMER_NAME.format(channel=channel_id)
        )

    def cancel(self, channel_id: int) -> None:
        task = self.timers.pop(channel_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _expire(self, question_id: int, closes_at: dt.datetime) -> None:
        await asyncio.sleep(max(0.0, (closes_at - dt.datetime.now(dt.UTC)).total_seconds()))
        try:
            closed = await asyncio.to_thread(self.bot.library.close_question, question_id=question_id)
            if closed is not None:
                await self.reveal(closed)
        except Exception:  # a timer has nobody to answer; the question stays closable by /quiz next
            log.exception("Closing quiz question %s when its time was up failed", question_id)

    async def close_now(self, question_id: int) -> None:
        """Close the question before its time (everyone answered) and reveal its answer."""
        closed = await asyncio.to_thread(self.bot.library.close_question, question_id=question_id)
        if closed is not None:
            self.cancel(closed.channel_id)
            await self.reveal(closed)

    async def reveal(self, closed: Closed) -> None:
        """Edit the question's message to show the right answer, who got it, and the source."""
        if closed.message_id is None:
            return
        message = self.bot.get_partial_messageable(closed.channel_id).get_partial_message(closed.message_id)
        view = answer_view(closed.id, closed.choices, closed.answer)
        with speaking(closed.locale):  # the quiz's language, whoever (or whatever) closed it
            reply = replies.revealed_reply(closed)
        try:
            await message.edit(**_kwargs(reply, view))
        except discord.HTTPException:
            log.exception("Revealing quiz question %s failed", closed.id)

    async def ask(self, interaction: Interaction, asked: Asked, reply: Reply) -> None:
        """Send ``reply`` (the question, perhaps under the previous answer), remember its message, and
        start the question's timer."""
        message_id = await send_message(interaction, _kwargs(reply, answer_view(asked.id, asked.choices)))
        await asyncio.to_thread(self.bot.library.quiz_message, question_id=asked.id, message_id=message_id)
        self.schedule(asked.channel_id, asked.id, asked.closes_at)

    async def _after(self, interaction: Interaction, advanced: Advanced) -> None:
        """What ``/quiz next`` and ``/quiz stop`` show: the answer of the question just closed (also
        revealed on its own message), then the next question or the leaderboard."""
        self.cancel(interaction.channel_id or 0)
        shown: list[Reply] = []
        if advanced.closed is not None:
            await self.reveal(advanced.closed)
            shown.append(replies.revealed_reply(advanced.closed))
        if advanced.asked is not None:
            reply = replies.joined([*shown, replies.question_reply(advanced.asked)])
            await self.ask(interaction, advanced.asked, reply)
        elif advanced.ended is not None:
            await send(interaction, replies.joined([*shown, replies.ended_reply(advanced.ended)]))

    # commands

    @quiz.command(description="Start a quiz in this channel, with questions from the incidents.")
    @app_commands.describe(
        collection="Ask about this class collection's incidents only",
        incident="Ask about this incident only",
        chamber="Ask about this chamber's incidents only (its slug, e.g. ca-commons)",
        questions="How many questions (1 to 20)",
        seconds="How long each question stays open (10 to 600 seconds)",
        kind="Ask only this kind of question",
    )
    async def start(
        self,
        interaction: Interaction,
        collection: Autocompleted | None = None,
        incident: app_commands.Transform[str, Query("incident")] | None = None,
        chamber: Autocompleted | None = None,
        questions: app_commands.Range[int, 1, 20] = DEFAULT_QUESTIONS,
        seconds: app_commands.Range[int, 10, 600] = DEFAULT_SECONDS,
        kind: QuestionKind | None = None,
    ) -> None:
        library, guild_id = self.bot.library, interaction.guild_id or 0
        chamber = None if chamber is None else library.chamber_slug(chamber)
        settings = {
            "collection": collection,
            "incident": incident,
            "chamber": chamber,
            "kind": kind,
            "questions": questions,
        }

        def begin() -> Asked:
            wanted = None if incident is None else {incident}
            if collection is not None:
                members = set(library.collection_incidents(guild_id, collection))
                wanted = members if wanted is None else wanted & members
            return library.start_quiz(
                guild_id=guild_id,
                channel_id=interaction.channel_id or 0,
                user_id=interaction.user.id,
                filters=Filters(
                    incidents=None if wanted is None else frozenset(wanted), chamber=chamber, kind=kind
                ),
                count=questions,
                seconds=seconds,
                settings=settings,
            )

        asked = await in_time(interaction, begin)
        lead = say(
            Msg.QUIZ_STARTED,
            who=replies.name(interaction.user.display_name),
            count=asked.total,
            seconds=seconds,
        )
        await self.ask(interaction, asked, replies.question_reply(asked, lead))

    start.autocomplete("chamber")(_chambers)
    start.autocomplete("collection")(_collections)

    @quiz.command(name="next", description="Close the current question and ask the next one.")
    async def next_(self, interaction: Interaction) -> None:
        await self._move_on(interaction, self.bot.library.next_question)

    @quiz.command(description="End the quiz in this channel and show the leaderboard.")
    async def stop(self, interaction: Interaction) -> None:
        await self._move_on(interaction, self.bot.library.stop_quiz)

    async def _move_on(self, interaction: Interaction, step: Callable[..., Advanced]) -> None:
        """Run ``step`` (next question, or stop) for the member in this channel, then show what follows."""
        teacher = await is_teacher(interaction)
        advanced = await in_time(
            interaction,
            lambda: step(
                channel_id=interaction.channel_id or 0, user_id=interaction.user.id, teacher=teacher
            ),
        )
        await self._after(interaction, advanced)

    @quiz.command(description="This server's quiz scores: names and points.")
    async def scores(self, interaction: Interaction) -> None:
        library, private = self.bot.library, lookup_private(interaction)
        standings = await in_time(
            interaction, lambda: library.quiz_scores(guild_id=interaction.guild_id or 0), ephemeral=private
        )
        pages = replies.score_pages(standings)
        if pages == 1:
            await send(interaction, replies.scores_reply(standings, page=0), ephemeral=private)
            return
        view = Pages(
            interaction.user.id,
            Msg.QUIZ_SCORES_NOT_YOURS,
            pages,
            lambda page: replies.scores_reply(standings, page=page),
        )
        await view.send(interaction, ephemeral=private)

    @quiz.command(description="Teachers: add a question of your own, with its answer and a source.")
    @app_commands.describe(
        prompt="The question, as the class reads it",
        answer="The right answer (a button label)",
        wrong1="A wrong answer",
        wrong2="Another wrong answer",
        wrong3="Another wrong answer",
        source="The source that gives the answer (its key, e.g. singh-2020-cbc)",
    )
    @teacher_only()
    async def add(
        self,
        interaction: Interaction,
        prompt: app_commands.Range[str, 1, QUESTION_MAX],
        answer: app_commands.Range[str, 1, limits.BUTTON_LABEL],
        wrong1: app_commands.Range[str, 1, limits.BUTTON_LABEL],
        source: Autocompleted,
        wrong2: app_commands.Range[str, 1, limits.BUTTON_LABEL] | None = None,
        wrong3: app_commands.Range[str, 1, limits.BUTTON_LABEL] | None = None,
    ) -> None:
        actor = Actor(interaction.guild_id or 0, interaction.user.id)
        wrong = [choice for choice in (wrong1, wrong2, wrong3) if choice is not None]
        audit = await in_time(
            interaction,
            lambda: self.bot.library.add_quiz_question(
                actor=actor, prompt=prompt, answer=answer, wrong=wrong, source=source
            ),
            ephemeral=True,
        )
        await send_ephemeral(interaction, say(Msg.QUIZ_ADDED, key=audit.key, change=audit.id))

    add.autocomplete("source")(_sources)

    @quiz.command(name="clear-scores", description="Teachers: clear this server's quiz scores.")
    @teacher_only()
    async def clear_scores(self, interaction: Interaction) -> None:
        library, guild_id = self.bot.library, interaction.guild_id or 0
        standings = await in_time(interaction, lambda: library.quiz_scores(guild_id=guild_id), ephemeral=True)
        if not standings:
            await send_ephemeral(interaction, say(Msg.QUIZ_NO_SCORES))
            return

        def clear() -> Reply:
            return Reply(content=say(Msg.QUIZ_CLEARED, count=library.clear_quiz_scores(guild_id=guild_id)))

        prompt = message_kwargs(Reply(content=say(Msg.QUIZ_CONFIRM_CLEAR, count=len(standings))))
        prompt["view"] = Confirm(interaction, clear, CLEARING, right=ensure_teacher)
        await deliver(interaction, prompt, ephemeral=True)


async def send_message(interaction: Interaction, kwargs: dict[str, Any]) -> int:
    """Send a public message in answer (a follow-up if the interaction was answered already); its id."""
    if interaction.response.is_done():
        return (await interaction.followup.send(**kwargs, wait=True)).id
    await interaction.response.send_message(**kwargs)
    return (await interaction.original_response()).id


async def setup(bot: ParlBot) -> None:
    bot.add_dynamic_items(AnswerButton)
    await bot.add_cog(QuizCog(bot))
