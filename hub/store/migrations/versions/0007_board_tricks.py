"""The double-dummy tricks a hand-record file carries (issue 25 [MENDS]: PBN
``DoubleDummyTricks``, 20 hex digits), kept with each board's deal so the hub never solves
a deal the file has already solved. Empty for the boards of older stores: those are solved.

Revision ID: 0007
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("boards") as batch:
        batch.add_column(sa.Column("tricks", sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("boards") as batch:
        batch.drop_column("tricks")
