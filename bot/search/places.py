"""The other names people search a country by: its common abbreviations and its demonyms.

Search words, not facts: they only help a query find the incidents of a chamber in that country, and
nothing shown to a member is taken from here.
"""

from __future__ import annotations

from typing import Final

COUNTRY_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "Australia": ("Aus", "Australian", "Aussie"),
    "Canada": ("Canadian",),
    "New Zealand": ("NZ", "New Zealander", "Kiwi"),
    "United Kingdom": ("UK", "Britain", "British", "Great Britain"),
}


def country_words(country: str | None) -> tuple[str, ...]:
    """``country`` and the other names people search it by (none for a country not listed)."""
    if country is None:
        return ()
    return (country, *COUNTRY_WORDS.get(country, ()))
