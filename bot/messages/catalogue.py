"""The message catalogues: one id per sentence parlbot says, and ``say`` to word it. No Discord here.

Renderers, domain errors and cogs never spell a sentence out; they name it (``Msg.NO_MATCH``) and give
its fields, which the text places with ``str.format`` (``say(Msg.NO_MATCH, what="quote", query=q)``).
The texts live in gettext catalogues, one per language (``locales/en.po``, ``locales/fr.po``), keyed by
the ids; Babel reads them. ``say`` words a message in the language of the reply being written: the
Discord side sets it once per interaction (``answer_in`` the language ``reply_locale`` picks for the
asker), the command line for a block (``speaking``). It is a context variable, so it follows the reply
into worker threads.

What is not here, on purpose:
- command and option names and descriptions: they are Discord's own localizable command metadata,
  translated by the tree's ``app_commands.Translator``;
- output of the command line (``bot.cli``, ``bot.loopback``): it is for the bot's host, not members;
- the data itself (titles, quotes, summaries; ``in_language`` picks a French column where the data
  fills one). The dataset's vocabularies (``db.models``' enum values such as ``unanimous_consent``)
  are, though, wherever members read them as words (``outcome.*``, ``procedure.*``, ...);
- the names of options and fields as the dataset spells them (``said_to`` in "edited quote 4 of
  singh-2020: said_to"), and joins of bare punctuation (``f"{number} — {label}"``).

Fields are named for what they hold (``{kind}``, ``{key}``, ``{suggestion}`` for a number); a field
holding a capitalized word starts the English sentence (``"{kind} `{key}` changed after..."``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Final

from babel import Locale
from babel.dates import format_date
from babel.messages.pofile import read_po

from bot.messages.ids import Msg

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "Msg",
    "answer_in",
    "catalogue",
    "command_catalogue",
    "command_words",
    "current_locale",
    "day_words",
    "in_language",
    "language_words",
    "reply_locale",
    "say",
    "speaking",
    "spoken",
]

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


@cache
def command_catalogue(locale: str) -> Mapping[tuple[str, str], str]:
    """The command metadata of ``locales/commands-LOCALE.po`` by (kind, English text), the kind being the
    entry's ``msgctxt``: ``name`` (commands, groups, options), ``description`` or ``choice``. English has
    no such catalogue: the commands are written in English."""
    path = FOLDER / f"commands-{locale}.po"
    if not path.exists():
        return {}
    with path.open("rb") as file:
        po = read_po(file, locale=locale)
    return {
        (str(message.context), str(message.id)): str(message.string)
        for message in po
        if message.id and message.string and message.context
    }


def command_words(kind: str, english: str) -> str:
    """A command's name, description or choice (``kind``) in the current language, as Discord shows it
    to the asker (for the replies that name commands, such as /help)."""
    return command_catalogue(_locale.get()).get((kind, english), english)


def current_locale() -> str:
    """The language replies are being written in (``en`` unless ``speaking`` says otherwise)."""
    return _locale.get()


def spoken(tag: str | None) -> str | None:
    """The catalogue for a language tag, if parlbot speaks it: ``fr`` and ``fr-CA`` → ``fr``, ``en-US``
    and ``en-GB`` → ``en``; ``None`` for any other language (and for no tag)."""
    language = (tag or "").split("-", 1)[0].lower()
    return language if language in LOCALES else None


def reply_locale(asker: str | None, guild: str | None = None) -> str:
    """The language of a reply: the asker's own (their Discord locale, ``asker``) when parlbot speaks
    it, else the guild's chosen language (``/config language``), else English."""
    return spoken(asker) or spoken(guild) or DEFAULT_LOCALE


def _checked(locale: str) -> str:
    if locale not in LOCALES:
        raise ValueError(f"no catalogue for {locale!r}; parlbot speaks {', '.join(LOCALES)}")
    return locale


def answer_in(locale: str) -> None:
    """Word every later ``say`` of the current task (and of the threads it starts) in ``locale``.

    For the Discord side, once at the start of an interaction's task: the task's context is its own
    copy, so the language ends with the task.
    """
    _locale.set(_checked(locale))


@contextmanager
def speaking(locale: str) -> Iterator[None]:
    """Word every ``say`` inside the block in ``locale`` (one of ``LOCALES``)."""
    token = _locale.set(_checked(locale))
    try:
        yield
    finally:
        _locale.reset(token)


def in_language(english: str, french: str | None) -> str:
    """A name the data gives in both languages (a chamber's ``name``/``name_fr``, ...), in the current
    language: the French one in French where the data has it, else the English."""
    return french if french and _locale.get() == "fr" else english


def say(msg: Msg, /, **fields: object) -> str:
    """The text of ``msg`` in the current language, with its ``{fields}`` filled in (``str.format``).

    A text missing from a catalogue (``tests/test_messages.py`` fails on one) falls back to English.
    """
    text = catalogue(_locale.get()).get(msg.value) or catalogue(DEFAULT_LOCALE)[msg.value]
    return text.format(**fields)


def day_words(day: dt.date, *, year: bool = True) -> str:
    """A day in words in the current language: "17 June 2020", "17 juin 2020", "1er juin 2020"; without
    ``year``, "17 June", "17 juin"."""
    locale = _locale.get()
    words = format_date(day, "d MMMM y" if year else "d MMMM", locale=locale)
    return f"1er{words[1:]}" if locale == "fr" and day.day == 1 else words


@cache
def _language_codes() -> Mapping[str, str]:
    """ISO codes of the languages by their English names, folded ("french" → "fr")."""
    return {name.casefold(): code for code, name in Locale("en").languages.items()}


def language_words(name: str) -> str:
    """A language the data names in English ("French"), in the current language ("français"); a name
    Babel does not know stays as the data gives it."""
    code = _language_codes().get(name.casefold())
    if code is None or _locale.get() == DEFAULT_LOCALE:
        return name
    return str(Locale(_locale.get()).languages.get(code, name))
