"""What the hub does with each table's request: log-ons and takeovers, results and
erasures, verification by the opponents, member numbers, the device register, and the
tables that fall silent.

May import: ``oversight``, ``views``, ``port``, ``rounds``, ``teams``, ``results``,
``knockout``, ``desk``.
"""
