"""The TD is never locked out of his own hub (decisions D20, review of the log-in limits):
wrong PINs from the hub's own machine (loopback) back off as a LAN peer's do, but their
wait stops at a few seconds instead of the 15-minute lockout. A console and four screens
left running with the PIN of an earlier run (the hub makes a new one each run) send five
wrong PINs as the hub restarts; the TD then types the new PIN and gets in within seconds."""

from __future__ import annotations

from hub.api import sessions as s

PIN = "K7M2Q9XR"
LAN_PEER = "192.0.2.7"  # TEST-NET-1 (RFC 5737)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_d20_stale_pins_from_the_hubs_machine_never_lock_the_td_out():
    clock = Clock()
    guard = s.LoginGuard(PIN, clock)
    for _ in range(5):  # the console and four screens, each with the old PIN
        guard.attempt("127.0.0.1", "OLD-PIN1")
        clock.now += 0.1
    first = guard.attempt("127.0.0.1", PIN)  # the TD, at once: a short wait at most
    assert first.ok or first.wait_s <= s.LOOPBACK_CAP_S, first
    clock.now += s.LOOPBACK_CAP_S
    assert guard.attempt("127.0.0.1", PIN).ok
    for _ in range(50):  # however many, the wait stays a few seconds
        check = guard.attempt("::1", "WRONG")
        assert check.wait_s <= s.LOOPBACK_CAP_S, check
        clock.now += check.wait_s
    assert guard.attempt("::1", PIN).ok


def test_d20_a_lan_peer_is_still_locked_out_after_five_wrong_pins():
    clock = Clock()
    guard = s.LoginGuard(PIN, clock)
    for _ in range(5):
        check = guard.attempt(LAN_PEER, "WRONG")
        clock.now += check.wait_s if check.wait_s < 60 else 0
    assert check.wait_s == 15 * 60
    assert guard.attempt(LAN_PEER, PIN).verdict is s.LoginVerdict.WAIT


def test_d20_a_flood_from_new_addresses_during_the_room_lock_keeps_no_state_each():
    """Once the LAN is locked (20 wrong PINs), attempts from ever new addresses (an IPv6
    prefix holds billions) are refused without comparing, and leave nothing behind: the
    guard's memory cannot be grown without bound by a stranger."""
    clock = Clock()
    guard = s.LoginGuard(PIN, clock)
    for k in range(20):
        guard.attempt(f"192.0.2.{k + 10}", "WRONG")
    for k in range(5000):
        check = guard.attempt(f"2001:db8::{k:x}", "WRONG")
        assert check.verdict is s.LoginVerdict.WAIT and check.room
    assert len(guard._counts) <= 21, len(guard._counts)
    assert guard.attempt("127.0.0.1", PIN).ok
