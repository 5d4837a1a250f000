"""The message catalogue: one id per sentence parlbot says, and ``say`` to word it. No Discord here.

Renderers, domain errors and cogs never spell a sentence out; they name it (``Msg.NO_MATCH``) and give
its fields, which the text places with ``str.format`` (``say(Msg.NO_MATCH, what="quote", query=q)``).
English (``bot.messages.en``) is the only language for now; another language is another catalogue
keyed by the same ids, not a hunt through the code.

What is not here, on purpose:
- command and option descriptions (the ``description=`` of ``app_commands`` decorators): they are
  Discord's own localizable command metadata, translated by an ``app_commands.Translator`` later;
- output of the command line (``bot.cli``, ``bot.loopback``): it is for the bot's host, not members;
- the data itself (titles, quotes, summaries) and the dataset's vocabularies (``db.models``' enum
  values such as ``named`` or ``unanimous_consent``, shown as words);
- the names of options and fields as the dataset spells them (``said_to`` in "edited quote 4 of
  singh-2020: said_to"), and joins of bare punctuation (``f"{number} — {label}"``).

Fields are named for what they hold (``{kind}``, ``{key}``, ``{suggestion}`` for a number); a field
holding a capitalized word starts the English sentence (``"{kind} `{key}` changed after..."``).
"""

from __future__ import annotations

from bot.messages.en import ENGLISH
from bot.messages.ids import Msg

__all__ = ["Msg", "say"]


def say(msg: Msg, /, **fields: object) -> str:
    """The English text of ``msg`` with its ``{fields}`` filled in (``str.format``)."""
    return ENGLISH[msg].format(**fields)
