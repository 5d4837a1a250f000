"""The words people use for what happened, and the words of a question that carry no meaning.

Search words, not facts (like ``places``): they only help a query find an incident, and nothing a
member reads is taken from here.

- ``STOP_WORDS``: question words and fillers ("who got kicked out for calling someone a liar" is
  about "kicked out", "calling" and "liar"). A query made of nothing else keeps them ("i will not").
- ``WORDS_FOR``: for an incident kind or a ruling outcome (their values in ``db.models``), the
  everyday words for it, so "ejected", "kicked out" or "apologised" find the incidents they describe.
  Each is a field of its own, so "kicked out" is a name whose "out" alone counts for little.
"""

from __future__ import annotations

from typing import Final

# fmt: off
STOP_WORDS: Final[frozenset[str]] = frozenset((
    "who", "whom", "whose", "what", "when", "where", "which", "why", "how",
    "did", "does", "do", "done", "was", "were", "is", "are", "be", "been", "being", "has", "have", "had",
    "the", "a", "an", "of", "for", "to", "in", "on", "at", "by", "with", "from", "about", "into",
    "someone", "somebody", "anyone", "anybody", "something", "anything", "everyone",
    "got", "get", "gets", "getting", "happened", "happen", "happens", "ever", "any", "that", "this", "there",
))
# fmt: on

_EJECTED = ("ejected", "kicked out", "thrown out", "expelled", "ordered out", "sent out", "removed")

WORDS_FOR: Final[dict[str, tuple[str, ...]]] = {
    # incident kinds
    "unanimous_consent": ("consent blocked", "objected"),
    "unparliamentary_language": ("insult", "insulted", "swore", "swearing", "unparliamentary"),
    "refusal_to_withdraw": ("refused to withdraw", "would not withdraw"),
    "naming": ("named",),
    "suspension": ("suspended",),
    "disorder": ("scuffle", "protest"),
    "privilege": ("contempt",),
    "sitting_suspended": ("adjourned",),
    # ruling outcomes
    "called_to_order": ("order",),
    "warned": ("warning",),
    "words_withdrawn": ("withdrew", "withdrawn", "retracted"),
    "apology_accepted": ("apologised", "apologized", "apology"),
    "ordered_to_leave_sitting": _EJECTED,
    "ordered_to_leave_period": _EJECTED,
    "named": ("named", "naming"),
    "suspended_by_house": ("suspended", "suspension"),
    "privilege_found": ("breach of privilege",),
}


def meaningful(words: list[str]) -> list[str]:
    """``words`` without stop words, unless that would leave nothing."""
    kept = [word for word in words if word not in STOP_WORDS]
    return kept or words
