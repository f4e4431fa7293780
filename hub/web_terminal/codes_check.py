"""The table codes' check before a browser terminal's log-on reaches the hub
(docs/web-terminal.md "Table codes", decisions D20). Every table has a one-time code on its
card: the first device that logs on with it uses it up and logs on again without it; any
other device is refused; the director re-issues a lost table's code, and the device that
logs on with the new code takes the table over from the one that held it. A table held by
a hardware terminal stays held (the hub refuses ``table_held``; the code is used only by an
accepted log-on). A log-on with the director's PIN skips the code (a takeover, checked by
the hub).

``CodesCheck`` belongs to the hub's asyncio loop: it keeps the codes in memory and writes
the store through worker threads.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass

from hub.live.port.terminal_port import LogonRequest
from hub.store.store import Store
from hub.store.table_codes import CodeUsed, TableCode, ensure_codes, use_code

log = logging.getLogger(__name__)
Holder = Callable[[str, int], "str | None"]  # the serial that holds a table now, if any


@dataclass(frozen=True, slots=True)
class CodeVerdict:
    """The check's answer: ``reason`` None to pass the log-on on to the hub (the code is
    used up if the hub accepts it), else "bad_code" or "code_used" with the text shown.
    ``wrong``: a code was given and is not the table's (counted, ``wrong_codes``);
    ``right``: the device gave the table's code, or holds it (its typos are forgiven)."""

    reason: str | None = None
    text: str = ""
    wrong: bool = False
    right: bool = False


def needs_code(where: str) -> str:
    return f"table {where} needs its code: scan the QR code on the table card or ask the director"


class CodesCheck:
    """The event's table codes, checked on the hub's asyncio loop (store writes in worker
    threads). ``held_by`` says who holds a table now, ``allow_takeover`` lets the next
    log-on take it and ``is_table`` says whether the movement has a table now (the hub's
    intake; wired by ``web_terminals``)."""

    def __init__(self, store: Store, event_id: int, tables: list[tuple[str, int]]) -> None:
        self.store = store
        self.event_id = event_id
        self.tables = tables
        self.codes: dict[tuple[str, int], TableCode] = {}
        self.held_by: Holder = lambda section, table: None
        self.allow_takeover: Callable[[str, int, str], None] = lambda section, table, serial: None
        self.is_table: Callable[[str, int], bool] = lambda section, table: False
        self._writes: set[asyncio.Task[None]] = set()

    async def load(self) -> None:
        """Every table's code, made in the store where missing (the same after a restart,
        so printed cards stay good)."""
        codes = await asyncio.to_thread(ensure_codes, self.store, self.event_id, self.tables)
        self.codes = dict(codes)

    def check(self, section: str, table: int, code: str, serial: str) -> CodeVerdict:
        """May the device ``serial`` log on to the table with ``code`` ("" once it used the
        table's code)?"""
        known, where = self.codes.get((section, table)), f"{section}{table}"
        if known is None and self.is_table(section, table):  # new since the start
            text = f"table {where} has no code yet: ask the director to issue one"
            return CodeVerdict("bad_code", text)
        if known is None:  # no such table: the hub says so (not_in_movement)
            return CodeVerdict()
        if known.used_by == serial:  # a reload, a lost connection, a restarted hub
            return CodeVerdict(right=True)
        given = code.strip().upper()
        if not given:
            return CodeVerdict("bad_code", needs_code(where))
        if given != known.code:
            text = (
                f"this is not the code of table {where}: check the table card or ask the director"
            )
            return CodeVerdict("bad_code", text, wrong=True)
        if known.used_by is not None:
            text = f"the code of table {where} was used by another device: ask the director"
            return CodeVerdict("code_used", text)
        holder = self.held_by(section, table)
        if known.generation > 1 and holder and holder.startswith("web-") and holder != serial:
            log.info("%s takes table %s from %s with the new code", serial, where, holder)
            self.allow_takeover(section, table, serial)  # the new code: a lost phone's table
        return CodeVerdict(right=True)

    def generation(self, logon: LogonRequest) -> int:
        """The generation of the code of the table a log-on claims (0: none)."""
        known = self.codes.get((logon.section, logon.table))
        return known.generation if known is not None else 0

    def used(self, section: str, table: int, generation: int, serial: str) -> None:
        """The hub accepted the device's log-on, checked against the code of ``generation``:
        that code is this device's (at once here, so its next log-on needs no code; the
        store's record follows). A code the director re-issued since is left unused."""
        known = self.codes.get((section, table))
        if known is None or known.used_by == serial:
            return
        if known.generation != generation:
            log.info("%s logged on to %s%d as its code was re-issued", serial, section, table)
            return
        self.codes[(section, table)] = dataclasses.replace(known, used_by=serial)
        task = asyncio.ensure_future(self._use(section, table, generation, serial))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _use(self, section: str, table: int, generation: int, serial: str) -> None:
        try:
            stored = await asyncio.to_thread(
                use_code, self.store, self.event_id, section, table, serial, generation
            )
        except CodeUsed as e:  # a takeover with the PIN, or a code re-issued meanwhile
            log.info(
                "%s logged on to table %s%d; the store keeps %s as the user of its code "
                "(generation %d)",
                serial,
                section,
                table,
                e.held.used_by or "no device",
                e.held.generation,
            )
            return
        except Exception:  # kept in memory: this run knows the device; logged for the TD
            log.exception(
                "cannot record that %s used the code of table %s%d", serial, section, table
            )
            return
        current = self.codes.get((section, table))
        if current is None or current.generation <= stored.generation:
            self.codes[(section, table)] = stored

    def reissued(self, code: TableCode) -> None:
        """The director re-issued a table's code (the console's ``reissue_table_code``):
        the new code counts from now, and no device is its user."""
        self.codes[(code.section, code.table)] = code
        log.info(
            "table %s%d has a new code (generation %d)", code.section, code.table, code.generation
        )

    async def flush(self) -> None:
        """Wait for the store writes under way (the hub is stopping)."""
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)
