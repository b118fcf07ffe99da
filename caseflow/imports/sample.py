"""Fictional caseloads in the template's shape: the demo's sample file, the browser test's
200-case file and the benchmark's N-case files. Every name is invented and marked as such.
"""

from __future__ import annotations

import csv
import datetime as dt
import io

from caseflow.imports.template import FIELD_KEYS

FIRST = ("Robin", "Alex", "Sam", "Jo", "Charlie", "Kit", "Morgan", "Ashley", "Jamie", "Rowan")
LAST = ("Example", "Sample", "Placeholder", "Fiction", "Demo", "Pretend", "Madeup", "Notreal")


def rows(
    n: int,
    *,
    team: str,
    advocate: str,
    today: dt.date,
    errors: int = 0,
    prefix: str = "OLD",
) -> list[dict[str, str]]:
    """``n`` fictional cases; the first ``errors`` of every 50 rows carry one deliberate error
    each (a date of birth in the future, an unknown risk level, a check-in outside the safe
    times, a note with no text), in turn."""
    out = []
    for i in range(n):
        first, last = FIRST[i % len(FIRST)], LAST[(i // len(FIRST)) % len(LAST)]
        born = dt.date(1970 + i % 35, 1 + i % 12, 1 + i % 28)
        row = dict.fromkeys(FIELD_KEYS, "")
        checkin_day = today + dt.timedelta(days=7 + i % 5)
        row.update(
            source_id=f"{prefix}-{i + 1:05d}",
            team=team,
            advocate=advocate,
            summary=f"Fictional referral number {i + 1}.",
            survivor_full_name=f"{first} {last} {i + 1} (fictional)",
            survivor_date_of_birth=born.isoformat(),
            other_full_name=f"Other party {i + 1} (fictional)",
            safe_timezone="Europe/London",
            safe_channels="text,phone",
            safe_times="Mon-Sun 09:00-18:00",
            voicemail_safe="no",
            safe_phone="07700 900" + f"{i % 1000:03d}",
            code_word="blue umbrella",
            risk_level=("standard", "medium", "high")[i % 3],
            risk_source="Assessment in the earlier system",
            risk_date=(today - dt.timedelta(days=30 + i % 20)).isoformat(),
            followup_kind="task",
            followup_due=(today + dt.timedelta(days=14)).isoformat() + " 10:00",
            followup_details="Call back about housing",
            checkin_date=checkin_day.isoformat(),
            checkin_time="10:30",
            checkin_channel="text",
            note_1_date=(today - dt.timedelta(days=60)).isoformat(),
            note_1_text=f"First contact with case {i + 1}: referral discussed.",
            note_2_date=(today - dt.timedelta(days=20)).isoformat(),
            note_2_text="Safety plan talked through; she chose text messages.",
        )
        if i % 4 == 0:
            row.update(
                order_court="Family court (fictional)",
                order_reference=f"FC-{i + 1}",
                order_granted=(today - dt.timedelta(days=40)).isoformat(),
                order_expires=(today + dt.timedelta(days=140)).isoformat(),
            )
        if i % 50 < errors:
            kind = (i % 50) % 4
            if kind == 0:
                row["survivor_date_of_birth"] = (today + dt.timedelta(days=30)).isoformat()
            elif kind == 1:
                row["risk_level"] = "very worried"
            elif kind == 2:
                row["checkin_time"] = "23:30"
            else:
                row["note_1_text"] = ""
        out.append(row)
    return out


def to_csv(data: list[dict[str, str]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(FIELD_KEYS))
    writer.writeheader()
    writer.writerows(data)
    return buffer.getvalue().encode("utf-8")


def sample_csv(n: int, **kwargs) -> bytes:
    return to_csv(rows(n, **kwargs))
