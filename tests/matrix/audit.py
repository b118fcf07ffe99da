"""Matrix rows for audit URLs."""

from tests.matrix.base import Row

ROWS: dict[str, Row] = {}
