"""What watches over every part of the live service: the director's alerts, the audit
trail, the supervisor of the parts' tasks, and the fault campaign's crash points.

May import: nothing else of ``hub.live`` (every other folder imports this one).
"""
