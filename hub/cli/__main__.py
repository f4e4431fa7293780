"""``python -m hub.cli``: the command line (textual-serve runs the result screen this way)."""

from hub.cli.main import main

main()
