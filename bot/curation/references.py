"""References as a moderator types them, without Discord: ``speaker:"Jagmeet Singh"``, ``party:ndp``,
``incident:singh``, ``source:cbc``.

Incidents, people and parties are resolved by the search index (``bot.library.Library`` asks it);
sources and chambers, which it does not hold, by their key and then by a fuzzy match over their names
here (``matched``). Either way the answer is an ``Outcome``: the key meant (an exact key, name or
alias, or a clear winner), a ``Close`` call between candidates, or nothing close (``Unknown``, with
suggestions). ``settled`` turns it into the key, or into a refusal naming the option and the choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from bot.answers.render import echo
from bot.curation.changes import kind_name
from bot.errors import InvalidInput, NotFound
from bot.limits import clip
from bot.messages.catalogue import Msg
from bot.search.index import TUNING
from bot.search.text import fold
from db.dataset.schema import ChamberEntry, Entry, SourceEntry
from db.models import EntityKind

CHOICES_SHOWN = 5
CHOICE_LABEL = 90  # characters of a candidate's label in a refusal
# A source or chamber counts as close from this rapidfuzz ``token_set_ratio`` on: against the shipped
# sources and chambers a publisher, headline or chamber word typed ("cbc", "yellowknife", "uk commons")
# scores 80 or more, unrelated words ("globe", "nonsense") 45 at most. (``WRatio`` gave unrelated words
# up to 55, and "uk commons" 86 for both Houses of Commons.)
CLOSE_SCORE = 70.0


@dataclass(frozen=True, slots=True)
class Named:
    """An entry a reference may mean: its key, how a refusal lists it, and the texts a match reads."""

    key: str
    label: str
    texts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Close:
    """Several entries are about as close to what was typed: the moderator says which."""

    candidates: tuple[Named, ...]


@dataclass(frozen=True, slots=True)
class Unknown:
    """Nothing close to what was typed; ``suggestions`` are the nearest there are."""

    suggestions: tuple[Named, ...]


Outcome = str | Close | Unknown
"""What a typed reference means: the key, a close call, or nothing close."""


def named(entry: Entry) -> Named:
    """A source (by publisher and title) or a chamber (by its names and country), as ``matched`` reads it."""
    if isinstance(entry, SourceEntry):
        said = tuple(t for t in (entry.publisher, entry.title) if t)  # a source may name no publisher
        return Named(entry.key, ": ".join(said) or entry.key, said)
    if isinstance(entry, ChamberEntry):
        texts = (entry.name, entry.name_fr, entry.legislature, entry.country)
        return Named(entry.slug, f"{entry.name} ({entry.country})", tuple(t for t in texts if t))
    raise TypeError(f"a {type(entry).__name__} is found through the search index")


def _score(typed: str, entry: Named) -> float:
    return max(fuzz.token_set_ratio(typed, fold(text)) for text in (entry.key, *entry.texts))


def matched(text: str, pool: Sequence[Named]) -> Outcome:
    """What ``text`` means among ``pool``: its key or a name equal to it, else a clear fuzzy winner
    (close, and as far ahead as the search index wants a winner), else a close call or the nearest few."""
    typed = fold(text)
    exact = [entry for entry in pool if typed in {fold(t) for t in (entry.key, *entry.texts)}]
    if len(exact) == 1:
        return exact[0].key
    if exact:
        return Close(tuple(exact[:CHOICES_SHOWN]))
    ranked = sorted(((_score(typed, entry), entry) for entry in pool), key=lambda pair: -pair[0])
    if not ranked or ranked[0][0] < CLOSE_SCORE:
        return Unknown(tuple(entry for _, entry in ranked[:CHOICES_SHOWN]))
    best = ranked[0][0]
    runner_up = ranked[1][0] if len(ranked) > 1 else 0.0
    if best - runner_up >= TUNING.clear_margin:
        return ranked[0][1].key
    close = tuple(entry for score, entry in ranked if score >= best - TUNING.ambiguous_window)
    return Close(close[:CHOICES_SHOWN])


def _listed(entries: Sequence[Named]) -> str:
    return "\n".join(
        f"• {clip(entry.label, CHOICE_LABEL)} — `{entry.key}`" for entry in entries[:CHOICES_SHOWN]
    )


def settled(outcome: Outcome, *, option: str, kind: EntityKind, text: str) -> str:
    """The key ``outcome`` names, or a refusal saying which ``option`` and what to type instead."""
    if isinstance(outcome, str):
        return outcome
    typed, what = echo(text), kind_name(kind)
    if isinstance(outcome, Close):
        choices = _listed(outcome.candidates)
        raise InvalidInput(Msg.REFERENCE_AMBIGUOUS, option=option, text=typed, kind=what, choices=choices)
    if not outcome.suggestions:
        raise NotFound(Msg.REFERENCE_UNKNOWN, option=option, text=typed, kind=what)
    choices = _listed(outcome.suggestions)
    raise NotFound(Msg.REFERENCE_UNKNOWN_SUGGESTING, option=option, text=typed, kind=what, choices=choices)
