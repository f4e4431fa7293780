"""A result from its submission to its score: intake (who may submit, accepted, held,
duplicate or refused), the writer's group commit, rescoring and suspicious scores, a
terminal's NO PLAY, the hand records (do they fit the boards played, double dummy, shown at
the table), and what the store holds when the hub starts.

May import: ``oversight``, ``views``, ``port``, ``rounds``, ``teams``.
"""
