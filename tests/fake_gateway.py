"""A loopback Discord gateway (websocket) that speaks just enough of the protocol for a bot's sessions.

HELLO (op 10) on connect; IDENTIFY (op 2) is answered with READY, then each scripted dispatch in
order; heartbeats (op 1) get HEARTBEAT_ACK (op 11). Frames are plain JSON text: discord.py asks for
``compress=zlib-stream`` but decompresses only binary frames, so text frames are read as they are.

Several connections are served at once, one per shard: each IDENTIFY is recorded (``identifies``,
``shards``), READY lists the guilds of that shard (``(guild_id >> 22) % shard_count``), and
``dispatch`` sends an event over a shard's connection whenever the test likes. ``closed`` is set when
the last identified connection closes (one that never identifies, such as the check ``parlbot run``
makes that the gateway answers, is no session). Given a ``token``, an IDENTIFY with another is closed
with 4004 (Authentication failed), as Discord does.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Sequence
from typing import Any, Self

from aiohttp import WSMsgType, web

from bot.loopback.payloads import bot_user

Json = dict[str, Any]

DISPATCH, HEARTBEAT, IDENTIFY, HELLO, HEARTBEAT_ACK = 0, 1, 2, 10, 11
AUTHENTICATION_FAILED = 4004
HEARTBEAT_INTERVAL_MS = 41_250


class FakeGateway:
    def __init__(
        self,
        *,
        application_id: int,
        guild_ids: Sequence[int],
        after_ready: Sequence[tuple[str, Json]] = (),
        session_id: str = "loopback-session",
        token: str | None = None,
    ) -> None:
        self.application_id = application_id
        self.guild_ids = list(guild_ids)
        self.after_ready = list(after_ready)
        self.session_id = session_id
        self.token = token
        self.identify: Json | None = None  # the latest IDENTIFY
        self.identifies: list[Json] = []  # every IDENTIFY, in order
        self.query: dict[str, str] = {}
        self.heartbeats = 0
        self.close_code: int | None = None  # the latest identified connection's
        self.closed = asyncio.Event()  # set when the last identified connection closes
        self._identified = asyncio.Condition()
        self._sockets: dict[int, web.WebSocketResponse] = {}  # by shard id (0 unsharded), once identified
        self._sequences: dict[int, int] = {}
        self._open = 0  # identified connections still open
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    @property
    def url(self) -> str:
        if self._port is None:
            raise RuntimeError("FakeGateway is not started")
        return f"ws://127.0.0.1:{self._port}/"

    async def __aenter__(self) -> Self:
        app = web.Application()
        app.router.add_get("/", self._session)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def shards(self) -> list[list[int]]:
        """The ``[shard_id, shard_count]`` each IDENTIFY asked for, sorted (``[]`` for an unsharded one)."""
        return sorted(frame["d"].get("shard", []) for frame in self.identifies)

    async def wait_identified(self, count: int = 1) -> None:
        """Wait until ``count`` connections have identified."""
        async with self._identified:
            await self._identified.wait_for(lambda: len(self.identifies) >= count)

    async def dispatch(self, event: str, data: Json, *, shard: int = 0) -> None:
        """Send a dispatch (``INTERACTION_CREATE``, ...) over the connection identified as ``shard``."""
        await self._send(self._sockets[shard], DISPATCH, data, event, shard=shard)

    async def _send(
        self, ws: web.WebSocketResponse, op: int, data: Any, event: str | None = None, *, shard: int = 0
    ) -> None:
        frame: Json = {"op": op, "d": data, "s": None, "t": event}
        if op == DISPATCH:
            self._sequences[shard] = frame["s"] = self._sequences.get(shard, 0) + 1
        await ws.send_str(json.dumps(frame))

    def _ready(self, shard: list[int]) -> Json:
        shard_id, count = shard or (0, 1)
        guilds = [guild_id for guild_id in self.guild_ids if (guild_id >> 22) % count == shard_id]
        return {
            "v": 10,
            "user": bot_user(self.application_id),
            "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in guilds],
            **({"shard": shard} if shard else {}),
            "session_id": self.session_id,
            "resume_gateway_url": self.url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }

    async def _session(self, request: web.Request) -> web.WebSocketResponse:
        self.query = dict(request.query)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await self._send(ws, HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        identified = False
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            if frame["op"] == HEARTBEAT:
                self.heartbeats += 1
                await self._send(ws, HEARTBEAT_ACK, None)
            elif frame["op"] == IDENTIFY and self.token not in (None, frame["d"]["token"]):
                await ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            elif frame["op"] == IDENTIFY:
                if not identified:
                    self._open += 1
                identified = True
                await self._identify(ws, frame)
        if identified:
            self.close_code = ws.close_code
            self._open -= 1
            if not self._open:
                self.closed.set()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, frame: Json) -> None:
        shard: list[int] = frame["d"].get("shard", [])
        shard_id = shard[0] if shard else 0
        self._sockets[shard_id] = ws
        await self._send(ws, DISPATCH, self._ready(shard), "READY", shard=shard_id)
        for event, data in self.after_ready:
            await self._send(ws, DISPATCH, data, event, shard=shard_id)
        async with self._identified:
            self.identify = frame
            self.identifies.append(frame)
            self._identified.notify_all()
