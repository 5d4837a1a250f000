"""Command metadata in every language parlbot speaks: discord.py's ``Translator``, read from the
``locales/commands-LOCALE.po`` catalogues (``bot.messages.catalogue.command_catalogue``).

Discord shows each member the names, descriptions and choices of their own locale (``fr`` for French)
and sends the English names back in interactions, so only what ``tree.sync`` publishes changes.
"""

from __future__ import annotations

from typing import Final

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.messages.catalogue import DEFAULT_LOCALE, command_catalogue, spoken

# Each place a string sits in the tree, as the kind its catalogue entry names in ``msgctxt``.
KINDS: Final = {
    Where.command_name: "name",
    Where.group_name: "name",
    Where.parameter_name: "name",
    Where.command_description: "description",
    Where.group_description: "description",
    Where.parameter_description: "description",
    Where.choice_name: "choice",
}


class CatalogueTranslator(app_commands.Translator):
    """Looks each English string up in the catalogue of the locale asked for (None: Discord shows the
    English)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language, kind = spoken(locale.value), KINDS.get(context.location)
        if language is None or language == DEFAULT_LOCALE or kind is None:
            return None
        return command_catalogue(language).get((kind, string.message))
