"""The terminal port (decisions D18): the domain requests every kind of terminal sends
and the views the hub sends back, the base-station adapter (the only part of the live
service that knows wire codes), and the gateway (which terminal holds which table, and
every send to the tables).

May import: ``oversight``, ``views``.
"""
