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

import csv
import datetime as dt
import io
import zipfile
from dataclasses import dataclass, field

from django.conf import settings
from django.utils.translation import gettext

#: What the row-by-row report calls a formula cell.
FORMULA = "formula"


class FileRefused(Exception):
    """The file cannot be read at all; the message says why, in words."""


@dataclass
class Table:
    headings: list[str]
    #: (row number as the admin sees it in their spreadsheet, {heading: text}).
    rows: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    #: (row number, heading): cells that held a formula (kept out of ``rows``' values).
    formulas: list[tuple[int, str]] = field(default_factory=list)


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
    if not data.strip():
        raise FileRefused(gettext("The file is empty."))
    raw_rows = _xlsx_rows(data) if fmt == "xlsx" else _csv_rows(data)
    return _table(raw_rows)


def _decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise FileRefused(
                gettext(
                    "The file's text encoding could not be read: save it as “CSV UTF-8” and "
                    "upload it again."
                )
            ) from None
    if "\x00" in text:
        raise FileRefused(gettext("This is not a CSV file: save it as “CSV UTF-8”."))
    return text


def _csv_rows(data: bytes) -> list[list[object]]:
    text = _decode(data)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","
    try:
        return [
            list(r)
            for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
        ]
    except csv.Error:
        raise FileRefused(
            gettext("The file is not a well-formed CSV file (a quote is left open?).")
        ) from None


def _xlsx_rows(data: bytes) -> list[list[object]]:
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
    rows: list[list[object]] = []
    for row in sheet.iter_rows():
        cells: list[object] = []
        for cell in row:
            if cell.data_type == "f" or (
                isinstance(cell.value, str) and cell.value.startswith("=")
            ):
                cells.append(_Formula())
            else:
                cells.append(cell.value)
        rows.append(cells)
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


def _table(raw_rows: list[list[object]]) -> Table:
    numbered = [
        (n, r)
        for n, r in enumerate(raw_rows, start=1)
        if any(_text(c) for c in r if not isinstance(c, _Formula))
        or any(isinstance(c, _Formula) for c in r)
    ]
    if not numbered:
        raise FileRefused(gettext("The file has no rows."))
    header_number, header = numbered[0]
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
    table = Table(headings=[h for h in headings])
    body = numbered[1:]
    if len(body) > max_rows():
        raise FileRefused(
            gettext("The file has more than %(n)s rows: split it into smaller batches.")
            % {"n": max_rows()}
        )
    for number, raw in body:
        values: dict[str, str] = {}
        for index, heading in enumerate(headings):
            if not heading:
                continue
            cell = raw[index] if index < len(raw) else None
            if isinstance(cell, _Formula):
                table.formulas.append((number, heading))
                values[heading] = ""
                continue
            text = _text(cell)
            if text.startswith("="):
                table.formulas.append((number, heading))
                text = ""
            values[heading] = text
        table.rows.append((number, values))
    return table
