"""``bridgehub screen``: the barometer for a projector, a client of the hub's feed."""
