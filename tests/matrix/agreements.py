"""Matrix rows for agreements URLs."""

from tests.matrix.base import Row

ROWS: dict[str, Row] = {}
