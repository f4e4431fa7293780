"""Results: who accepted a held result (the director; the terminal stays its author in
``entered_by``), and room in ``adjusted`` for a weighted score (Law 12C1(c): up to six
results with their weights, e.g. ``1/2 4S N =; 1/2 4S N -1``).

Revision ID: 0005
Revises: 0004
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("results") as batch_op:
        batch_op.add_column(sa.Column("accepted_by", sa.String(length=64), nullable=True))
        batch_op.alter_column(
            "adjusted",
            existing_type=sa.String(length=20),
            type_=sa.String(length=160),
            existing_nullable=True,
        )


def downgrade() -> None:
    with op.batch_alter_table("results") as batch_op:
        batch_op.alter_column(
            "adjusted",
            existing_type=sa.String(length=160),
            type_=sa.String(length=20),
            existing_nullable=True,
        )
        batch_op.drop_column("accepted_by")
