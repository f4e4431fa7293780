"""What the campaign prints: a progress line every few seconds while the room plays, and
at the end the figures (issue 12 [FAULTS]), also as JSON for ``--json FILE``."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

RECOVERY_TARGET_S = 2.0  # issue 12: kill -9 to the first ACK, and a line back after replug


@dataclass
class Figures:
    """Everything the final report says; ``invariants`` name → count (each must be 0)."""

    seed: int
    db: str
    target: int = 0
    confirmed: int = 0
    stored: int = 0
    terminals: int = 0
    stations: dict[str, int] = field(default_factory=dict)
    usb: str = ""  # "emulated (umockdev)" or "not available: <why>"
    frame_faults: dict[str, int] = field(default_factory=dict)
    unplugs: int = 0
    reboots: int = 0
    reboots_keying: int = 0  # while the players were keying a result
    reboots_unacked: int = 0  # while a result was sent and not yet acknowledged
    kills: list[str] = field(default_factory=list)  # how each hub process died
    pg_restarts: int = 0
    pg_restart_s: list[dict[str, float]] = field(default_factory=list)
    graceful_restarts: int = 0  # SIGTERM restarts to re-arm a crash point not reached
    clock_unplugs: int = 0
    recoveries: list[dict[str, Any]] = field(default_factory=list)
    line_back_s: dict[str, list[float]] = field(default_factory=dict)
    clock_back_s: list[float] = field(default_factory=list)
    lines_left_down: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    room_s: float = 0.0  # start → every result confirmed
    finished: bool = False
    stuck_where: list[str] = field(default_factory=list)
    stalled_tables: int = 0  # tables waiting when the room stalled ([LIVENESS])
    invariants: dict[str, int] = field(default_factory=dict)
    invariant_details: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # unexpected exits, missed faults
    notes: list[str] = field(default_factory=list)  # worth saying, not a failure
    outputs_s: float | None = None  # last result → the final outputs written
    stop_s: float = 0.0  # SIGTERM → the hub gone

    @property
    def ok(self) -> bool:
        zeros = bool(self.invariants) and not any(self.invariants.values())
        return zeros and self.finished and not self.problems

    def write_json(self, path: Path) -> None:
        path.write_text(json.dumps({**asdict(self), "ok": self.ok}, indent=2) + "\n", "utf-8")


def progress_line(
    confirmed: int, target: int, stored: int | None, rate: float, faults: int, elapsed: float
) -> str:
    shown = "?" if stored is None else f"{stored:,}"
    return (
        f"[{elapsed:6.0f} s] confirmed {confirmed:,}/{target:,}  stored {shown}  "
        f"{rate:6.0f} results/s  faults done {faults}"
    )


def _seconds(values: list[float]) -> str:
    if not values:
        return "none measured"
    worst = max(values)
    flag = "" if worst <= RECOVERY_TARGET_S else f"  (over {RECOVERY_TARGET_S:g} s)"
    return ", ".join(f"{v:.2f}" for v in values) + f" s; worst {worst:.2f} s{flag}"


def report(fig: Figures) -> list[str]:
    """The final figures as printed lines."""
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(fig.stations.items()))
    ff = fig.frame_faults
    frame = ", ".join(f"{k} {v:,}" for k, v in sorted(ff.items()) if v or k in FRAME_KEYS)
    out = [
        "figures:",
        f"  results       {fig.confirmed:,} confirmed at the terminals of {fig.target:,}; "
        f"{fig.stored:,} rows stored ({fig.db})",
        f"  terminals     {fig.terminals}",
        f"  stations      {sum(fig.stations.values())}: {kinds}",
        f"  USB           {fig.usb}",
        f"  frame faults  {frame or 'none'}",
        f"  unplugs {fig.unplugs}, terminal reboots {fig.reboots} ({fig.reboots_keying} "
        f"mid-keying, {fig.reboots_unacked} with a result unacknowledged), hub kill -9s "
        f"{len(fig.kills)}, PostgreSQL restarts {fig.pg_restarts}, clock display unplugs "
        f"{fig.clock_unplugs}",
    ]
    if fig.graceful_restarts:
        out.append(f"  graceful hub restarts (to re-arm a crash point): {fig.graceful_restarts}")
    for k, cause in enumerate(fig.kills, 1):
        out.append(f"  kill {k}: {cause}")
    for rec in fig.recoveries:
        first = rec["first_ack_s"]
        shown = "no ACK" if first is None else f"{first:.2f} s"
        flag = "" if first is not None and first <= RECOVERY_TARGET_S else "  (over target)"
        out.append(
            f"  recovery after {rec['cause']}: start → first ACK {shown} with "
            f"{rec['stored']:,} results stored{flag}"
        )
    for pg in fig.pg_restart_s:
        out.append(
            f"  PostgreSQL restart: server down and up in {pg['restart_s']:.2f} s, then the "
            f"first ACK after {pg['first_ack_s']:.2f} s"
        )
    for serial, values in sorted(fig.line_back_s.items()):
        out.append(f"  line back after replug {serial}: {_seconds(values)}")
    out.append(f"  clock display back after replug: {_seconds(fig.clock_back_s)}")
    if fig.lines_left_down:
        out.append(f"  lines never back: {', '.join(fig.lines_left_down)}")
    outputs = "not seen" if fig.outputs_s is None else f"{fig.outputs_s:.1f} s"
    out.append(
        f"  final outputs written after the room finished: {outputs}; hub stop {fig.stop_s:.1f} s"
    )
    out.append(
        f"  elapsed       {fig.elapsed_s:.0f} s (the room played in {fig.room_s:.0f} s, "
        f"{fig.confirmed / max(fig.room_s, 1e-9):.0f} results/s)"
    )
    if not fig.finished:
        why = "stalled" if fig.stalled_tables else "did NOT finish in the time allowed"
        out.append(f"  the room {why}; tables stuck:")
        out += [f"    {w}" for w in fig.stuck_where[:200]]
    out.append("invariants:")
    out += [f"  {name} {n}" for name, n in fig.invariants.items()] or ["  not checked"]
    out += [f"    {d}" for d in fig.invariant_details[:20]]
    for n in fig.notes:
        out.append(f"note: {n}")
    for p in fig.problems:
        out.append(f"problem: {p}")
    out.append("campaign: OK" if fig.ok else "campaign: FAILED")
    return out


FRAME_KEYS = ("corrupt", "drop", "duplicate", "delay")
