"""Virtual base stations, terminals, clocks and player bots speaking the hub's wire protocol."""
