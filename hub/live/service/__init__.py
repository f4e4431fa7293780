"""The composition root of ``bridgehub run``: ``HubService`` builds every part, wires them
through narrow interfaces and runs their tasks (``hub_parts`` builds each group of parts);
the warm start, the hub lock's watch, the API's snapshot and devices read, and the closing
of the parts at the stop.

May import: every folder of ``hub.live``; nothing of ``hub.live`` imports it.
"""
