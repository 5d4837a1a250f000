"""What quiz messages say: a question being asked, its answer revealed, a click's private receipt, the
leaderboard and the guild's scores. No Discord here; the cog adds the answer buttons (one per choice)."""

from __future__ import annotations

from collections.abc import Sequence

from bot import limits
from bot.answers.render import EmbedBuilder, Reply, listed, page_of, pages_for
from bot.limits import clip
from bot.messages.catalogue import Msg, say
from bot.quiz.sessions import Asked, Click, Closed, Ended, Standing, Taken

SCORES_PAGE = 20
# A quiz message may carry two embeds (an answer revealed, then the next question or the leaderboard).
EMBED_BUDGET = limits.EMBED_TOTAL // 2
NAME_SHOWN = 40
RECEIPTS = {
    Taken.TAKEN: Msg.QUIZ_ANSWER_TAKEN,
    Taken.CHANGED: Msg.QUIZ_ANSWER_CHANGED,
    Taken.SAME: Msg.QUIZ_ANSWER_SAME,
    Taken.CLOSED: Msg.QUIZ_QUESTION_CLOSED,
}


def name(text: str) -> str:
    """A member's display name as plain text: clipped, its markdown escaped."""
    shown = clip(" ".join(text.split()), NAME_SHOWN)
    for mark in "\\*_~`|>[]":
        shown = shown.replace(mark, f"\\{mark}")
    return shown


def relative_time(moment_epoch: int) -> str:
    """Discord's relative timestamp markup ("in 30 seconds", in each reader's own language)."""
    return f"<t:{moment_epoch}:R>"


def question_reply(asked: Asked, lead: str | None = None) -> Reply:
    """The question as it is asked (``lead`` above it: who started the quiz, say)."""
    closes = say(Msg.QUIZ_CLOSES, when=relative_time(int(asked.closes_at.timestamp())))
    embed = EmbedBuilder(
        title=say(Msg.QUIZ_QUESTION_TITLE, number=asked.number, total=asked.total),
        description=f"{clip(asked.prompt, limits.EMBED_DESCRIPTION - len(closes) - 2)}\n\n{closes}",
    )
    return Reply(content=lead, embeds=(embed.build(EMBED_BUDGET),))


def revealed_reply(closed: Closed) -> Reply:
    """The question once closed: the right answer, who got it, and the source that says so."""
    embed = EmbedBuilder(
        title=say(Msg.QUIZ_CLOSED_TITLE, number=closed.number, total=closed.total),
        description=closed.prompt,
    )
    embed.add(say(Msg.QUIZ_RIGHT_ANSWER), f"**{closed.choices[closed.answer]}**")
    who = listed(map(name, closed.right)) if closed.right else say(Msg.QUIZ_NOBODY_GOT_IT)
    embed.add(say(Msg.QUIZ_WHO_GOT_IT, right=len(closed.right), answered=closed.answered), who)
    embed.add(say(Msg.QUIZ_SOURCE), closed.source)
    return Reply(embeds=(embed.build(EMBED_BUDGET),))


def joined(parts: Sequence[Reply]) -> Reply:
    """Replies shown as one message: their contents in order, their embeds sharing Discord's total."""
    content = "\n".join(part.content for part in parts if part.content) or None
    embeds = tuple(embed for part in parts for embed in part.embeds)
    return Reply(content=content, embeds=embeds)


def receipt_reply(click: Click) -> Reply:
    """What the member who clicked sees, privately."""
    return Reply(content=say(RECEIPTS[click.taken], number=click.number, choice=click.choice), ephemeral=True)


def _standing_lines(standings: Sequence[Standing], line: Msg, first_rank: int, **fields: object) -> str:
    return listed(
        say(line, rank=rank, name=name(s.name), points=s.points, **fields)
        for rank, s in enumerate(standings, first_rank)
    )


def ended_reply(ended: Ended) -> Reply:
    """The leaderboard at the end of a quiz."""
    closing = (
        say(Msg.QUIZ_FINISHED, total=ended.total)
        if ended.finished
        else say(Msg.QUIZ_STOPPED, asked=ended.asked, total=ended.total)
    )
    board = (
        _standing_lines(ended.standings, Msg.QUIZ_LEADER_LINE, 1, asked=ended.asked)
        if ended.standings
        else say(Msg.QUIZ_NOBODY_ANSWERED)
    )
    embed = EmbedBuilder(title=say(Msg.QUIZ_ENDED_TITLE), description=board)
    return Reply(content=closing, embeds=(embed.build(EMBED_BUDGET),))


def score_pages(standings: Sequence[Standing]) -> int:
    return pages_for(len(standings), SCORES_PAGE)


def scores_reply(standings: Sequence[Standing], *, page: int) -> Reply:
    """A page of the guild's running totals: names and points only."""
    if not standings:
        return Reply(content=say(Msg.QUIZ_NO_SCORES), ephemeral=True)
    page, shown = page_of(standings, page, SCORES_PAGE)
    embed = EmbedBuilder(
        title=say(Msg.QUIZ_SCORES_TITLE),
        description=_standing_lines(shown, Msg.QUIZ_SCORE_LINE, page * SCORES_PAGE + 1),
    )
    pages = score_pages(standings)
    if pages > 1:
        embed.footer = f"{embed.footer} · {say(Msg.PAGE, page=page + 1, pages=pages)}"
    return Reply(embeds=(embed.build(),))
