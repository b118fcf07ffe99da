"""PostgreSQL connections run without the JIT compiler (caseflow's queries are short and
indexed; at the stretch tier the JIT cost more than the dashboard's query itself)."""

import pytest
from django.db import connection


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL setting")
def test_postgresql_connections_have_jit_off(db):
    with connection.cursor() as cur:
        cur.execute("SHOW jit")
        assert cur.fetchone()[0] == "off"
