"""Thin Discord adapters, one cog per area. ``EXTENSIONS`` is what the bot loads, in order."""

EXTENSIONS: tuple[str, ...] = (
    "cogs.common",
    "cogs.lookup",
    "cogs.search",
    "cogs.curation",
    "cogs.review",
    "cogs.transfer",
    "cogs.help",
)
