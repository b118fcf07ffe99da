"""The ``pid`` URL converter: a record's random public id, the only id that appears in a URL.
Registered once, when the cases app is ready (before any URL conf is read)."""


class PublicIdConverter:
    regex = r"[A-Za-z0-9_-]{16,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
