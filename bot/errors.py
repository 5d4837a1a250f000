"""Domain errors raised by the core and turned into polite replies in one place (``ParlTree.on_error``).

An error names its sentence in the catalogue and gives its fields: ``NotFound(Msg.NO_SUCH_CHANGE,
change=12)``; ``.msg`` keeps the id (what tests assert on) and ``.message`` the English text.
"""

from __future__ import annotations

from bot.messages.catalogue import Msg, say


class ParlbotError(Exception):
    """Base for errors whose message is safe and useful to show to the person who asked.

    A plain ``str`` is still accepted (``.msg`` is then None) for ``bot.curation.forms``, whose
    sentences move into the catalogue once its rewrite has landed.
    """

    def __init__(self, msg: str | Msg, /, **fields: object) -> None:
        if isinstance(msg, Msg):
            message = say(msg, **fields)
        elif fields:
            raise TypeError("fields need a catalogue id (Msg), not a finished sentence")
        else:
            message = msg
        super().__init__(message)
        self.msg: Msg | None = msg if isinstance(msg, Msg) else None
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
