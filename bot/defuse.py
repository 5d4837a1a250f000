"""Text as a member's Discord will show it: ``defuse`` is the last step of every string parlbot renders.

Stored and typed text may hold mention syntax (``@everyone``, ``<@&456>``, ``<#1>``) and characters
that cannot be seen: controls, and the bidirectional controls (U+202E and kin) that reorder what a
member reads. Replies allow no mentions, so nothing pings; ``defuse`` also makes every mention read
literally (a zero-width space after its ``<`` or ``@``) and takes the unseen characters out. It is
applied where replies are built (``bot.answers.render``: ``Reply`` content, ``Button`` labels,
``EmbedBuilder``), on the error path (``bot.client.tree``) and on autocomplete choices, select options
and quiz buttons (``cogs``), never to stored data.

The mentions the bot writes itself (who made a change, the moderator role, a channel) come from
``user_mention``, ``role_mention`` and ``channel_mention``: they carry this process's own marker,
drawn at random when it starts, so ``defuse`` keeps them (they show a name, and still ping nobody)
and no stored text can pass for one.
"""

from __future__ import annotations

import re
import secrets
from typing import Final

from bot.limits import CONTENT, ELLIPSIS, clip

BREAK: Final = "\u200b"  # a zero-width space: "@\u200beveryone" reads "@everyone" and mentions no one
BIDI_CONTROLS: Final = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# Three code points of the Supplementary Private Use Area-A, fresh in each process.
_OWN: Final = "".join(chr(0xF0000 + secrets.randbelow(0xFFFE)) for _ in range(3))
_BRACKETED = r"<(?:@[!&]?|#)\d+>"
# Controls (C0, DEL, C1), bidi controls, and the marker's characters unless the whole marker stands
# before a mention: what is left of a marker after that (or after a cut) is dropped with the rest.
_UNSEEN = re.compile(rf"(?P<own>{_OWN}(?={_BRACKETED}))|[\x00-\x1f\x7f-\x9f{BIDI_CONTROLS}{_OWN}]")
_MENTION = re.compile(rf"(?P<own>{_OWN})?(?P<mention>{_BRACKETED}|@(?i:everyone|here))")


def user_mention(user_id: int) -> str:
    """A member named by the bot itself: shown as their name (and pinging no one)."""
    return f"{_OWN}<@{user_id}>"


def role_mention(role_id: int) -> str:
    return f"{_OWN}<@&{role_id}>"


def channel_mention(channel_id: int) -> str:
    return f"{_OWN}<#{channel_id}>"


def defuse(text: str, *, lines: bool = True) -> str:
    """``text`` with every mention broken but the bot's own, and no control or bidi control character.

    Newlines stay when ``lines`` (content, descriptions, field values); any other control that is
    whitespace (a tab, ``\\r``, a newline in a one-line text) becomes a space, so words stay apart.
    Idempotent; what it removes comes out before mentions are broken, so removing cannot make one.
    """

    def unseen(found: re.Match[str]) -> str:
        char = found[0]
        if found["own"] or (char == "\n" and lines):
            return char
        return " " if char.isspace() else ""

    def broken(found: re.Match[str]) -> str:
        mention = found["mention"]
        return mention if found["own"] else f"{mention[0]}{BREAK}{mention[1:]}"

    return _MENTION.sub(broken, _UNSEEN.sub(unseen, text))


def one_line(text: str, limit: int) -> str:
    """``text`` defused on one line and clipped to ``limit``: a title, a button's label, a choice's name.
    Never empty (Discord refuses an empty one): text with nothing left to show reads as an ellipsis."""
    return clip(defuse(text, lines=False).strip(), limit) or ELLIPSIS


def message_text(text: str) -> str:
    """A message's content as shown: defused, its lines kept, clipped to Discord's limit."""
    return clip(defuse(text), CONTENT)
