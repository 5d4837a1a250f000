"""How ``parlbot ask`` and ``parlbot console`` show what the bot sent: readable text or JSON lines.

Readable text renders each message body (content, embeds, then one line of ``[buttons]`` per
component row, a select's options as buttons of their own) and each modal the bot opened (its title
and text inputs, so a person knows what to ``submit``). ``pressables`` lists exactly the bracketed
items of a message, in the order they are printed, so ``press N`` counts what the person sees.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from bot.loopback.rest import RecordedRequest
from bot.loopback.session import is_ephemeral, message_bodies, modal_fields, modals


@dataclass(frozen=True, slots=True)
class Pressable:
    """One thing a person can click in a message: a button, or one option of a string select."""

    row: int
    label: str
    custom_id: str | None  # ``None`` for a link button
    value: str | None = None  # the option's value, for a select option
    url: str | None = None  # for a link button
    disabled: bool = False

    def __str__(self) -> str:
        return f"[{self.label}]" + (f"({self.url})" if self.url else "")


def pressables(body: Mapping[str, Any]) -> list[Pressable]:
    """The buttons and select options of a message body (or stored message), in printed order."""
    items: list[Pressable] = []
    for row, layout in enumerate(body.get("components") or []):
        for component in layout.get("components") or []:
            custom_id = component.get("custom_id")
            disabled = bool(component.get("disabled"))
            if component.get("type") == 3:
                items += [
                    Pressable(row, str(option["label"]), custom_id, str(option["value"]), disabled=disabled)
                    for option in component.get("options") or []
                ]
            else:
                label = str(component.get("label") or component.get("placeholder") or custom_id)
                items.append(Pressable(row, label, custom_id, url=component.get("url"), disabled=disabled))
    return items


def render_message(body: Mapping[str, Any]) -> str:
    """A message body as readable text: content, embeds, buttons; ephemeral replies marked."""
    lines: list[str] = []
    if is_ephemeral(body):
        lines.append("(only you can see this)")
    if body.get("content"):
        lines.append(str(body["content"]))
    for embed in body.get("embeds") or []:
        if lines:
            lines.append("")
        lines += _embed_lines(embed)
    for _, row in itertools.groupby(pressables(body), key=lambda item: item.row):
        lines.append(" ".join(str(item) for item in row))
    return "\n".join(lines)


def _embed_lines(embed: Mapping[str, Any]) -> list[str]:
    """An embed as lines: author, ``## title <url>``, description, fields, pictures, ``-- footer``."""
    lines: list[str] = []
    author = (embed.get("author") or {}).get("name")
    if author:
        lines.append(str(author))
    title = embed.get("title")
    if title:
        lines.append(f"## {title}" + (f" <{embed['url']}>" if embed.get("url") else ""))
    if embed.get("description"):
        lines.append(str(embed["description"]))
    for item in embed.get("fields") or []:
        lines.append(f"{item.get('name')}: {item.get('value')}")
    for picture in ("image", "thumbnail"):
        url = (embed.get(picture) or {}).get("url")
        if url:
            lines.append(f"{picture}: {url}")
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        lines.append(f"-- {footer}")
    return lines


def render_modal(modal: Mapping[str, Any]) -> str:
    """A modal (type 9 data) as readable text: its title, then each text input and its rules."""
    fields = modal_fields(modal)
    example = " ".join(f'{field.custom_id}:"..."' for field in fields)
    lines = [f"(a form opens; in parlbot console: submit {example})", f"## {modal.get('title')}"]
    for field in fields:
        facts = [
            f"custom_id {field.custom_id}",
            "paragraph" if field.paragraph else "short",
            "required" if field.required else "optional",
        ]
        if field.min_length:
            facts.append(f"min_length {field.min_length}")
        if field.max_length is not None:
            facts.append(f"max_length {field.max_length}")
        if field.value:
            facts.append(f"prefilled {field.value!r}")
        lines.append(f"- {field.label}: {', '.join(facts)}")
    return "\n".join(lines)


def readable(requests: Sequence[RecordedRequest]) -> str:
    """Everything the bot showed in answer, as text: its messages, then the modal it opened, if any."""
    parts = [render_message(body) for body in message_bodies(requests)]
    parts += [render_modal(modal) for modal in modals(requests)]
    return "\n\n".join(parts)


def print_answer(
    requests: Sequence[RecordedRequest], out: TextIO, *, json_lines: bool, end: str = "\n"
) -> None:
    """Readable text then ``end``; with ``json_lines``, each request as a ``{"route", "body"}`` line."""
    if not json_lines:
        text = readable(requests)
        if text:
            print(text, file=out, end=end)
        return
    for request in requests:
        line: dict[str, Any] = {"route": request.route, "body": request.body}
        if request.status >= 300:
            line["status"] = request.status
        print(json.dumps(line, ensure_ascii=False), file=out)


def report_rejections(requests: Sequence[RecordedRequest], err: TextIO) -> bool:
    """Say on ``err`` which requests Discord would reject; whether there were any."""
    rejected = [request for request in requests if request.status >= 300]
    for request in rejected:
        print(
            f"parlbot: Discord would reject the bot's {request.route} ({request.status}): "
            f"{json.dumps(request.body, ensure_ascii=False)}",
            file=err,
        )
    return bool(rejected)


def check_answer(requests: Sequence[RecordedRequest], err: TextIO) -> bool:
    """Whether the bot answered and Discord would accept all it sent; what went wrong goes to ``err``."""
    rejected = report_rejections(requests, err)
    answered = any(r.route in ("callback", "followup") and r.status < 300 for r in requests)
    if not answered:
        print("parlbot: the bot did not answer.", file=err)
    return answered and not rejected
