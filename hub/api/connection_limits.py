"""How many connections the hub API takes, and what a connection may do before it logs in
(decisions D20; [MENDS] #25 item 1, code review turn 3 N1). A script on the venue network
must not hold the hub's files, memory and loop with connections that never log in:

- ``PEER_WAITING`` connections from one remote peer without a session, ``ROOM_WAITING``
  from all remote peers, and ``ALL_CONNECTIONS`` in all (the TD's console and screens on
  the hub's machine included); a connection past a limit is closed at once with 1013 ("try
  again later") and the reason;
- before its session, a message may be at most ``BEFORE_LOGIN_BYTES`` (a log-in or a
  command is a few hundred bytes; ``load_hand_records`` carries a PBN file, so a session
  may send up to ``SESSION_BYTES``);
- a remote peer that must log in has ``LOGIN_WINDOW_S`` from its connection to do it, with
  at most ``LOGIN_MESSAGES`` messages; others say ``hello`` within ``HELLO_S``.

``ApiConnections`` is sans-I/O: the server asks it and tells it; on the hub's loop.
"""

from __future__ import annotations

from collections.abc import Hashable

PEER_WAITING = 8  # open connections of one remote peer without a session
ROOM_WAITING = 64  # open connections of all remote peers without a session
ALL_CONNECTIONS = 256  # open connections in all
BEFORE_LOGIN_BYTES = 64 * 1024  # the largest message before a session
SESSION_BYTES = 2**20  # the largest message of a session (hand records' PBN)
LOGIN_WINDOW_S = 15.0  # from the connection to the session of a peer that must log in
LOGIN_MESSAGES = 10  # messages such a peer may send before its session
HELLO_S = 30.0  # from the connection to the hello, for a peer that gets the feed without one


class ApiConnections:
    """The API's open connections: in all, and those of remote peers without a session;
    sans-I/O, on the hub's asyncio loop."""

    def __init__(self) -> None:
        self.open: set[Hashable] = set()
        self.waiting: dict[Hashable, str] = {}  # connection -> its remote peer, no session
        self._per_peer: dict[str, int] = {}

    def admit(self, connection: Hashable, peer: str, remote: bool) -> str:
        """Take a new connection of ``peer`` (``remote``: not the hub's machine), or say
        why not ("" when taken; the caller closes a refused one)."""
        if len(self.open) >= ALL_CONNECTIONS:
            return f"the hub has {ALL_CONNECTIONS} API connections open: try again later"
        if remote:
            if self._per_peer.get(peer, 0) >= PEER_WAITING:
                return (
                    f"{PEER_WAITING} connections from {peer} have not logged in: "
                    "log in on one of them, or close them"
                )
            if len(self.waiting) >= ROOM_WAITING:
                return (
                    f"{ROOM_WAITING} connections from the venue network have not logged in: "
                    "try again later"
                )
            self.waiting[connection] = peer
            self._per_peer[peer] = self._per_peer.get(peer, 0) + 1
        self.open.add(connection)
        return ""

    def logged_in(self, connection: Hashable) -> None:
        """The connection has a session, or follows the feed where the director allows it
        without one (``--allow-remote-feed``): it no longer counts as waiting."""
        peer = self.waiting.pop(connection, None)
        if peer is not None:
            left = self._per_peer.pop(peer, 1) - 1
            if left > 0:
                self._per_peer[peer] = left

    def closed(self, connection: Hashable) -> None:
        self.logged_in(connection)
        self.open.discard(connection)
