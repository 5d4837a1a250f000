"""Footnote numbers for a lesson sheet: each source cited gets one number, listed under Sources."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.answers.queries import SourceRef


@dataclass
class Citations:
    """The sheet's sources in the order they are numbered (from 1): an incident's own sources first, in
    its order, then any other source a fact cites (a term's), on first use."""

    sources: list[SourceRef] = field(default_factory=list)

    def number(self, source: SourceRef) -> int:
        for number, known in enumerate(self.sources, 1):
            if known.key == source.key:
                return number
        self.sources.append(source)
        return len(self.sources)

    def cite(self, sources: Iterable[SourceRef]) -> str:
        """Footnote marks for ``sources``, once each, in number order: ``[1][3]``."""
        numbers = sorted({self.number(source) for source in sources})
        return "".join(f"[{number}]" for number in numbers)
