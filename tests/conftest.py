"""Database fixtures shared by the whole suite.

``database_url`` runs a test once per backend: always SQLite (a file in ``tmp_path``), and PostgreSQL
too when ``TEST_DATABASE_URL`` is set (``.ci/run`` sets it). Each PostgreSQL test gets a fresh,
uniquely named schema, selected through the connection's ``search_path`` and dropped afterwards, so
tests never see each other's tables. Build on ``database`` (migrated, empty) or ``seeded_database``
(migrated, shipped dataset loaded). Async tests can use them as they are: pytest-asyncio runs in
``asyncio_mode = "auto"`` (pyproject.toml).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL

from db.session import Database, normalize_url

TEST_DATABASE_URL_ENV = "TEST_DATABASE_URL"

# The Discord-side fixtures (a logged-in ParlBot against the loopback Discord) and the command-line
# ones (``bot.cli.main`` in a clean working directory) live beside these.
pytest_plugins = ["tests.discord_harness", "tests.cli_harness"]


def with_search_path(url: URL, schema: str) -> URL:
    """``url`` with every connection's ``search_path`` set to ``schema`` (libpq ``options``)."""
    return url.update_query_dict({"options": f"-csearch_path={schema}"})


@pytest.fixture
def postgresql_schema_url() -> Iterator[str]:
    """A URL whose connections live in a new, empty PostgreSQL schema; the schema is dropped after."""
    configured = os.environ.get(TEST_DATABASE_URL_ENV)
    if not configured:
        pytest.skip(f"{TEST_DATABASE_URL_ENV} is not set")
    server = normalize_url(configured)
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        yield with_search_path(server, schema).render_as_string(hide_password=False)
        with admin.connect() as connection:
            # A test that leaves a transaction open would otherwise hang the suite here.
            connection.execute(text("SET lock_timeout = '10s'"))
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    finally:
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database's URL, once per backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'parlbot.sqlite3'}"
    url: str = request.getfixturevalue("postgresql_schema_url")
    return url


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    """A migrated, empty database (no shipped dataset)."""
    db = Database(database_url)
    db.ensure_ready(seed=False)
    yield db
    db.dispose()


@pytest.fixture
def seeded_database(database: Database) -> Database:
    """``database`` with the shipped dataset loaded into the shared scope."""
    database.ensure_ready(seed=True)
    return database
