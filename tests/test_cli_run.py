"""``parlbot run`` as a real process when Discord cannot be reached or refuses the bot: one clear line.

Each test starts the command line as an operator does, against a closed port or a loopback Discord
(``FakeDiscord``, ``FakeGateway``) serving from a thread, with ``RUN_RETRY_DELAYS`` shortened. What
the operator reads on standard error is a line per attempt naming what was tried, then the reason it
gave up (exit 1), and never a traceback.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from bot.loopback.rest import FakeDiscord
from tests.cli_harness import served_in_a_thread
from tests.fake_gateway import FakeGateway

REPOSITORY = Path(__file__).resolve().parents[1]
RUN = "import bot.cli as c; c.RUN_RETRY_DELAYS = (0.01, 0.02); raise SystemExit(c.main(['run']))"


def closed_port() -> int:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        port: int = listener.getsockname()[1]
    return port


def parlbot_run(workdir: Path, **settings: str) -> tuple[int, list[str], str]:
    """Run ``parlbot run`` with these settings: its exit code, its ``parlbot:`` lines, all of stderr."""
    result = subprocess.run(
        [sys.executable, "-c", RUN],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY), "DISCORD_TOKEN": "a-token", **settings},
        cwd=workdir,
        timeout=120,
        check=False,
    )
    lines = [line for line in result.stderr.splitlines() if line.startswith("parlbot:")]
    assert "Traceback" not in result.stderr, result.stderr
    return result.returncode, lines, result.stderr


def test_an_unreachable_api_is_retried_then_named_in_one_line_and_exit_1(workdir: Path) -> None:
    api = f"http://127.0.0.1:{closed_port()}/api/v10"

    code, lines, stderr = parlbot_run(workdir, DISCORD_API_BASE=api)

    assert code == 1
    assert [line.split(";")[-1].strip() for line in lines] == [
        "attempt 1 of 3, retrying in 0.01 s.",
        "attempt 2 of 3, retrying in 0.02 s.",
        "gave up after 3 attempts.",
    ]
    assert lines[-1].startswith(f"parlbot: error: cannot reach Discord's API at {api}: ")
    assert "voice will NOT be supported" not in stderr


def test_an_unreachable_gateway_is_retried_then_named_in_one_line_and_exit_1(workdir: Path) -> None:
    gateway = f"ws://127.0.0.1:{closed_port()}/"
    with served_in_a_thread(FakeDiscord()) as rest:
        code, lines, _ = parlbot_run(workdir, DISCORD_API_BASE=rest.api_base, DISCORD_GATEWAY_URL=gateway)

    assert code == 1
    assert len(lines) == 3
    assert lines[-1].startswith(f"parlbot: error: cannot reach Discord's gateway at {gateway}: ")
    assert lines[-1].endswith("gave up after 3 attempts.")


def test_a_token_discord_refuses_is_one_line_and_exit_1_without_retrying(workdir: Path) -> None:
    with served_in_a_thread(FakeDiscord(token="the-right-token")) as rest:
        code, lines, _ = parlbot_run(workdir, DISCORD_API_BASE=rest.api_base, DISCORD_TOKEN="a-wrong-token")

    assert code == 1
    assert lines == [
        "parlbot: error: Discord refused DISCORD_TOKEN (401 Unauthorized); "
        "copy it again from the developer portal."
    ]
    assert [(request.route, request.status) for request in rest.requests] == [("login", 401)]


def test_a_gateway_that_closes_with_an_error_code_is_one_line_and_exit_1(workdir: Path) -> None:
    with (
        served_in_a_thread(FakeDiscord()) as rest,
        served_in_a_thread(
            FakeGateway(application_id=rest.application_id, guild_ids=[], token="the-right-token")
        ) as gateway,
    ):
        code, lines, _ = parlbot_run(workdir, DISCORD_API_BASE=rest.api_base, DISCORD_GATEWAY_URL=gateway.url)

    assert code == 1
    assert lines == [
        "parlbot: error: Discord's gateway closed the connection with code 4004: "
        "authentication failed, check DISCORD_TOKEN."
    ]
