DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j M"
YEAR_MONTH_FORMAT = "F Y"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
FIRST_DAY_OF_WEEK = 1
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
# The day in full words, read back before a dated record is saved ("Tuesday 1 December 2026").
SPOKEN_DATE_FORMAT = "l j F Y"
