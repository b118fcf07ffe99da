"""Reading a file a row at a time: every way a spreadsheet ends its lines, rows walked again
alike, and a check whose memory does not grow with the file beyond the file itself."""

import datetime as dt

import pytest
import time_machine

from bench.harness import peak_memory
from caseflow.imports import reader, rows, sample
from caseflow.imports.template import FIELD_KEYS

NOW = dt.datetime(2026, 11, 2, 10, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize("ending", ["\r\n", "\n", "\r"])
def test_every_line_ending_and_a_cell_over_two_lines(ending):
    text = ending.join(
        [
            "source_id,summary",
            "A-1,One line",
            "",
            'A-2,"Two' + ending + 'lines"',
            "A-3,Last line with no ending",
        ]
    )
    table = reader.read(text.encode("utf-8"), "csv")
    assert table.headings == ["source_id", "summary"]
    assert len(table) == 3
    found = [(row.number, row.values["source_id"], row.values["summary"]) for row in table]
    assert found == [
        (2, "A-1", "One line"),
        (4, "A-2", "Two" + ending + "lines"),
        (5, "A-3", "Last line with no ending"),
    ]


def test_rows_are_read_again_alike_and_formulas_are_kept_out():
    table = reader.read(b"\xef\xbb\xbfsource_id,summary\nA-1,=1+1\nA-2,fine\n", "csv")
    first, second = list(table), list(table)
    assert first == second
    assert first[0].values["summary"] == "" and first[0].formulas == {"summary"}
    assert first[1].values["summary"] == "fine" and not first[1].formulas


def test_a_quote_left_open_anywhere_is_refused_when_the_file_is_read():
    body = "".join(f"A-{i},fine\n" for i in range(500))
    with pytest.raises(reader.FileRefused, match="well-formed"):
        reader.read(f'source_id,summary\n{body}A-x,"open\n'.encode(), "csv")


def test_reading_holds_no_more_for_a_longer_file():
    def walk(data: bytes) -> int:
        return sum(1 for _row in reader.read(data, "csv"))

    short = sample.sample_csv(500, team="Team 1", advocate="assigned", today=NOW.date())
    long = sample.sample_csv(2000, team="Team 1", advocate="assigned", today=NOW.date())
    assert walk(short) == 500 and walk(long) == 2000
    grew = peak_memory(lambda: walk(long)) - peak_memory(lambda: walk(short))
    # Four times the rows, hundreds of KiB more file: what is held beyond the file's own bytes
    # (made before the measure) is a row and the decoder's buffer either way.
    assert len(long) - len(short) > 500 * 1024
    assert grew < 64 * 1024, grew


def test_checking_holds_no_more_for_a_longer_file(cast, monkeypatch):
    mapping = {k: k for k in FIELD_KEYS}
    # Every ten rows rather than every hundred, for files short enough for a test.
    monkeypatch.setattr(rows, "COLLECT_EVERY", 10)

    def check(data: bytes) -> rows.Checked:
        return rows.check(reader.read(data, "csv"), mapping, agency_id=cast.agency.pk)

    checked: dict[str, rows.Checked] = {}
    with time_machine.travel(NOW, tick=False):
        short = sample.sample_csv(20, team="Team 1", advocate="assigned", today=NOW.date())
        long = sample.sample_csv(80, team="Team 1", advocate="assigned", today=NOW.date())
        check(short)  # the first check reads what every later one finds cached
        grew = peak_memory(lambda: checked.update(long=check(long))) - peak_memory(
            lambda: checked.update(short=check(short))
        )
    assert checked["short"].counts()["valid"] == 20
    assert checked["long"].counts()["valid"] == 80
    # Sixty rows more: each checked row once stayed until the end (some 50 KiB a row, then the
    # reference cycles its forms leave, some 37 KiB); now only its id and a keyed digest of the
    # survivor's name stay, to find rows that repeat.
    assert grew < 60 * 2 * 1024, grew
