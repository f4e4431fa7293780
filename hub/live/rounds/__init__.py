"""The rounds of each section: the round controllers (pure state machines), the round
clock and its log, what a round's end leads to (publication of standings, the session's
end), and slow play.

May import: ``oversight``, ``views``, ``port``.
"""
