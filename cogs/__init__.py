"""Thin Discord adapters, one cog per area. ``EXTENSIONS`` is what the bot loads, in order."""

EXTENSIONS: tuple[str, ...] = (
    "cogs.incidents",
    "cogs.quotes",
    "cogs.rulings",
    "cogs.people",
    "cogs.search",
    "cogs.help",
)
