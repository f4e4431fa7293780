"""``bridgehub screen``: the barometer display for a projector, read from the store."""
