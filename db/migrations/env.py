"""Alembic environment for parlbot.

``Database.upgrade()`` passes its own connection in ``config.attributes["connection"]`` (so an
in-memory SQLite database is migrated in place). Run from the ``alembic`` command line instead, the
URL comes from ``sqlalchemy.url`` in the ini file, else ``DATABASE_URL``, else the default SQLite file.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import Connection
from sqlmodel import SQLModel

import db.models  # noqa: F401  (registers every table on SQLModel.metadata)
from db.session import Database, normalize_url

config = context.config
target_metadata = SQLModel.metadata


def _url() -> str:
    return (
        config.get_main_option("sqlalchemy.url")
        or os.environ.get("DATABASE_URL")
        or "sqlite:///parlbot.sqlite3"
    )


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        compare_server_default=True,  # tests/test_migrations.py compares the same way
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    url = normalize_url(_url())
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=url.get_backend_name() == "sqlite",
        compare_type=True,
        compare_server_default=True,  # tests/test_migrations.py compares the same way
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        return
    database = Database(_url())
    try:
        with database.engine.connect() as own_connection:
            _configure(own_connection)
            own_connection.commit()
    finally:
        database.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
