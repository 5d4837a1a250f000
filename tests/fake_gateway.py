"""A loopback Discord gateway (websocket) that speaks just enough of the protocol for one session.

HELLO (op 10) on connect; IDENTIFY (op 2) is answered with READY, then each scripted dispatch in
order; heartbeats (op 1) get HEARTBEAT_ACK (op 11). Frames are plain JSON text: discord.py asks for
``compress=zlib-stream`` but decompresses only binary frames, so text frames are read as they are.
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
HEARTBEAT_INTERVAL_MS = 41_250


class FakeGateway:
    def __init__(
        self,
        *,
        application_id: int,
        guild_ids: Sequence[int],
        after_ready: Sequence[tuple[str, Json]] = (),
        session_id: str = "loopback-session",
    ) -> None:
        self.application_id = application_id
        self.guild_ids = list(guild_ids)
        self.after_ready = list(after_ready)
        self.session_id = session_id
        self.identify: Json | None = None
        self.query: dict[str, str] = {}
        self.heartbeats = 0
        self.close_code: int | None = None
        self.closed = asyncio.Event()
        self._sequence = 0
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

    async def _send(self, ws: web.WebSocketResponse, op: int, data: Any, event: str | None = None) -> None:
        frame: Json = {"op": op, "d": data, "s": None, "t": event}
        if op == DISPATCH:
            self._sequence += 1
            frame["s"] = self._sequence
        await ws.send_str(json.dumps(frame))

    def _ready(self) -> Json:
        return {
            "v": 10,
            "user": bot_user(self.application_id),
            "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in self.guild_ids],
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
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            if frame["op"] == HEARTBEAT:
                self.heartbeats += 1
                await self._send(ws, HEARTBEAT_ACK, None)
            elif frame["op"] == IDENTIFY:
                self.identify = frame
                await self._send(ws, DISPATCH, self._ready(), "READY")
                for event, data in self.after_ready:
                    await self._send(ws, DISPATCH, data, event)
        self.close_code = ws.close_code
        self.closed.set()
        return ws
