"""Matrix rows for security URLs."""

from tests.matrix.base import Row

ROWS: dict[str, Row] = {}
