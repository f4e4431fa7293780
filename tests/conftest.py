import os
import sys
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from external_tools import PG_SERVER, need, pytest_configure, pytest_runtest_setup  # noqa: F401

PG_URL = os.environ.get("BRIDGEHUB_TEST_PG_URL")


@pytest.fixture(scope="session")
def pg_database():
    """A fresh PostgreSQL database for this test run (dropped afterwards)."""
    need(PG_SERVER)
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"bridgehub_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    yield url
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """The same store tests against real SQLite and real PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'event.db'}"
    return request.getfixturevalue("pg_database")
