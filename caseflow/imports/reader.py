"""Reading an uploaded file into rows, refusing what cannot be read safely.

A file is a table: the first non-blank row holds the headings, every later non-blank row is one
case. CSV is read as UTF-8 (with or without a byte-order mark), else as Windows-1252 (what Excel
on Windows saves). XLSX is read with openpyxl, without evaluating anything: a cell holding a
formula is reported and its row refused (its value is whatever the formula would compute, which
caseflow never does); dates in cells are read as dates. In a CSV a cell starting with ``=`` is
a formula typed for a spreadsheet: refused the same way. Nothing here raises on a bad file but
:class:`FileRefused`, whose message is shown to the admin.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext

#: What the row-by-row report calls a formula cell.
FORMULA = "formula"


class FileRefused(Exception):
    """The file cannot be read at all; the message says why, in words."""


@dataclass(frozen=True)
class Row:
    #: The row's number as the admin sees it in their spreadsheet.
    number: int
    #: {heading: text}; a formula cell is "" here and its heading is in ``formulas``.
    values: dict[str, str]
    #: The headings of the cells in this row that held a formula (never evaluated, never kept).
    formulas: frozenset[str] = frozenset()


class Table:
    """A file's headings and how many rows it has. The rows are read from the file again each
    time they are walked, one at a time, so a check holds the file and one row, never every row
    (the memory of a check does not grow with the file beyond the file itself)."""

    def __init__(
        self,
        headings: list[str],
        count: int,
        header: int,
        raw: Callable[[], Iterable[list[object]]],
    ) -> None:
        self.headings = headings
        self.count = count
        self._header = header
        self._raw = raw

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Row]:
        for number, raw in _numbered(self._raw()):
            if number <= self._header:
                continue
            yield _row(number, raw, self.headings)


def max_bytes() -> int:
    return int(getattr(settings, "IMPORT_MAX_BYTES", 10 * 1024 * 1024))


def max_rows() -> int:
    return int(getattr(settings, "IMPORT_MAX_ROWS", 20000))


def file_format(name: str) -> str:
    lower = (name or "").lower()
    if lower.endswith(".xlsx"):
        return "xlsx"
    if lower.endswith(".csv") or lower.endswith(".txt"):
        return "csv"
    raise FileRefused(gettext("Upload a .csv or .xlsx file (the template's formats)."))


def read(data: bytes, fmt: str) -> Table:
    if len(data) > max_bytes():
        raise FileRefused(
            gettext("The file is larger than %(mb)s MB: split it into smaller batches.")
            % {"mb": max_bytes() // (1024 * 1024)}
        )
    if not data or data.isspace():  # (strip() would copy the file)
        raise FileRefused(gettext("The file is empty."))
    raw = _xlsx_rows(data) if fmt == "xlsx" else _csv_rows(data)
    return _table(raw)


#: How much of the file is decoded at a time while its encoding is checked.
_CHUNK = 64 * 1024


def _encoding(data: bytes) -> tuple[str, int]:
    """The file's text encoding and where its text starts (after a byte-order mark): UTF-8,
    else Windows-1252. Checked a piece at a time, so no decoded copy of the file is held."""
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    view = memoryview(data)[start:]
    for encoding in ("utf-8", "cp1252"):
        decoder = codecs.getincrementaldecoder(encoding)()
        try:
            for offset in range(0, len(view), _CHUNK):
                if "\x00" in decoder.decode(view[offset : offset + _CHUNK]):
                    raise FileRefused(gettext("This is not a CSV file: save it as “CSV UTF-8”."))
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            continue
        return encoding, start
    raise FileRefused(
        gettext(
            "The file's text encoding could not be read: save it as “CSV UTF-8” and upload it "
            "again."
        )
    )


def _csv_rows(data: bytes) -> Callable[[], Iterable[list[object]]]:
    encoding, start = _encoding(data)

    def text() -> io.TextIOWrapper:
        # Lines with their own endings, as the csv module expects (newline=""), decoded as
        # they are read: the file's bytes are shared, not copied.
        stream = io.BytesIO(data)
        stream.seek(start)
        return io.TextIOWrapper(stream, encoding=encoding, newline="")

    try:
        dialect = csv.Sniffer().sniff(text().read(4096), delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","

    def rows() -> Iterator[list[object]]:
        # ``_table`` walks the rows once to count them: a file that is not well-formed is
        # refused there, before anything else reads it.
        try:
            for r in csv.reader(text(), delimiter=delimiter, strict=True):
                yield list(r)
        except csv.Error:
            raise FileRefused(
                gettext("The file is not a well-formed CSV file (a quote is left open?).")
            ) from None

    return rows


def _xlsx_rows(data: bytes) -> Callable[[], Iterable[list[object]]]:
    from openpyxl import load_workbook

    try:
        # Not read-only: read-only mode cannot tell a formula cell from its cached value.
        book = load_workbook(io.BytesIO(data), data_only=False, read_only=False)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, EOFError):
        raise FileRefused(
            gettext("The spreadsheet could not be read: it may be damaged or cut short.")
        ) from None
    except Exception:  # openpyxl raises many kinds on a damaged file
        raise FileRefused(
            gettext("The spreadsheet could not be read: it may be damaged or cut short.")
        ) from None
    sheet = book.worksheets[0]

    def rows() -> Iterator[list[object]]:
        for row in sheet.iter_rows():
            yield [
                _Formula()
                if cell.data_type == "f"
                or (isinstance(cell.value, str) and cell.value.startswith("="))
                else cell.value
                for cell in row
            ]

    return rows


class _Formula:
    """A cell that held a formula: never evaluated, never kept."""


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0, 0):
            return value.date().isoformat()
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        return value.strftime("%H:%M")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _blank(raw: list[object]) -> bool:
    return not any(isinstance(c, _Formula) or _text(c) for c in raw)


def _numbered(raw_rows: Iterable[list[object]]) -> Iterator[tuple[int, list[object]]]:
    """The non-blank rows with their numbers as a spreadsheet shows them."""
    for number, raw in enumerate(raw_rows, start=1):
        if not _blank(raw):
            yield number, raw


def _table(raw: Callable[[], Iterable[list[object]]]) -> Table:
    """Read the headings and count the rows (refusing a file that is not well-formed, or too
    long, as it goes); the rows themselves are not kept."""
    numbered = _numbered(raw())
    first = next(numbered, None)
    if first is None:
        raise FileRefused(gettext("The file has no rows."))
    header_number, header = first
    headings = [_text(c) if not isinstance(c, _Formula) else "" for c in header]
    while headings and not headings[-1]:
        headings.pop()
    if not any(headings):
        raise FileRefused(gettext("The first row must hold the column headings."))
    seen: set[str] = set()
    for h in headings:
        if h and h in seen:
            raise FileRefused(
                gettext("Two columns have the same heading: give each column its own.")
            )
        seen.add(h)
    count = 0
    for _row_number in numbered:
        count += 1
        if count > max_rows():
            raise FileRefused(
                gettext("The file has more than %(n)s rows: split it into smaller batches.")
                % {"n": max_rows()}
            )
    return Table(headings, count, header_number, raw)


def _row(number: int, raw: list[object], headings: list[str]) -> Row:
    values: dict[str, str] = {}
    formulas: set[str] = set()
    for index, heading in enumerate(headings):
        if not heading:
            continue
        cell = raw[index] if index < len(raw) else None
        text = "" if isinstance(cell, _Formula) else _text(cell)
        if isinstance(cell, _Formula) or text.startswith("="):
            formulas.add(heading)
            text = ""
        values[heading] = text
    return Row(number, values, frozenset(formulas))
