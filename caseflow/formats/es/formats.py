# Spanish writes month abbreviations in lower case ("7 dic 2026"): "b", not "M" (which capitalises).
DATE_FORMAT = "j b Y"
DATETIME_FORMAT = "j b Y H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j b"
YEAR_MONTH_FORMAT = "F Y"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
FIRST_DAY_OF_WEEK = 1
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
NUMBER_GROUPING = 3
# The day in full words, read back before a dated record is saved ("martes 1 de diciembre de 2026").
SPOKEN_DATE_FORMAT = r"l j \d\e F \d\e Y"
