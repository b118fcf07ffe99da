"""Matrix rows for checkins URLs."""

from tests.matrix.base import Row

ROWS: dict[str, Row] = {}
