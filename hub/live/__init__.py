"""The live service of ``bridgehub run``: small parts wired by one composition root
(decisions D17), in folders by job; ``docs/hub.md`` maps them.

``FOLDERS`` lists the folders in import order: each may import only the folders before it
(``tests/house/test_live_folders.py`` holds it, and each folder's docstring says so).
"""

FOLDERS = (
    "oversight",
    "views",
    "port",
    "rounds",
    "teams",
    "results",
    "knockout",
    "desk",
    "tables",
    "service",
)
