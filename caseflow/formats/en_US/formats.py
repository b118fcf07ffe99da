DATE_FORMAT = "M j, Y"
DATETIME_FORMAT = "M j, Y g:i A"
TIME_FORMAT = "g:i A"
MONTH_DAY_FORMAT = "M j"
YEAR_MONTH_FORMAT = "F Y"
SHORT_DATE_FORMAT = "m/d/Y"
SHORT_DATETIME_FORMAT = "m/d/Y g:i A"
FIRST_DAY_OF_WEEK = 0
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
# The day in full words, read back before a dated record is saved ("Tuesday, December 1, 2026").
SPOKEN_DATE_FORMAT = "l, F j, Y"
