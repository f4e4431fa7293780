"""The printed report (ranking, travellers, personal score cards) and the evening's final
outputs: ``build`` makes the report model from the store, ``render`` turns it into HTML and
PDF, ``final`` writes every output into one folder."""
