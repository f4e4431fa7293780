"""Top-down pairing without repeats, as a minimum-cost perfect matching.

The draw is the perfect matching of the standing (best first) that (1) repeats as few
earlier meetings as possible, and then (2) gives the top team the highest-placed opponent
it can have, then the next unpaired team, and so on down ("top-down with backtracking").
That order is the minimum of the cost ``pair_cost`` below, summed over the matches: a
repeat outweighs every other term, and each team's term outweighs all the terms of the
teams below it. ``top_down_pairs`` finds that minimum exactly without building the whole
weighted graph: it takes each top team's best opponent for which the rest can still be
paired with the fewest repeats, and asks networkx (a maximum matching of the teams that
have not met) only when a simple degree bound (Dirac) cannot already tell that they can.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence

import networkx as nx


def pair_cost(i: int, j: int, repeat: bool, n: int) -> int:
    """The cost of a match between the teams placed ``i`` < ``j`` (0-based) of ``n``.

    With base ``n + 1``, the term of place ``i`` is larger than the terms of every team
    below it together, and a repeat larger than all of them: minimising the sum is the
    top-down order (proof in the module docstring's terms: Σ_{i>k} (n+1)^(n-1-i)·n <
    (n+1)^(n-1-k)).
    """
    base = n + 1
    return (base**n if repeat else 0) + base ** (n - 1 - i) * (j - i - 1)


class _Field:
    """The unpaired teams (indices in standing order) and who has met whom among them."""

    def __init__(self, n: int, met: list[set[int]]) -> None:
        self.met = met
        self.left = list(range(n))
        self.in_left = [True] * n
        self.count = [len(m) for m in met]  # meetings with teams still unpaired

    def remove(self, *teams: int) -> None:
        for t in teams:
            self.in_left[t] = False
        self.left = [t for t in self.left if self.in_left[t]]
        for t in teams:
            for o in self.met[t]:
                self.count[o] -= 1

    def fewest_repeats(self, teams: Sequence[int], minus: tuple[int, ...] = ()) -> int:
        """The fewest repeats a perfect matching of ``teams`` (without ``minus``) needs."""
        size = len(teams) - len(minus)
        if size == 0:
            return 0
        gone = set(minus)
        # Dirac: if every team can meet at least half of the others, a new opponent for
        # every team exists (a Hamiltonian cycle, hence a perfect matching)
        worst = max(
            self.count[v] - sum(1 for g in gone if g in self.met[v]) for v in teams if v not in gone
        )
        if worst <= size // 2 - 1:
            return 0
        rest = [v for v in teams if v not in gone]
        graph = nx.Graph()
        graph.add_nodes_from(rest)
        graph.add_edges_from(
            (u, v) for a, u in enumerate(rest) for v in rest[a + 1 :] if v not in self.met[u]
        )
        return size // 2 - len(nx.max_weight_matching(graph, maxcardinality=True))


def top_down_pairs(
    order: Sequence[str], met: Collection[frozenset[Hashable]]
) -> tuple[list[tuple[str, str]], int]:
    """Matches in table order (each as (higher-placed, lower-placed)) and their repeats.

    ``order`` is the standing, best first, with an even number of teams; ``met`` holds
    every earlier meeting as a two-team frozenset.
    """
    n = len(order)
    if n % 2:
        raise ValueError(f"{n} teams: give the bye before pairing")
    index = {t: i for i, t in enumerate(order)}
    met_idx: list[set[int]] = [set() for _ in range(n)]
    for pair in met:
        a, b = tuple(pair) if len(pair) == 2 else (None, None)
        if a in index and b in index:
            met_idx[index[a]].add(index[b])
            met_idx[index[b]].add(index[a])
    field = _Field(n, met_idx)
    budget = field.fewest_repeats(field.left)
    pairs: list[tuple[int, int]] = []
    while field.left:
        top = field.left[0]
        for j in field.left[1:]:
            repeat = 1 if j in met_idx[top] else 0
            if repeat <= budget and field.fewest_repeats(field.left, (top, j)) <= budget - repeat:
                break
        else:  # pragma: no cover - the budget guarantees a feasible opponent
            raise AssertionError("no opponent within the repeat budget")
        budget -= repeat
        pairs.append((top, j))
        field.remove(top, j)
    repeats = sum(1 for a, b in pairs if b in met_idx[a])
    return [(order[a], order[b]) for a, b in pairs], repeats
