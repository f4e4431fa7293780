"""``python -m campaign``: the same as ``bridgehub campaign``."""

from campaign.cli import campaign

campaign()
