"""One campaign run (issue 12 [FAULTS]): the simulated room on this process's asyncio loop,
the hub as ``bridgehub run`` in its own process (killed and started again), the planned
faults fired as the room gets to them, and the figures and invariants gathered at the end."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import secrets
import time
from pathlib import Path
from typing import Any

import click

from campaign.fault_firing import FaultFiring
from campaign.hub_process import HubProcess, Recovery
from campaign.pg_cluster import free_port
from campaign.plan import Counts, make_plan
from campaign.progress import Figures, progress_line
from campaign.room import FrameFaults, Room, Size, letters, usb_unavailable
from campaign.stall import StallWatch, describe, hub_view, waiting

PROGRESS_EVERY_S = 5.0
STOP_WAIT_S = 15.0
TICK_S = 0.02


@dataclasses.dataclass
class Options:
    """The command line, resolved."""

    size: Size
    counts: Counts
    rates: FrameFaults
    seed: int
    speed: float
    db: str
    timeout_s: float
    folder: Path
    usb: bool
    json_file: Path | None


class Campaign:
    """One run: the room, the hub process, the plan, and the figures it gathers."""

    def __init__(self, opts: Options) -> None:
        self.opts = opts
        self.size = opts.size
        self.cluster: Any = None
        why_not = usb_unavailable() if opts.usb else "turned off (--no-usb)"
        self.usb_why_not = why_not
        self.room = Room(opts.folder, opts.size, opts.rates, opts.seed, opts.speed, why_not is None)
        plan = make_plan(
            opts.seed,
            [i.station.serial for i in self.room.stations],
            [t.serial for t in self.room.terminals],
            opts.counts,
        )
        self.faults = FaultFiring(self, plan)
        self.failed_starts = 0  # unexpected exits since the last ACK
        self.pg_watch: tuple[float, int, float] | None = None  # server back, ACKs then, took
        self.api_port = free_port()
        self.pin = secrets.token_urlsafe(9)
        self.fig = Figures(seed=opts.seed, db=opts.db, target=opts.size.results)
        self.recoveries: list[Recovery] = []
        self.watching: Recovery | None = None
        self.epochs_at_start: set[int | None] = {None}  # hubs heard before the last start
        self.store_url = ""
        self.engine: Any = None
        self.hub: HubProcess | None = None
        self.feed: Any = None
        self.t0 = time.monotonic()

    # -- set-up -----------------------------------------------------------------------------
    def _store(self) -> str:
        if self.opts.db == "postgres":
            from campaign.pg_cluster import PrivateCluster

            why = PrivateCluster.available()
            if why is not None:
                raise click.ClickException(f"--db postgres: no private cluster here: {why}")
            self.cluster = PrivateCluster()
            self.cluster.start()
            return str(self.cluster.url)
        return f"sqlite:///{self.opts.folder / 'campaign.db'}"

    def _hub_args(self) -> list[str]:
        args = ["run", "--event", str(self.room.event_file), "--db", self.store_url]
        args += ["--api", f"127.0.0.1:{self.api_port}", "--clock", self.room.clock_spec()]
        args += ["--results-dir", str(self.opts.folder / "results")]
        for url in self.room.station_urls():
            args += ["--station", url]
        return args

    def _count_stored(self) -> int | None:
        """Rows in the store's results table (every revision), read as another process."""
        from sqlalchemy import create_engine, text

        try:
            if self.engine is None:
                self.engine = create_engine(self.store_url, pool_pre_ping=True)
            with self.engine.connect() as conn:
                return int(conn.execute(text("select count(*) from results")).scalar() or 0)
        except Exception:  # no table yet, or the server restarting: unknown for now
            return None

    def _event_id(self) -> int:
        from sqlalchemy import text

        self._count_stored()
        with self.engine.connect() as conn:
            return int(conn.execute(text("select min(id) from events")).scalar() or 1)

    # -- the hub ----------------------------------------------------------------------------
    async def _start_hub(self, cause: str | None) -> None:
        assert self.hub is not None
        stored = await asyncio.to_thread(self._count_stored) if cause else 0
        started = self.hub.start(self.faults.arm())
        self.epochs_at_start = self.room.hub_epochs()
        if cause is not None:
            self.watching = Recovery(cause, stored or 0, started)
            self.recoveries.append(self.watching)

    async def hub_down(self, cause: str) -> None:
        """The hub died (``cause``): counted, and started again at once."""
        self.fig.kills.append(cause)
        await self._start_hub(cause)

    async def _check_hub(self) -> None:
        assert self.hub is not None
        gone = self.hub.ended()
        if gone is None:
            return
        armed = self.faults.armed
        if gone.returncode == -9 and armed is not None:
            self.faults.done_with(armed)
            await self.hub_down(f"{armed.kind.value} ({gone.cause})")
            return
        self.fig.problems.append(f"the hub {gone.cause}: {gone.stderr_tail[-300:]!r}")
        self.failed_starts += 1
        if self.failed_starts > 5:
            raise click.ClickException(
                f"the hub keeps failing ({gone.cause}): giving up; its last words: "
                f"{gone.stderr_tail[-500:]}"
            )
        await asyncio.sleep(1.0)  # a hub that cannot start is not started in a tight loop
        await self._start_hub(gone.cause)

    def _watch_recovery(self) -> None:
        if self.pg_watch is not None and self.room.acks() > self.pg_watch[1]:
            back, _, took = self.pg_watch
            self.fig.pg_restart_s.append(
                {"restart_s": took, "first_ack_s": time.monotonic() - back}
            )
            self.pg_watch = None
        rec = self.watching
        if rec is not None and self.room.acks_under_other_hubs(self.epochs_at_start):
            rec.first_ack_s = time.monotonic() - rec.started
            self.failed_starts = 0
            self.watching = None

    # -- the feed and the director ----------------------------------------------------------
    async def _start_feed(self) -> None:
        url = f"ws://127.0.0.1:{self.api_port}/v1"
        try:
            from campaign.feed_watch import FeedWatch
        except ImportError as e:
            self.fig.problems.append(f"no feed watch: {e}")
            return
        self.feed = FeedWatch(url)
        await self.feed.start()

    async def _start_clocks(self) -> None:
        """The director starts round 1's clock in every section (``bridgehub run`` waits for
        it, docs/api.md); through the API with the PIN, as a console would."""
        from hub.api.client import websocket_source

        source, send = websocket_source(
            f"ws://127.0.0.1:{self.api_port}/v1", self.pin, name="campaign", retry_s=0.2
        )
        replies: dict[str, Any] = {}
        n = 0
        async for msg in source():
            if msg.get("type") == "session":
                for letter in letters(self.size.sections):
                    n += 1
                    await send({"id": f"c{n}", "name": "start_clock", "args": {"section": letter}})
            elif msg.get("type") == "reply":
                replies[str(msg.get("id"))] = msg
                if len(replies) >= self.size.sections:
                    bad = [r for r in replies.values() if not r.get("ok")]
                    if bad:
                        print(f"start_clock refused: {bad}", flush=True)
                    return

    # -- the run ----------------------------------------------------------------------------
    async def run(self) -> Figures:
        """The whole run; the private PostgreSQL cluster (if any) goes away whatever
        happens."""
        try:
            return await self._run()
        finally:
            if self.engine is not None:
                self.engine.dispose()
            if self.cluster is not None:
                self.cluster.close()

    async def _run(self) -> Figures:
        opts, fig = self.opts, self.fig
        self.store_url = self._store()
        env = {"BRIDGEHUB_TD_PIN": self.pin, **self.room.usb_env}
        self.hub = HubProcess(self._hub_args(), env, opts.folder)
        self._header()
        await self._start_hub(None)
        self.room.start()
        self.t0 = time.monotonic()
        await self._start_feed()
        director = asyncio.get_running_loop().create_task(self._start_clocks())
        try:
            fig.finished = await self._play()
            fig.room_s = time.monotonic() - self.t0
            if not director.done():
                fig.problems.append("the director never got a session to start the clocks")
            await self._await_final()
        finally:
            director.cancel()
            if fig.finished:
                await self._await_outputs()
            stopping = time.monotonic()
            code = await asyncio.to_thread(self.hub.stop, STOP_WAIT_S)
            fig.stop_s = time.monotonic() - stopping
            if code not in (0, None):
                fig.notes.append(
                    f"the hub ended with status {code} when stopped (SIGTERM, then SIGKILL "
                    f"after {STOP_WAIT_S:g} s)"
                )
            if self.feed is not None:
                with contextlib.suppress(Exception):
                    await self.feed.stop()
            self.room.watch_lines()
            await self.room.stop()
        fig.elapsed_s = time.monotonic() - self.t0
        self._figures()
        try:
            await asyncio.to_thread(self._invariants)
        except Exception as e:  # a broken check is a failed campaign, with its reason
            fig.problems.append(f"the invariants could not be checked: {type(e).__name__}: {e}")
        return fig

    def _header(self) -> None:
        s = self.size
        print(
            f"campaign seed {self.opts.seed}: {s.sections} sections × {s.tables} tables × "
            f"{s.rounds} rounds × {s.boards} boards = {s.results:,} results on "
            f"{s.terminals} terminals, {len(self.room.stations)} stations "
            f"({', '.join(f'{n} {k}' for k, n in self.room.by_kind().items())}); "
            f"store {self.opts.db}; folder {self.opts.folder}",
            flush=True,
        )
        if self.usb_why_not is not None:
            print(f"USB: not available: {self.usb_why_not} (a pty station instead)", flush=True)
        print(f"plan: {len(self.faults.plan.actions)} faults", flush=True)

    async def _play(self) -> bool:
        """Until every result is confirmed and nothing waits at a terminal; False when the
        time allowed ran out."""
        next_print = time.monotonic() + PROGRESS_EVERY_S
        last = (time.monotonic(), 0)
        deadline = self.t0 + self.opts.timeout_s
        stall = StallWatch(since=time.monotonic())
        while True:
            await asyncio.sleep(TICK_S)
            self.room.watch_lines()
            self._watch_recovery()
            await self._check_hub()
            await self.faults.fire_due()
            now = time.monotonic()
            if now >= next_print:
                next_print = now + PROGRESS_EVERY_S
                stored = await asyncio.to_thread(self._count_stored)
                confirmed = self.room.confirmed()
                rate = (confirmed - last[1]) / max(1e-6, now - last[0])
                last = (now, confirmed)
                print(
                    progress_line(
                        confirmed, self.size.results, stored, rate, self.faults.done, now - self.t0
                    ),
                    flush=True,
                )
            if self._all_in():
                return True
            if now > deadline:
                self.fig.stuck_where = self.room.where()
                return False
            if stall.stalled(self.room.confirmed(), self.size.results, now):
                await self._stalled(stall.after_s)
                return False

    async def _stalled(self, after_s: float) -> None:
        """[LIVENESS]: nothing confirmed for ``after_s`` with boards still to play: each
        waiting table, its last messages both ways and what the hub thinks of it; the
        tables are counted under "stuck"."""
        view = await hub_view(f"ws://127.0.0.1:{self.api_port}/v1", self.pin)
        tables = waiting(self.room.terminals, self.size.rounds, self.size.boards)
        print(
            f"the room stalled: no result confirmed for {after_s:g} s, "
            f"{len(tables)} table(s) with boards to play:",
            flush=True,
        )
        where = [line for t in tables for line in describe(t, view, self.size.boards)]
        for line in where:
            print(f"  {line}", flush=True)
        self.fig.stuck_where = where
        self.fig.stalled_tables = len(tables)

    def _all_in(self) -> bool:
        """Every result confirmed, nothing waiting at a terminal, no fault under way."""
        if self.room.acks() < self.size.results or self.room.unacked():
            return False
        return self.room.confirmed() >= self.size.results and self._quiet()

    def _quiet(self) -> bool:
        """No fault still under way: lines back, no recovery being timed, nothing due."""
        return not self.room.lines_down() and self.watching is None

    async def _await_final(self, timeout: float = 60.0) -> None:
        """Until the feed shows every section's final standings (the hub publishes the last
        round after its last result)."""
        if self.feed is None:
            return
        want = set(letters(self.size.sections))
        end = time.monotonic() + timeout
        while time.monotonic() < end and not want <= set(self.feed.final):
            await asyncio.sleep(0.1)

    async def _await_outputs(self, timeout: float = 10.0) -> None:
        """A short wait for the session's final outputs (the PDF, or the note why not);
        they are not what the campaign proves, and a large PDF takes minutes."""
        folder = self.opts.folder / "results"
        started = time.monotonic()
        end = started + timeout
        while time.monotonic() < end:
            if (folder / "report.pdf").exists() or (folder / "report-pdf-skipped.txt").exists():
                self.fig.outputs_s = time.monotonic() - started
                return
            await asyncio.sleep(0.2)
        self.fig.notes.append(
            f"no final report PDF within {timeout:g} s of the last result (still rendering)"
        )

    def _figures(self) -> None:
        fig, room = self.fig, self.room
        fig.confirmed = room.confirmed()
        fig.stored = self._count_stored() or 0
        fig.terminals = len(room.terminals)
        fig.stations = room.by_kind()
        fig.usb = (
            "emulated (umockdev)"
            if self.usb_why_not is None
            else f"not available: {self.usb_why_not}"
        )
        fig.frame_faults = room.frame_faults()
        fig.recoveries = [dataclasses.asdict(r) for r in self.recoveries]
        fig.line_back_s = {i.station.serial + f" ({i.kind})": i.line_back_s for i in room.stations}
        fig.clock_back_s = list(room.clock_back_s)
        fig.lines_left_down = room.lines_down()
        missed = [a.describe() for a in self.faults.pending]
        if missed:
            fig.problems.append(f"faults planned but not done: {missed}")

    def _invariants(self) -> None:
        try:
            from campaign.invariants import Confirmed, check
        except ImportError as e:
            self.fig.problems.append(f"invariants not checked: {e}")
            return
        confirmed = [
            Confirmed.of(r) for t in self.room.terminals for r in (*t.log.accepted, *t.log.held)
        ]
        published = dict(self.feed.published) if self.feed is not None else {}
        final = set(self.feed.final) if self.feed is not None else set()
        found = check(
            self.store_url, self._event_id(), confirmed, self.room.unacked(), published, final
        )
        self.fig.invariants = {
            "lost": found.lost,
            "doubled": found.doubled,
            "stuck": found.stuck + self.fig.stalled_tables,
            "incomplete": found.incomplete,
            "standings differ": found.standings_differ,
        }
        self.fig.invariant_details = list(found.details)
