"""Optimistic concurrency: a save that started from an old version is refused, never overwrites.

Every versioned record (a case, a person, a safe-contact profile, a plan, an agreement, a
follow-up) raises :class:`StaleEdit` when someone else saved it after this user opened it. The
message says so in the same plain words everywhere; nothing was written.
"""

from __future__ import annotations


class StaleEdit(Exception):
    """Someone saved the ``what`` after this user opened it; nothing was written."""

    def __init__(self, what: str = "record") -> None:
        self.what = what
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return (
            f"Someone else changed this {self.what} after you opened it. "
            "Nothing was saved: reload to see their changes."
        )
