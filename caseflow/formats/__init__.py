"""Dates, times and numbers as each of caseflow's languages writes them (FORMAT_MODULE_PATH).

Templates name the format (``date:"DATE_FORMAT"``), never spell it, so a US agency reads
"Dec 1, 2026, 9:30 AM" where a UK one reads "1 Dec 2026 09:30"."""
