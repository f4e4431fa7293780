import atexit
import os
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

# The set-up tests share: the helper modules at tests/*.py (no test module imports another,
# tests/house/test_architecture.py).
sys.path.insert(0, str(Path(__file__).parent))

from external_tools import (  # noqa: F401
    PG_SERVER,
    need,
    pytest_configure,
    pytest_runtest_setup,
)

PG_URL = os.environ.get("BRIDGEHUB_TEST_PG_URL")

# The line locks (drivers/line_lock.py) of the hubs this process and its children start, in a
# folder of its own: each xdist worker's, or each of two runs at once, start hubs on the same
# simulated stations (campaigns: usb:1209:0001:BHBS0003), which would be "already in use".
LOCKS = tempfile.mkdtemp(prefix="bridgehub-test-locks-")
os.environ["BRIDGEHUB_LOCK_DIR"] = LOCKS
atexit.register(shutil.rmtree, LOCKS, ignore_errors=True)


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
