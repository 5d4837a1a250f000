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
    incident_ref_line,
    listed,
    source_link,
    telling_aliases,
    text_in_language,
    title_of,
    unofficial,
)
from bot.messages.catalogue import Msg, current_locale, say

INCIDENT_BUTTONS = 5


def term_reply(term: TermDetail) -> Reply:
    """The definition (in French, the entry's French where it has one; in English, the French beside it),
    the source that states the meaning, and the incidents that involve the term (a button for each of the
    first few)."""
    in_french = current_locale() == "fr"
    embed = EmbedBuilder(
        title=(term.name_fr or term.name) if in_french else term.name,
        description=text_in_language(term.definition, term.definition_fr),
        footer=unofficial(term.slug),
    )
    aliases = telling_aliases(term.name, term.aliases)
    if aliases:
        embed.add(say(Msg.GLOSSARY_ALSO_CALLED), ", ".join(aliases))
    if not in_french and (term.name_fr or term.definition_fr):
        french = "\n".join(
            text for text in (f"**{term.name_fr}**" if term.name_fr else None, term.definition_fr) if text
        )
        embed.add(say(Msg.GLOSSARY_IN_FRENCH), french)
    embed.add(say(Msg.SOURCE), source_link(term.source))
    embed.add(
        say(Msg.GLOSSARY_INCIDENTS),
        listed(incident_ref_line(ref) for ref in term.incidents) or say(Msg.GLOSSARY_NO_INCIDENTS),
    )
    buttons = tuple(
        Button(title_of(ref), Action.INCIDENT, ref.slug) for ref in term.incidents[:INCIDENT_BUTTONS]
    )
    return Reply(embeds=(embed.build(),), buttons=buttons)
