"""Why a store call failed: the store itself (down, full, locked; the same call may work
later) or what it was given (the same call fails again). Callers that queue writes keep
an entry for later in the first case and need not in the second. Any thread."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError


def store_unavailable(error: BaseException) -> bool:
    """True when ``error`` says the store could not be used (a disk, a lock, a lost
    connection), not that it refused the data."""
    if isinstance(error, OSError | OperationalError | InterfaceError):
        return True
    return isinstance(error, DBAPIError) and bool(error.connection_invalidated)
