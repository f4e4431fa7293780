"""Properties of the choice of opponent: whatever allowed commands the director gives
(choices, absences, arrivals, withdrawals, closing), the procedure ends with every team in
exactly one pair, and replaying the same commands rebuilds the same pairs (the hub stores
the commands as audited events)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.knockout.choice import WALK_OVER, ChoiceProcedure, Contender

Command = tuple[str, ...]


def start(kind: str, teams: list[Contender], rules: list[str]) -> ChoiceProcedure:
    if kind == "listed":
        half = len(teams) // 2
        return ChoiceProcedure.listed(teams[:half], teams[half:])
    if kind == "rank":
        return ChoiceProcedure.by_rank(teams, rules)
    return ChoiceProcedure.top_half(teams)


def apply(proc: ChoiceProcedure, command: Command) -> ChoiceProcedure:
    verb, *args = command
    if verb == "choose":
        return proc.choose(args[0], args[1])
    step = {
        "absent": proc.absent,
        "arrived": proc.arrived,
        "withdraw": proc.withdraw,
    }.get(verb)
    return proc.close() if step is None else step(args[0])


@st.composite
def procedures(draw: st.DrawFn) -> tuple[str, list[Contender], list[str]]:
    kind = draw(st.sampled_from(["listed", "rank", "top_half"]))
    rules: list[str] = []
    if kind == "rank" and draw(st.booleans()):
        n = draw(st.sampled_from([4, 8]))
        lands = draw(st.lists(st.sampled_from("PQR"), min_size=n, max_size=n))
        if n == 8 and max(Counter(lands).values()) > 4:
            lands = ["PQR"[i % 3] for i in range(n)]
        rules = ["same_country"]
    else:
        n = 2 * draw(st.integers(1, 6))
        lands = [""] * n
    ranks = draw(st.lists(st.integers(1, 20), min_size=n, max_size=n))
    return (
        kind,
        [Contender(f"T{i}", r, c) for i, (r, c) in enumerate(zip(ranks, lands, strict=True))],
        rules,
    )


@settings(max_examples=300, deadline=None)
@given(procedures(), st.data())
def test_any_allowed_commands_end_with_every_team_in_one_pair(
    setup: tuple[str, list[Contender], list[str]], data: st.DataObject
) -> None:
    """Every team not withdrawn is in exactly one pair (a walk over counts as a pair),
    the listed choosers each choose one pool team, and a replay gives the same pairs."""
    kind, teams, rules = setup
    proc = start(kind, teams, rules)
    log: list[Command] = []
    side_steps = 0
    while not proc.done:
        moves: list[Command] = []
        turn = proc.next_chooser()
        if turn is not None:
            moves += [("choose", turn.team, c.team) for c in proc.options()]
        else:
            moves.append(("close",))
        if side_steps < 6:
            paired = {t for pair in proc.pairs for t in pair}
            free = [c.team for c in teams if c.team not in paired]
            moves += [("arrived", c.team) for c in proc.waiting]
            if turn is not None:
                moves.append(("absent", turn.team))
            if kind == "top_half" and len(proc.withdrawals) < 2:
                moves += [("withdraw", t) for t in free if t not in proc.withdrawals]
        command = data.draw(st.sampled_from(moves))
        side_steps += command[0] not in ("choose", "close")
        proc = apply(proc, command)
        log.append(command)

    seen = Counter(t for pair in proc.pairs for t in pair if t != WALK_OVER)
    live = {c.team for c in teams} - proc.withdrawals
    assert set(seen) == live and set(seen.values()) == {1}
    if kind == "listed":
        choosers = {c.team for c in teams[: len(teams) // 2]}
        assert all((a in choosers) != (b in choosers) for a, b in proc.pairs)
    replayed = start(kind, teams, rules)
    for command in log:
        replayed = apply(replayed, command)
    assert replayed.pairs == proc.pairs


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("PQ"), min_size=8, max_size=8), st.data())
def test_seed001_qf_compatriots_play_each_other_as_the_rule_asks(
    lands: list[str], data: st.DataObject
) -> None:
    """Seed 001 QF: with 3 quarter-finalists of one country at least one pair is theirs,
    with 4 two pairs, whatever the allowed choices (countries P and Q, 4 of each at most)."""
    counts = Counter(lands)
    if max(counts.values()) > 4:
        lands = ["P", "Q"] * 4
        counts = Counter(lands)
    teams = [Contender(f"{c}{r}", r, c) for r, c in enumerate(lands, start=1)]
    proc = ChoiceProcedure.by_rank(teams, ["same_country"])
    while not proc.done:
        turn = proc.next_chooser()
        assert turn is not None
        proc = proc.choose(turn.team, data.draw(st.sampled_from(proc.options())).team)
    within = Counter(a[0] for a, b in proc.pairs if a[0] == b[0])
    for land, n in counts.items():
        assert within[land] >= {3: 1, 4: 2}.get(n, 0)
