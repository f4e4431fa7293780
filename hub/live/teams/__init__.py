"""Team sections: the next round's draw (Swiss, Danish, Monrad), its edits and a team's
withdrawal, the round's matches, and what a match's tables see beyond their own board.

May import: ``oversight``, ``views``, ``port``, ``rounds``.
"""
