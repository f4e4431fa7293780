"""Penalties: both sides of the table, and who pays (the TD sets it when confirming:
NS, EW, both or shared).

Revision ID: 0003
Revises: 0002
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("penalties") as batch_op:
        batch_op.add_column(sa.Column("payer", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("other_contestant", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("penalties") as batch_op:
        batch_op.drop_column("other_contestant")
        batch_op.drop_column("payer")
