"""Round-clock displays: what to show, and the protocols of the signs that show it."""
