"""Matrix rows for safety URLs."""

from tests.matrix.base import Row

ROWS: dict[str, Row] = {}
