"""The register of devices in the store (which terminals and base stations the event has
seen, and when last): noted on the loop as devices speak, written by a background task at
most every ``every_s`` seconds, so a room full of battery reports never costs a disk write
per frame. The live "last heard" for the director is the gateway's, not this.

``DeviceRegister`` belongs to the hub's asyncio loop; the writes run in a worker thread."""

from __future__ import annotations

import asyncio

from hub.store.store import Store


class DeviceRegister:
    """Devices heard, on the hub's loop; written to the store in a worker thread."""

    def __init__(self, store: Store, event_id: int, every_s: float = 5.0) -> None:
        self.store = store
        self.event_id = event_id
        self.every_s = every_s
        self._seen: set[tuple[str, str]] = set()  # (kind, serial) heard since the last write

    def seen(self, kind: str, serial: str) -> None:
        self._seen.add((kind, serial))

    async def run(self) -> None:
        while True:
            await self.flush()
            await asyncio.sleep(self.every_s)

    async def flush(self) -> None:
        batch, self._seen = self._seen, set()
        if not batch:
            return
        try:
            await asyncio.to_thread(self._write, sorted(batch))
        except BaseException:
            self._seen |= batch  # written next time
            raise

    def _write(self, batch: list[tuple[str, str]]) -> None:
        for kind, serial in batch:
            self.store.touch_device(self.event_id, kind, serial)
