"""One full gateway round trip: ParlBot started the way ``parlbot run`` starts it, against loopbacks.

The REST API is a FakeDiscord and the gateway a FakeGateway; the bot logs in over REST, connects
and IDENTIFYs over the websocket, receives READY, GUILD_CREATE and an INTERACTION_CREATE, and
answers that interaction through the REST callback.
"""

from __future__ import annotations

import asyncio
import dataclasses

import discord
import pytest

from bot.cli import build_bot
from bot.client.bot import point_at_endpoints
from bot.client.lifecycle import serve
from bot.library import Library
from bot.loopback import payloads
from bot.loopback.payloads import Invoker
from bot.loopback.rest import FakeDiscord
from bot.settings import Settings
from tests.discord_harness import first_message
from tests.fake_gateway import FakeGateway

# A guard against a hang, not a synchronisation: every wait below is for an event that happens.
GUARD_SECONDS = 30


async def test_parlbot_run_answers_an_interaction_that_arrives_over_the_gateway(
    parlbot_settings: Settings, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    invoker = Invoker()
    assert invoker.guild_id is not None
    interaction_id, token = 1246000000000009999, payloads.new_token()
    interaction = payloads.application_command(
        "incident",
        [{"name": "query", "type": 3, "value": "singh-2020"}],
        invoker,
        command_id=1246000000000008888,
        interaction_id=interaction_id,
        token=token,
    )

    async with (
        FakeDiscord() as rest,
        FakeGateway(
            application_id=rest.application_id,
            guild_ids=[invoker.guild_id],
            after_ready=[
                ("GUILD_CREATE", payloads.guild_create(invoker)),
                ("INTERACTION_CREATE", interaction),
            ],
        ) as gateway,
    ):
        settings = dataclasses.replace(
            parlbot_settings, discord_token="a-token", api_base=rest.api_base, gateway_url=gateway.url
        )
        point_at_endpoints(settings)
        bot = build_bot(settings, library)
        running = asyncio.create_task(serve(bot, "a-token", asyncio.Event(), grace=GUARD_SECONDS))

        callback = await asyncio.wait_for(rest.wait_for("callback", token=token), GUARD_SECONDS)
        if isinstance(callback.body, dict) and callback.body.get("type") == 5:  # deferred: a busy machine
            await asyncio.wait_for(rest.wait_for("followup", token=token), GUARD_SECONDS)
        await bot.close()
        await asyncio.wait_for(running, GUARD_SECONDS)
        await asyncio.wait_for(gateway.closed.wait(), GUARD_SECONDS)

    assert gateway.identify is not None
    assert gateway.identify["d"]["token"] == "a-token"
    assert gateway.identify["d"]["intents"] == discord.Intents(guilds=True).value
    assert gateway.query["compress"] == "zlib-stream"
    assert gateway.heartbeats >= 1
    assert callback.status == 200
    assert callback.path == f"/interactions/{interaction_id}/{token}/callback"
    answer = first_message(rest.requests_for(token))
    assert answer["embeds"][0]["title"].startswith("NDP Leader Jagmeet Singh ordered out")
    # The client closed the socket (discord.py's close races its own reader, which closes with 4000)
    # and `serve` returned normally instead of raising or reconnecting.
    assert gateway.close_code in (1000, 4000)
    assert running.exception() is None
    assert bot.is_closed()


async def test_parlbot_run_with_shard_settings_identifies_as_each_of_its_shards(
    parlbot_settings: Settings, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    async with (
        FakeDiscord() as rest,
        FakeGateway(application_id=rest.application_id, guild_ids=[]) as gateway,
    ):
        settings = dataclasses.replace(
            parlbot_settings,
            discord_token="a-token",
            api_base=rest.api_base,
            gateway_url=gateway.url,
            shard_count=4,
            shard_ids=(0, 2),
        )
        point_at_endpoints(settings)
        bot = build_bot(settings, library)
        running = asyncio.create_task(serve(bot, "a-token", asyncio.Event(), grace=GUARD_SECONDS))
        # discord.py waits 5 s between two IDENTIFYs, as Discord's rate limit asks.
        await asyncio.wait_for(gateway.wait_identified(2), GUARD_SECONDS)
        await bot.close()
        await asyncio.wait_for(running, GUARD_SECONDS)
        await asyncio.wait_for(gateway.closed.wait(), GUARD_SECONDS)

    assert isinstance(bot, discord.AutoShardedClient)
    assert gateway.shards == [[0, 4], [2, 4]]
    assert {frame["d"]["token"] for frame in gateway.identifies} == {"a-token"}
    assert running.exception() is None
