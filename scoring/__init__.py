"""Pure scoring for duplicate bridge: contract scores, IMPs, VPs, matchpoints, IMP pairs,
standings, team matches and penalty scales. No I/O, no clock, no database.

Exact values (matchpoints, percentages, IMP averages, VPs) are ``fractions.Fraction`` or
integers; rounding happens only for display (``scoring.numbers``).
"""
