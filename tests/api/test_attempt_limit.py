"""The hub's one attempt limit (decisions D20: failed log-ins are rate-limited per peer and
overall): waits from a policy, doubling up to a cap, a lockout after so many failures,
counts forgotten once quiet and not waiting, and the three policy sets its users state,
each checked against the waits their documents promise (docs/api.md "Log-in limits",
docs/web-terminal.md "Table codes", docs/protocol.md LOGON). Sans-I/O: times are given."""

from __future__ import annotations

import pytest

from hub.api import sessions
from hub.api.attempt_limit import AttemptLimit, AttemptPolicy
from hub.live.tables import takeover_pin
from hub.web_terminal import wrong_codes

SLIP_THEN_LOCKOUT = AttemptPolicy(
    cap_s=3600.0, forget_s=3600.0, lockout_at=5, lockout_s=900.0, backoff_at=2, backoff_s=1.0
)


def waits(policy: AttemptPolicy, upto: int) -> list[float]:
    return [policy.wait_s(n) for n in range(upto + 1)]


def test_d20_waits_double_from_the_backoff_then_the_lockout_up_to_the_cap():
    assert waits(SLIP_THEN_LOCKOUT, 8) == [0, 0, 1, 2, 4, 900, 1800, 3600, 3600]
    assert SLIP_THEN_LOCKOUT.wait_s(10**6) == 3600  # however long a count grows
    assert [SLIP_THEN_LOCKOUT.locks_out(n) for n in (4, 5, 6)] == [False, True, True]
    never = AttemptPolicy(cap_s=8.0, forget_s=60.0, backoff_at=2, backoff_s=1.0)
    assert waits(never, 6) == [0, 0, 1, 2, 4, 8, 8] and not never.locks_out(10**6)


def test_d20_a_policy_with_a_wait_that_cannot_end_or_begin_is_refused():
    with pytest.raises(ValueError):
        AttemptPolicy(cap_s=60.0, forget_s=60.0, lockout_at=3)  # no lockout_s
    with pytest.raises(ValueError):
        AttemptPolicy(cap_s=60.0, forget_s=60.0, backoff_at=0, backoff_s=1.0)


def test_d20_a_key_waits_from_its_last_failure_and_its_scope_is_its_policy():
    limit = AttemptLimit({"peer": SLIP_THEN_LOCKOUT, "room": AttemptPolicy(60.0, 60.0, 2, 30.0)})
    assert limit.failed(("peer", "a"), 100.0) == 1
    assert limit.wait_s(("peer", "a"), 100.0) == 0  # a slip costs nothing
    assert limit.failed(("peer", "a"), 100.0) == 2
    assert limit.wait_s(("peer", "a"), 100.5) == 0.5
    assert limit.wait_s(("peer", "a"), 101.0) == 0
    limit.failed(("room",), 100.0)
    limit.failed(("room",), 100.0)
    assert limit.wait_s(("room",), 110.0) == 20 and limit.locked_out(("room",), 110.0)
    assert limit.wait_s(("peer", "b"), 110.0) == 0 and limit.failures(("peer", "b"), 110.0) == 0
    assert len(limit) == 2  # asking about a key keeps nothing for it
    limit.clear(("peer", "a"))
    assert limit.failures(("peer", "a"), 110.0) == 0 and len(limit) == 1


def test_d20_counts_quiet_long_enough_and_not_waiting_are_forgotten():
    limit = AttemptLimit({"device": AttemptPolicy(60.0, 900.0, 1, 2.0)})
    for _ in range(12):
        limit.failed(("device", "web-1"), 0.0)
    assert limit.wait_s(("device", "web-1"), 0.0) == 60
    assert limit.failures(("device", "web-1"), 900.0) == 12  # quiet, but not long enough
    assert limit.failures(("device", "web-1"), 900.5) == 0  # reads as none at once…
    assert len(limit) == 1  # …and is kept until forget drops it
    assert limit.failed(("device", "web-1"), 901.0) == 1  # a new count, not the 13th
    limit.failed(("device", "web-2"), 901.0)
    assert limit.forget(2000.0) == [("device", "web-1"), ("device", "web-2")]
    assert len(limit) == 0


def test_d20_a_count_forgiven_in_part_waits_as_its_remaining_failures_would():
    limit = AttemptLimit({"device": AttemptPolicy(60.0, 900.0, 5, 2.0)})
    for _ in range(7):
        limit.failed(("device", "web-1"), 10.0)
    assert limit.wait_s(("device", "web-1"), 10.0) == 8
    limit.forgive(("device", "web-1"), 2)
    assert limit.wait_s(("device", "web-1"), 11.0) == 1  # 5 failures: 2 s from the last
    limit.forgive(("device", "web-1"), 9)
    assert len(limit) == 0  # forgiven to nothing: dropped


def test_d20_the_three_users_policies_are_the_waits_their_documents_state():
    api = sessions.WAITS
    assert waits(api["peer"], 8) == [0, 0, 1, 2, 4, 900, 1800, 3600, 3600]
    assert waits(api["loopback"], 7) == [0, 0, 1, 2, 4, 8, 8, 8]
    assert not api["loopback"].locks_out(1000)
    assert api["room"].wait_s(19) == 0 and api["room"].wait_s(20) == 900
    assert {p.forget_s for p in api.values()} == {sessions.FORGET_S}
    pins = takeover_pin.WAITS
    assert waits(pins["serial"], 9) == [0, 0, 0, 30, 60, 120, 240, 480, 900, 900]
    assert pins["link"] == pins["serial"]
    assert pins["room"].wait_s(9) == 0 and pins["room"].wait_s(10) == 30
    assert waits(wrong_codes.DEVICE_WAITS, 11) == [0] * 5 + [2, 4, 8, 16, 32, 60, 60]
    assert wrong_codes.DEVICE_WAITS.forget_s == 15 * 60
