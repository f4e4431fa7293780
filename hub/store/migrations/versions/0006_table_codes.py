"""Table codes for browser terminals (issue 15, docs/web-terminal.md "Table codes"): one code
per table of an event, unique per table so that two hubs making codes at once never give a
table two; the device that used it up and when.

Revision ID: 0006
Revises: 0005
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "table_codes",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("event_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("section", sa.String(length=3), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=8), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("used_by", sa.String(length=64), nullable=True),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "section", "table_no", name="uq_table_code_table"),
    )


def downgrade() -> None:
    op.drop_table("table_codes")
