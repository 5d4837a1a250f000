"""How people mistype: slips of the keyboard, letters typed without their accents, slugs made of names."""

from __future__ import annotations

import random
import unicodedata

# Letters that do not decompose into a base letter and a mark, as someone without the key types them.
_PLAIN = str.maketrans({"ł": "l", "Ł": "L", "ı": "i", "ø": "o", "Ø": "O", "đ": "d", "ß": "ss", "æ": "ae",
                        "œ": "oe", "ð": "d", "þ": "th"})  # fmt: skip
_NEIGHBOURS = {
    "a": "qsz", "b": "vnh", "c": "xvd", "d": "sfe", "e": "wrd", "f": "dgr", "g": "fht", "h": "gjy",
    "i": "uok", "j": "hku", "k": "jli", "l": "kop", "m": "nj", "n": "bmh", "o": "ipl", "p": "ol",
    "q": "wa", "r": "etf", "s": "adw", "t": "ryg", "u": "yij", "v": "cbf", "w": "qes", "x": "zcs",
    "y": "tuh", "z": "xas",
}  # fmt: skip


def unaccented(text: str) -> str:
    """``text`` as typed without accents: "Łucja Wiśniewska" -> "Lucja Wisniewska"."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def ascii_slug(text: str) -> str:
    """Lower-case ASCII words joined by hyphens, as the dataset's slugs are written."""
    plain = unaccented(text).lower().encode("ascii", "ignore").decode()
    return "-".join("".join(ch if ch.isalnum() else " " for ch in plain).split())


def typo(word: str, rng: random.Random) -> str:
    """One slip: two letters swapped, one dropped, doubled, or a neighbouring key hit instead."""
    if len(word) < 4:
        return word
    at = rng.randrange(1, len(word) - 1)
    slip = rng.randrange(4)
    if slip == 0:
        return word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    if slip == 1:
        return word[:at] + word[at + 1 :]
    if slip == 2:
        return word[:at] + word[at] + word[at:]
    near = _NEIGHBOURS.get(word[at].lower())
    return word[:at] + (rng.choice(near) if near else word[at]) + word[at + 1 :]


def with_typos(text: str, rng: random.Random, count: int) -> str:
    """``text`` with ``count`` slips, each in a different word long enough to have one."""
    words = text.split()
    long_enough = [n for n, word in enumerate(words) if len(word) >= 4 and word.isalpha()]
    for n in rng.sample(long_enough, min(count, len(long_enough))):
        words[n] = typo(words[n], rng)
    return " ".join(words)
