"""The fault campaign (issue 12 [FAULTS]): the simulator against ``bridgehub run`` in
separate processes, with every fault at once, and the figures that prove nothing was lost."""
