"""Text folding shared by the search index and everything that compares names.

``fold`` maps the many ways a name can be typed onto one form: ``"Québécois"``, ``"QUEBECOIS"`` and
``"quebecois"`` all fold to ``"quebecois"``; ``"Maipi-Clarke"`` folds to ``"maipi clarke"``, and
``"l'expulsion"`` to ``"l expulsion"``. Letters and
digits of every script are kept (``"Māori"`` becomes ``"maori"``, ``"Ελλάδα"`` becomes ``"ελλαδα"``).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["fold", "is_numeric", "tokens"]

# An apostrophe between two letters joins them ("can't" -> "cant", "Singh’s" -> "singhs"), so the
# typed forms "cant" and "can't" agree, except after a French elided word, whose apostrophe parts two
# words ("l'expulsion" -> "l expulsion", "qu'est-ce" -> "qu est ce"); every other apostrophe is
# punctuation like the rest.
_APOSTROPHES = "'’ʼ‘`´"  # these look alike on purpose
_ELIDED = re.compile(rf"(?<!\w)(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quelqu)[{_APOSTROPHES}](?=\w)")
_INNER_APOSTROPHE = re.compile(rf"(?<=\w)[{_APOSTROPHES}](?=\w)")
_ANY_APOSTROPHE = re.compile(rf"[{_APOSTROPHES}]")
_NOT_WORD = re.compile(r"[\W_]+")  # \W is Unicode-aware: letters and digits of any script survive


def fold(text: str) -> str:
    """Casefold, strip accents, turn punctuation into spaces and collapse whitespace.

    Casefolding comes first because it can itself produce combining marks ("İ" -> "i" + dot above).
    NFKD splits accented letters into base letter plus combining mark, and compatibility characters
    (ligatures, full-width forms, superscripts) into their plain equivalents; the marks are dropped.
    A compatibility character may decompose to a capital, which is folded in turn, so folded text folds
    to itself (Unicode's compatibility caseless match).
    """
    if text.isascii():  # the common case, and casefold() is lower() on ASCII
        stripped = text.lower()
    else:
        decomposed = unicodedata.normalize("NFKD", text.casefold())
        refolded = decomposed.casefold()
        if refolded != decomposed:  # a compatibility form that decomposes to a capital ("ϒ" -> "Υ")
            decomposed = unicodedata.normalize("NFKD", refolded)
        stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    if _ANY_APOSTROPHE.search(stripped):  # most texts have none: two costly patterns spared
        stripped = _INNER_APOSTROPHE.sub("", _ELIDED.sub(lambda elided: elided.group(0)[:-1] + " ", stripped))
    return _NOT_WORD.sub(" ", stripped).strip()


def tokens(text: str) -> list[str]:
    """The words of ``text`` after folding, in order (duplicates kept)."""
    return fold(text).split()


def is_numeric(token: str) -> bool:
    """Whether a folded token is a number such as a year (numbers are matched exactly, not fuzzily)."""
    return token.isdigit()
