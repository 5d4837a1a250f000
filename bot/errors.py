"""Domain errors raised by the core and turned into polite replies in one place (``ParlTree.on_error``).

An error names its sentence in the catalogue and gives its fields: ``NotFound(Msg.NO_SUCH_CHANGE,
change=12)``; ``.msg`` keeps the id (what tests assert on) and ``.message`` the English text.
"""

from __future__ import annotations

from bot.messages.catalogue import Msg, say


class ParlbotError(Exception):
    """Base for errors whose message is safe and useful to show to the person who asked.

    The message is always a catalogue id: a finished sentence (a plain ``str``) is refused, so every
    sentence a member reads has an id and an English text in ``bot.messages``.
    """

    def __init__(self, msg: Msg, /, **fields: object) -> None:
        if not isinstance(msg, Msg):
            raise TypeError(f"a domain error names its sentence by a catalogue id (Msg), not {msg!r}")
        message = say(msg, **fields)
        super().__init__(message)
        self.msg = msg
        self.fields = fields
        self.message = message


class NotFound(ParlbotError):
    """Nothing matched what was asked for."""


class InvalidInput(ParlbotError):
    """The request could not be understood as given."""


class Conflict(ParlbotError):
    """The entry changed since the state a change was based on; nothing was written."""


class Forbidden(ParlbotError):
    """The person or guild may not make this change."""
