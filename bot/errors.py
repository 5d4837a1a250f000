"""Domain errors raised by the core and turned into polite replies in one place (``ParlTree.on_error``)."""

from __future__ import annotations


class ParlbotError(Exception):
    """Base for errors whose message is safe and useful to show to the person who asked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(ParlbotError):
    """Nothing matched what was asked for."""


class InvalidInput(ParlbotError):
    """The request could not be understood as given."""


class Conflict(ParlbotError):
    """The entry changed since the state a change was based on; nothing was written."""


class Forbidden(ParlbotError):
    """The person or guild may not make this change."""
