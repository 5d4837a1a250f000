"""A ruling's outcome (``db.models.RulingOutcome``) in words: the catalogue message naming each.

Shared by the replies (``bot.answers.render``), the quizzes, the lesson sheets and the search labels
(``bot.search.documents``), which the answers' room builds on and so cannot import from.
"""

from __future__ import annotations

from typing import Final

from bot.messages.ids import Msg
from db.models import RulingOutcome

__all__ = ["OUTCOME"]

OUTCOME: Final[dict[RulingOutcome, Msg]] = {
    RulingOutcome.CALLED_TO_ORDER: Msg.OUTCOME_CALLED_TO_ORDER,
    RulingOutcome.WARNED: Msg.OUTCOME_WARNED,
    RulingOutcome.ASKED_TO_WITHDRAW: Msg.OUTCOME_ASKED_TO_WITHDRAW,
    RulingOutcome.WORDS_WITHDRAWN: Msg.OUTCOME_WORDS_WITHDRAWN,
    RulingOutcome.APOLOGY_ACCEPTED: Msg.OUTCOME_APOLOGY_ACCEPTED,
    RulingOutcome.ORDERED_TO_LEAVE_SITTING: Msg.OUTCOME_ORDERED_TO_LEAVE_SITTING,
    RulingOutcome.ORDERED_TO_LEAVE_PERIOD: Msg.OUTCOME_ORDERED_TO_LEAVE_PERIOD,
    RulingOutcome.NAMED: Msg.OUTCOME_NAMED,
    RulingOutcome.SUSPENDED_BY_HOUSE: Msg.OUTCOME_SUSPENDED_BY_HOUSE,
    RulingOutcome.PRIVILEGE_FOUND: Msg.OUTCOME_PRIVILEGE_FOUND,
    RulingOutcome.PRIVILEGE_NOT_FOUND: Msg.OUTCOME_PRIVILEGE_NOT_FOUND,
    RulingOutcome.SITTING_SUSPENDED: Msg.OUTCOME_SITTING_SUSPENDED,
    RulingOutcome.NO_SANCTION: Msg.OUTCOME_NO_SANCTION,
}
