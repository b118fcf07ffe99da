"""Writing a value into a CSV cell that a spreadsheet will open: a cell that starts like a
formula (=, +, -, @, a tab or a carriage return) is prefixed with an apostrophe, so a value typed
into caseflow can never run as a formula on an auditor's or a funder's machine (CSV injection)."""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text
