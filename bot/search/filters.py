"""Filters written inside a search text: ``chamber:uk``, ``year:2010-2016``, ``kind:ruling``.

``parse_query("chamber:uk year:2010..2016 mace")`` takes the filters out and leaves the words to
score (``"mace"``). A filter is ``name:value`` or ``name:"a quoted value"``; its name is one of
``chamber`` (or ``country``), ``year`` and ``kind``, in any case. Anything else with a colon stays a
word, so an autocomplete value such as ``quote:12`` still resolves exactly.

- ``chamber:`` a chamber's slug, name, country or a common abbreviation (``uk``, ``"house of
  commons"``); which chambers it means is decided by the index, which knows them.
- ``year:`` a year or a range, ``2010-2016`` or ``2010..2016`` (either order).
- ``kind:`` a kind of entry (``incident``, ``person``, ``quote``, ``ruling``, ``motion``, ``party``,
  plurals too) or a kind of incident (``naming``, ``mace``, ``refusal-to-withdraw``, ...).

A value that cannot be read is reported as ``ParsedQuery.problem`` (its catalogue message, the value
as typed and what is allowed); ``/search`` answers it, autocomplete simply leaves that filter out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Final

from bot.messages.catalogue import Msg
from bot.search.text import fold
from db.models import IncidentKind

__all__ = ["DOCUMENT_KINDS", "INCIDENT_KINDS", "Filters", "ParsedQuery", "Problem", "parse_query"]

_FILTER = re.compile(r'(?<!\S)(chamber|country|year|kind):(?:"([^"]*)"?|(\S*))', re.IGNORECASE)
_YEARS = re.compile(r"^(\d{4})(?:\s*(?:-|–|\.\.)\s*(\d{4}))?$")

# Kinds of entry by the words people write for them (index.DocumentKind values).
DOCUMENT_KINDS: Final[dict[str, str]] = {
    "incident": "incident",
    "incidents": "incident",
    "person": "person",
    "people": "person",
    "persons": "person",
    "member": "person",
    "members": "person",
    "party": "party",
    "parties": "party",
    "quote": "quote",
    "quotes": "quote",
    "ruling": "ruling",
    "rulings": "ruling",
    "motion": "motion",
    "motions": "motion",
    "term": "term",
    "terms": "term",
}
# Kinds of incident by their folded names ("refusal to withdraw"), and a few words for them.
INCIDENT_KINDS: Final[dict[str, str]] = {
    **{fold(kind.value): kind.value for kind in IncidentKind},
    "named": IncidentKind.NAMING.value,
    "suspended": IncidentKind.SUSPENSION.value,
    "consent": IncidentKind.UNANIMOUS_CONSENT.value,
    "unparliamentary": IncidentKind.UNPARLIAMENTARY_LANGUAGE.value,
}


@dataclass(frozen=True, slots=True)
class Filters:
    """What a query is narrowed to; None (or empty) means no narrowing."""

    chamber: str | None = None  # folded: which chambers it means is the index's to say
    years: tuple[int, int] | None = None  # inclusive
    kinds: frozenset[str] = field(default_factory=frozenset)  # DocumentKind values
    incident_kinds: frozenset[str] = field(default_factory=frozenset)  # IncidentKind values

    def __bool__(self) -> bool:
        return bool(self.chamber or self.years or self.kinds or self.incident_kinds)


@dataclass(frozen=True, slots=True)
class Problem:
    """A filter value that cannot be used: the sentence saying so, the value as typed, what is allowed."""

    msg: Msg
    value: str
    allowed: str = ""


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    text: str  # the words left to score, as typed
    filters: Filters = Filters()
    problem: Problem | None = None  # the first filter value that could not be read


def parse_query(text: str) -> ParsedQuery:
    """Split ``text`` into its words and its filters (see the module docstring)."""
    filters, problem = Filters(), None
    for match in _FILTER.finditer(text):
        name, value = match.group(1).lower(), match.group(2) or match.group(3) or ""
        narrowed = _narrow(filters, name, value)
        if isinstance(narrowed, Problem):
            problem = problem or narrowed
        else:
            filters = narrowed
    words = " ".join(_FILTER.sub(" ", text).split())
    return ParsedQuery(words, filters, problem)


def _narrow(filters: Filters, name: str, value: str) -> Filters | Problem:
    folded = fold(value)
    if not folded:
        return Problem(Msg.SEARCH_FILTER_EMPTY, name)
    if name in ("chamber", "country"):
        return replace(filters, chamber=folded)
    if name == "year":
        years = _years(value.strip())
        return Problem(Msg.SEARCH_BAD_YEAR, value) if years is None else replace(filters, years=years)
    if folded in DOCUMENT_KINDS:
        return replace(filters, kinds=filters.kinds | {DOCUMENT_KINDS[folded]})
    if folded in INCIDENT_KINDS:
        return replace(filters, incident_kinds=filters.incident_kinds | {INCIDENT_KINDS[folded]})
    allowed = ", ".join(f"`{kind}`" for kind in (*dict.fromkeys(DOCUMENT_KINDS.values()), *_KIND_NAMES))
    return Problem(Msg.SEARCH_BAD_KIND, value, allowed)


def _years(value: str) -> tuple[int, int] | None:
    match = _YEARS.match(value)
    if match is None:
        return None
    first = int(match.group(1))
    last = int(match.group(2) or first)
    return (min(first, last), max(first, last))


_KIND_NAMES = tuple(kind.value.replace("_", "-") for kind in IncidentKind)
