"""The event model: the event file, movements, hand records, traveller and VP-table files,
and result keys. Pure data and checks; the store and the live service build on it."""
