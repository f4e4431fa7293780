"""Knockout sections (issue [KNOCKOUT], decisions D23): each match decided by the event's
rule as its last board comes in, an extension appended for a level match, the bracket
followed to the next round (proposed to the director, or out at once), the director's
choices of opponent and walk-overs, and the bracket as the console and the screens see it.

May import: ``oversight``, ``views``, ``port``, ``rounds``, ``teams``, ``results``.
"""
