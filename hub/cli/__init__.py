"""The ``bridgehub`` command line: one module per command group (``main`` gathers them)."""
