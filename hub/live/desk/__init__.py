"""The director's desk: the director's commands, each part given only what it needs, the
desk's lists (held results, boards not played, travellers) and the director's entries, and
the pairs directory and names a command changes.

May import: ``oversight``, ``views``, ``port``, ``rounds``, ``teams``, ``results``,
``knockout``.
"""
