"""``parlbot run``'s connection: reaching Discord (or saying clearly why not), serving, stopping gracefully.

``serve(bot, token, stop)`` logs in over REST, makes sure the gateway answers, then reads the gateway
until the connection ends or ``stop`` is set (the command line sets it on SIGTERM and SIGINT). A stop:

1. stops reading the gateway and closes it, so no new interaction is taken;
2. waits, up to ``grace`` seconds, for the interactions being handled (``ParlBot.in_flight``): they
   answer over REST, which stays open until they are done;
3. cancels those still running after the grace, and closes the bot (its REST session included).

discord.py retries a lost gateway by itself, but not a first connection that fails (it logs a traceback
and dies on an attribute of the connection it never had): the gateway is tried once, plainly, first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import aiohttp
import discord

from bot.client.bot import ParlBot

log = logging.getLogger(__name__)

GATEWAY_TIMEOUT = 30.0  # seconds the gateway has to accept a connection at start


class Unreachable(Exception):
    """Discord's REST API or its gateway could not be reached (worth trying again later)."""

    def __init__(self, what: str, url: str, error: BaseException) -> None:
        reason = str(error) or type(error).__name__
        super().__init__(f"cannot reach Discord's {what} at {url}: {reason}")


async def serve(bot: ParlBot, token: str, stop: asyncio.Event, *, grace: float) -> None:
    """Connect ``bot`` and serve until its connection ends or ``stop`` is set (then stop gracefully).

    Raises ``Unreachable`` when Discord does not answer at start; discord.py's own errors (a refused
    token, a gateway that closes with an error code) pass through.
    """
    async with bot:
        reading = asyncio.create_task(_connect(bot, token), name="parlbot-gateway")
        told = asyncio.create_task(stop.wait(), name="parlbot-stop")
        try:
            await asyncio.wait({reading, told}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            told.cancel()
        if reading.done():
            await reading  # its error, if it ended with one
            return
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reading
        await _close_gateway(bot)
        await _finish(bot.in_flight, grace)


async def _connect(bot: ParlBot, token: str) -> None:
    try:
        await bot.login(token)
    except (OSError, aiohttp.ClientError) as error:
        raise Unreachable("API", discord.http.Route.BASE, error) from None
    await _reach_gateway(bot)
    await bot.connect()


async def _reach_gateway(bot: ParlBot) -> None:
    """Open and close one connection to the gateway discord.py will use, or raise ``Unreachable``."""
    url = str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    try:
        async with asyncio.timeout(GATEWAY_TIMEOUT):
            socket = await bot.http.ws_connect(url)
    except (OSError, aiohttp.ClientError) as error:  # TimeoutError is an OSError
        raise Unreachable("gateway", url, error) from None
    await socket.close()


async def _close_gateway(bot: ParlBot) -> None:
    """Close the gateway connections, which nothing reads any more; REST stays open."""
    if isinstance(bot, discord.AutoShardedClient):
        for shard in bot.shards.values():
            await shard.disconnect()
    elif bot.ws is not None:
        await bot.ws.close(code=1000)


async def _finish(in_flight: set[asyncio.Task[Any]], grace: float) -> None:
    """Let the interactions in flight end within ``grace`` seconds; cancel the others."""
    running = set(in_flight)
    if not running:
        return
    log.info("Stopping: waiting up to %g s for %d interaction(s) in flight", grace, len(running))
    done, late = await asyncio.wait(running, timeout=grace)
    log.info("%d interaction(s) in flight finished", len(done))
    if late:
        log.warning("%d interaction(s) still running after %g s were cut short", len(late), grace)
        for task in late:
            task.cancel()
        await asyncio.wait(late)
