"""The live service of ``bridgehub run``: small parts wired by one composition root
(decisions D17); ``docs/hub.md`` maps them."""
