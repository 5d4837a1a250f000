"""What the classroom commands answer: the guild's settings, collections, and the warm-ups' lists.

A list of incidents is a page of lines (date, title, chamber), each with a button that opens the
incident as ``/incident`` shows it; ``cogs.common.Pages`` turns the pages.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.answers.render import Action, Button, EmbedBuilder, Reply, page_of, pages_for, unofficial
from bot.classroom.collections import CollectionChange, CollectionSummary
from bot.classroom.incidents import Anniversaries, IncidentLine
from bot.classroom.settings import GuildSettings
from bot.curation.replies import moderators_line
from bot.defuse import channel_mention, role_mention
from bot.messages.catalogue import Msg, day_words, say

CHANNELS_SHOWN = 15  # channels of their own listed by /config show
LANGUAGE_NAMES = {"en": Msg.LANGUAGE_EN, "fr": Msg.LANGUAGE_FR}


# -- settings ---------------------------------------------------------------------------------------


def teachers_line(role_id: int | None) -> str:
    if role_id is None:
        return say(Msg.TEACHERS_MODERATORS)
    return say(Msg.TEACHERS_ROLE, role=role_mention(role_id))


def private_line(private: bool, channel_id: int | None = None) -> str:
    """Whether lookups answer privately, in the guild or in one channel (mentioned, never pinged)."""
    if channel_id is None:
        return say(Msg.PRIVATE_SERVER_ON if private else Msg.PRIVATE_SERVER_OFF)
    channel = channel_mention(channel_id)
    return say(Msg.PRIVATE_CHANNEL_ON if private else Msg.PRIVATE_CHANNEL_OFF, channel=channel)


def follows_line(channel_id: int) -> str:
    return say(Msg.PRIVATE_CHANNEL_FOLLOWS, channel=channel_mention(channel_id))


def language_line(language: str | None) -> str:
    if language is None:
        return say(Msg.LANGUAGE_UNSET)
    return say(Msg.LANGUAGE_SET, language=say(LANGUAGE_NAMES[language]))


def setting_reply(line: str) -> Reply:
    """What a changed setting now is, for the member who changed it."""
    return Reply(content=line, ephemeral=True)


def settings_reply(settings: GuildSettings) -> Reply:
    """``/config show``: every setting of the guild, channels with their own last."""
    channels = sorted(settings.channels.items())
    lines = [
        f"**{say(Msg.SETTINGS_TITLE)}**",
        moderators_line(settings.moderator_role_id),
        teachers_line(settings.teacher_role_id),
        language_line(settings.language),
        private_line(settings.ephemeral),
        *(private_line(private, channel) for channel, private in channels[:CHANNELS_SHOWN]),
    ]
    if len(channels) > CHANNELS_SHOWN:
        lines.append(say(Msg.AND_MORE, count=len(channels) - CHANNELS_SHOWN))
    lines.append(say(Msg.SETTINGS_HINT))
    return Reply(content="\n".join(lines), ephemeral=True)


# -- collections ------------------------------------------------------------------------------------


def added_reply(change: CollectionChange) -> Reply:
    msg = Msg.COLLECTION_CREATED if change.created else Msg.COLLECTION_ADDED
    return Reply(content=say(msg, name=change.name, title=change.title, count=change.count), ephemeral=True)


def removed_reply(change: CollectionChange) -> Reply:
    """An incident taken out of a collection, or (no slug) the whole collection removed."""
    if change.slug is None:
        return Reply(
            content=say(Msg.COLLECTION_DELETED, name=change.name, count=change.count), ephemeral=True
        )
    text = say(Msg.COLLECTION_ITEM_REMOVED, incident=change.slug, name=change.name, count=change.count)
    return Reply(content=text, ephemeral=True)


def confirm_delete_reply(name: str, count: int) -> Reply:
    return Reply(content=say(Msg.COLLECTION_CONFIRM_DELETE, name=name, count=count), ephemeral=True)


def collections_page_reply(summaries: Sequence[CollectionSummary], *, page: int) -> Reply:
    """One page of the guild's collections, by name."""
    page, shown = page_of(summaries, page)
    embed = EmbedBuilder(
        title=say(Msg.COLLECTIONS_TITLE),
        footer=unofficial(say(Msg.PAGE, page=page + 1, pages=pages_for(len(summaries)))),
    )
    embed.description = (
        "\n".join(say(Msg.COLLECTIONS_LINE, name=s.name, count=s.count) for s in shown)
        if shown
        else say(Msg.NO_COLLECTIONS)
    )
    return Reply(embeds=(embed.build(),))


def incident_line(line: IncidentLine) -> str:
    return say(
        Msg.INCIDENT_LINE,
        date=line.date.isoformat(),
        title=line.title,
        chamber=line.chamber,
    )


def incidents_page_reply(title: str, lines: Sequence[IncidentLine], *, page: int, empty: str) -> Reply:
    """One page of incident lines under ``title`` (``empty`` when there are none), a button for each."""
    page, shown = page_of(lines, page)
    embed = EmbedBuilder(
        title=title, footer=unofficial(say(Msg.PAGE, page=page + 1, pages=pages_for(len(lines))))
    )
    embed.description = "\n".join(map(incident_line, shown)) if shown else empty
    buttons = tuple(Button(line.title, Action.INCIDENT, line.slug) for line in shown)
    return Reply(embeds=(embed.build(),), buttons=buttons)


def collection_page_reply(name: str, lines: Sequence[IncidentLine], *, page: int) -> Reply:
    return incidents_page_reply(
        say(Msg.COLLECTION_TITLE, name=name), lines, page=page, empty=say(Msg.COLLECTION_EMPTY, name=name)
    )


def timeline_page_reply(lines: Sequence[IncidentLine], *, page: int) -> Reply:
    return incidents_page_reply(
        say(Msg.TIMELINE_TITLE, count=len(lines)), lines, page=page, empty=say(Msg.TIMELINE_NOTHING)
    )


# -- on this day ------------------------------------------------------------------------------------


def on_this_day_page_reply(found: Anniversaries, *, page: int) -> Reply:
    """A page of the incidents of today's anniversaries, else of the nearest."""
    today = day_words(found.today, year=False)
    title = (
        say(Msg.ON_THIS_DAY_TITLE, day=today)
        if found.exact
        else say(Msg.NEAREST_DAY_TITLE, day=today, nearest=day_words(found.day, year=False))
    )
    return incidents_page_reply(title, found.lines, page=page, empty="")


def nothing_on_this_day_reply() -> Reply:
    return Reply(content=say(Msg.ON_THIS_DAY_NOTHING), ephemeral=True)
