"""Command metadata in French: every name, description and choice the tree publishes has its French
localization from ``locales/commands-fr.po``, within Discord's rules, and the loopback Discord refuses a
sync whose localizations break them."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContext
from discord.app_commands import TranslationContextLocation as Where

from bot.cli import command_payload
from bot.client.translator import CatalogueTranslator
from bot.loopback.rest import validate_commands
from bot.messages.catalogue import catalogue, command_catalogue, command_words, speaking
from bot.settings import Settings

FRENCH = discord.Locale.french.value
NAME = re.compile(r"^[-_\w]{1,32}$")
# A command named in a French text: "/recherche", "`/annuler`" (not "{page}/{pages}" nor "http://").
NAMED_COMMAND = re.compile(r"(?<![\w}:/])/(\w[\w-]*)")

Json = dict[str, Any]


@pytest.fixture(scope="module")
def payload() -> list[Json]:
    """What ``parlbot sync`` sends, localizations included (built once for the module)."""
    return asyncio.run(command_payload(Settings(database_url="sqlite://")))


def walk(items: list[Json], path: str = "") -> Iterator[tuple[str, Json]]:
    """Every command, group and option of the payload, with where it is ("/add quote text")."""
    for item in items:
        at = f"{path} {item['name']}".strip()
        yield at, item
        yield from walk(item.get("options") or [], at)


def test_every_name_and_description_has_its_french(payload: list[Json]) -> None:
    missing = [
        f"{at}: {key}"
        for at, item in walk(payload)
        for key in ("name_localizations", "description_localizations")
        if FRENCH not in (item.get(key) or {})
    ]
    assert missing == [], "add these to bot/messages/locales/commands-fr.po"


def test_every_choice_has_its_french(payload: list[Json]) -> None:
    missing = [
        f"{at}: {choice['name']}"
        for at, item in walk(payload)
        for choice in item.get("choices") or []
        if FRENCH not in (choice.get("name_localizations") or {})
    ]
    assert missing == [], "add these to bot/messages/locales/commands-fr.po"


def test_french_names_follow_discords_rules_for_names(payload: list[Json]) -> None:
    for at, item in walk(payload):
        name = item["name_localizations"][FRENCH]
        assert NAME.fullmatch(name), f"{at}: {name!r}"
        assert name == name.lower(), f"{at}: {name!r}"


def test_the_loopback_accepts_the_localized_tree(payload: list[Json]) -> None:
    assert validate_commands(payload, guild=False) == []


def test_french_texts_name_commands_by_their_french_names(payload: list[Json]) -> None:
    """French replies name a command as a French member types it: where the English text says
    `/search`, the French says `/recherche`."""
    french_of = {command["name"]: command["name_localizations"][FRENCH] for command in payload}
    english, french = catalogue("en"), catalogue("fr")
    wrong = [
        f"{key}: /{name} should read /{french_of[name]}"
        for key, text in english.items()
        for name in NAMED_COMMAND.findall(text)
        if name in french_of and french_of[name] not in NAMED_COMMAND.findall(french[key])
    ]
    assert wrong == []


async def test_the_translator_answers_french_only() -> None:
    translator = CatalogueTranslator()
    context = TranslationContext(Where.command_name, None)
    search = app_commands.locale_str("search")
    assert await translator.translate(search, discord.Locale.french, context) == "recherche"  # type: ignore[arg-type]
    for locale in (discord.Locale.american_english, discord.Locale.british_english, discord.Locale.german):
        assert await translator.translate(search, locale, context) is None  # type: ignore[arg-type]


def test_command_words_name_a_command_in_the_language_spoken() -> None:
    with speaking("fr"):
        assert command_words("name", "undo") == "annuler"
        assert command_words("name", "no-such-command") == "no-such-command"
    assert command_words("name", "undo") == "undo"


def command(**changes: Any) -> list[Json]:
    one: Json = {"type": 1, "name": "incident", "description": "Look up an incident", **changes}
    return [one]


@pytest.mark.parametrize(
    "name", ["Incident", "qui s'est opposé", "x" * 33, ""], ids=["capital", "space", "too-long", "empty"]
)
def test_the_loopback_refuses_a_localized_name_discord_refuses(name: str) -> None:
    problems = validate_commands(command(name_localizations={FRENCH: name}), guild=False)
    assert [(p.path, p.code) for p in problems] == [
        ((0, "name_localizations", FRENCH), "APPLICATION_COMMAND_INVALID_NAME")
    ]


def test_the_loopback_refuses_a_localized_description_over_100_characters() -> None:
    problems = validate_commands(command(description_localizations={FRENCH: "x" * 101}), guild=False)
    assert [(p.path, p.code) for p in problems] == [
        ((0, "description_localizations", FRENCH), "BASE_TYPE_MAX_LENGTH")
    ]


def test_the_loopback_refuses_a_locale_discord_does_not_know() -> None:
    problems = validate_commands(command(name_localizations={"fr-CA": "incident"}), guild=False)
    assert [(p.path, p.code) for p in problems] == [((0, "name_localizations", "fr-CA"), "ENUM_TYPE_COERCE")]


def test_the_loopback_refuses_two_options_with_one_french_name() -> None:
    options = [
        {"type": 3, "name": name, "description": "d", "name_localizations": {FRENCH: "texte"}}
        for name in ("text", "words")
    ]
    problems = validate_commands(command(options=options), guild=False)
    assert [(p.path, p.code) for p in problems] == [
        ((0, "options", 1, "name_localizations", FRENCH), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS")
    ]


def test_the_loopback_refuses_a_localized_choice_over_100_characters() -> None:
    choice = {"name": "named", "value": "named", "name_localizations": {FRENCH: "x" * 101}}
    options = [{"type": 3, "name": "outcome", "description": "d", "choices": [choice]}]
    problems = validate_commands(command(options=options), guild=False)
    assert [(p.path, p.code) for p in problems] == [
        ((0, "options", 0, "choices", 0, "name_localizations", FRENCH), "BASE_TYPE_MAX_LENGTH")
    ]


def test_every_french_entry_is_a_string_of_the_tree(payload: list[Json]) -> None:
    """An entry no command uses any more (a renamed option, a reworded description) is removed."""
    used = {
        (kind, text)
        for _, item in walk(payload)
        for kind, text in (("name", item["name"]), ("description", item["description"]))
    } | {("choice", choice["name"]) for _, item in walk(payload) for choice in item.get("choices") or []}
    assert sorted(set(command_catalogue("fr")) - used) == []
