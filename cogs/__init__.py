"""Thin Discord adapters, one cog per area (``bot.client.bot.EXTENSIONS`` lists what the bot loads)."""
