"""Knockouts (issue [KNOCKOUT], decisions D19 and D23): pure rules, written like the rest
of ``scoring/`` (no I/O, exact numbers, every lot from a recorded seed).

- ``bracket``: a bracket as data (matches, their slots, where winners and losers go);
  ``bracket_check`` refuses one that cannot work; ``routing`` follows the results through
  it to the next matches and the final places.
- ``seeding``: seed 003's seeded 2^k bracket by team Elo, with byes.
- ``ko_match``: a match in IMPs over its segments and carry-over, and its tie rules.
- ``choice``: choosing an opponent (by rank, by table slot, by match number), inherited
  ranking, absent choosers.
- ``seating``: who sits second in each segment.
- ``templates``: the brackets of the seeds (single elimination with a third place,
  seed 000's double elimination, a stepladder with a losers' ladder).
"""
