"""The message catalogues: one id per sentence parlbot says, and ``say`` to word it. No Discord here.

Renderers, domain errors and cogs never spell a sentence out; they name it (``Msg.NO_MATCH``) and give
its fields, which the text places with ``str.format`` (``say(Msg.NO_MATCH, what="quote", query=q)``).
The texts live in gettext catalogues, one per language (``locales/en.po``, ``locales/fr.po``), keyed by
the ids; Babel reads them. ``say`` words a message in the language of the reply being written, which the
Discord side sets once per interaction with ``speaking(locale)`` (a context variable, so it follows the
reply into worker threads).

What is not here, on purpose:
- command and option names and descriptions: they are Discord's own localizable command metadata,
  translated by the tree's ``app_commands.Translator``;
- output of the command line (``bot.cli``, ``bot.loopback``): it is for the bot's host, not members;
- the data itself (titles, quotes, summaries) and the dataset's vocabularies (``db.models``' enum
  values such as ``named`` or ``unanimous_consent``, shown as words);
- the names of options and fields as the dataset spells them (``said_to`` in "edited quote 4 of
  singh-2020: said_to"), and joins of bare punctuation (``f"{number} — {label}"``).

Fields are named for what they hold (``{kind}``, ``{key}``, ``{suggestion}`` for a number); a field
holding a capitalized word starts the English sentence (``"{kind} `{key}` changed after..."``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Final

from babel.messages.pofile import read_po

from bot.messages.ids import Msg

__all__ = ["DEFAULT_LOCALE", "LOCALES", "Msg", "catalogue", "current_locale", "say", "speaking"]

LOCALES: Final = ("en", "fr")
DEFAULT_LOCALE: Final = "en"
FOLDER: Final = Path(__file__).with_name("locales")

_locale: ContextVar[str] = ContextVar("parlbot_locale", default=DEFAULT_LOCALE)


@cache
def catalogue(locale: str) -> Mapping[str, str]:
    """The texts of ``locales/LOCALE.po`` by message id (untranslated entries left out)."""
    with (FOLDER / f"{locale}.po").open("rb") as file:
        po = read_po(file, locale=locale)
    return {str(message.id): str(message.string) for message in po if message.id and message.string}


def current_locale() -> str:
    """The language replies are being written in (``en`` unless ``speaking`` says otherwise)."""
    return _locale.get()


@contextmanager
def speaking(locale: str) -> Iterator[None]:
    """Word every ``say`` inside the block in ``locale`` (one of ``LOCALES``)."""
    if locale not in LOCALES:
        raise ValueError(f"no catalogue for {locale!r}; parlbot speaks {', '.join(LOCALES)}")
    token = _locale.set(locale)
    try:
        yield
    finally:
        _locale.reset(token)


def say(msg: Msg, /, **fields: object) -> str:
    """The text of ``msg`` in the current language, with its ``{fields}`` filled in (``str.format``).

    A text missing from a catalogue (``tests/test_messages.py`` fails on one) falls back to English.
    """
    text = catalogue(_locale.get()).get(msg.value) or catalogue(DEFAULT_LOCALE)[msg.value]
    return text.format(**fields)
