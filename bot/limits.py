"""Every Discord limit parlbot keeps to (messages, components, modals, commands), ``clip``, and
``embed_characters`` (what counts towards a message's embed total)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

CONTENT: Final = 2000
EMBEDS: Final = 10
EMBED_TITLE: Final = 256
EMBED_DESCRIPTION: Final = 4096
EMBED_FIELDS: Final = 25
FIELD_NAME: Final = 256
FIELD_VALUE: Final = 1024
FOOTER: Final = 2048
AUTHOR_NAME: Final = 256
EMBED_TOTAL: Final = 6000
CHOICES: Final = 25
CHOICE_NAME: Final = 100
CHOICE_VALUE: Final = 100
ACTION_ROWS: Final = 5
BUTTONS_PER_ROW: Final = 5
BUTTON_LABEL: Final = 80
CUSTOM_ID: Final = 100
SELECT_OPTIONS: Final = 25
SELECT_OPTION_LABEL: Final = 100
MODAL_TITLE: Final = 45
MODAL_LABEL: Final = 45  # a modal field's label
MODAL_FIELDS: Final = 5  # components of a modal
COMMAND_NAME: Final = 32
COMMAND_DESCRIPTION: Final = 100
COMMAND_OPTIONS: Final = 25
COMMAND_TOTAL_CHARACTERS: Final = 4000  # names, descriptions, options and choices of one command
GLOBAL_CHAT_INPUT_COMMANDS: Final = 100
CONTEXT_MENU_COMMANDS: Final = 5

ELLIPSIS: Final = "…"


def clip(text: str, limit: int) -> str:
    """``text`` shortened to at most ``limit`` characters, ending with an ellipsis when cut.

    Cuts at a word boundary when one is near, so a clipped quote does not end mid-word.
    """
    if len(text) <= limit:
        return text
    head = text[: limit - len(ELLIPSIS)]
    space = head.rfind(" ")
    if not text[len(head)].isspace() and space >= limit * 0.6:
        head = head[:space]
    return head.rstrip(" ,;:—-") + ELLIPSIS


def embed_characters(embed: Mapping[str, Any]) -> int:
    """Characters Discord counts towards the 6000-per-message embed total."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    for item in embed.get("fields") or []:
        total += len(item.get("name") or "") + len(item.get("value") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    return total
