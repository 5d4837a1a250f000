"""The glossary's answer: what ``/explain term:`` shows (a ``TermDetail`` in, a ``Reply`` out).

It lives beside ``render`` and borrows its helpers (line lists, incident lines), so that render.py
itself only gains the incident's "Terms" field.
"""

from __future__ import annotations

from bot.answers.queries import TermDetail
from bot.answers.render import (
    Action,
    Button,
    EmbedBuilder,
    Reply,
    _incident_line,
    _lines,
    source_link,
    telling_aliases,
    unofficial,
)
from bot.limits import clip
from bot.messages.catalogue import Msg, say

INCIDENT_BUTTONS = 5


def term_reply(term: TermDetail) -> Reply:
    """The definition, in French too where the entry has it, the source that states the meaning, and
    the incidents that involve the term (a button for each of the first few)."""
    embed = EmbedBuilder(title=term.name, description=term.definition, footer=unofficial(term.slug))
    aliases = telling_aliases(term.name, term.aliases)
    if aliases:
        embed.add(say(Msg.GLOSSARY_ALSO_CALLED), ", ".join(aliases))
    if term.name_fr or term.definition_fr:
        french = "\n".join(
            text for text in (f"**{term.name_fr}**" if term.name_fr else None, term.definition_fr) if text
        )
        embed.add(say(Msg.GLOSSARY_IN_FRENCH), french)
    embed.add(say(Msg.SOURCE), source_link(term.source))
    embed.add(
        say(Msg.GLOSSARY_INCIDENTS),
        _lines(_incident_line(ref) for ref in term.incidents) or say(Msg.GLOSSARY_NO_INCIDENTS),
    )
    buttons = tuple(
        Button(clip(ref.title, 80), Action.INCIDENT, ref.slug) for ref in term.incidents[:INCIDENT_BUTTONS]
    )
    return Reply(embeds=(embed.build(),), buttons=buttons)
