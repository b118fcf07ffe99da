"""Risk-assessment instruments as data, and the arithmetic that scores them.

An instrument is a YAML (or JSON) document: items with weights, score thresholds for the bands
``standard`` / ``medium`` / ``high``, the band that an escalating item forces, and how often to
re-assess. This module is pure Python: it reads and validates instrument files, scores a set of
answers and applies a professional-judgement override. Storing assessments is someone else's job.

* :func:`load_instrument` / :func:`validate_instrument` turn a file or a mapping into an
  :class:`Instrument`, or raise :class:`InstrumentError` listing *every* problem found.
* :meth:`Instrument.with_thresholds` gives an agency its own band thresholds.
* :func:`score` turns answers into a :class:`Result`; :func:`effective_band` applies an override.

Licensed instruments (DASH, Danger Assessment, ...) are imported by an agency under its own
licence; the project ships only its own sample and a placeholder template (``SHIPPED_DIR``).

Note: the directory ``instruments/`` next to this module holds data files only and must never get an
``__init__.py`` - a regular package of the same name would shadow this module on import.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Literal

import yaml

#: The band ids the app uses for a case's risk level (``caseflow.cases.models.RiskLevel``, minus
#: "unknown"), from least to most severe.
BAND_IDS: tuple[str, ...] = ("standard", "medium", "high")

#: How an instrument turns answers into a score.
SCORING_METHODS: tuple[str, ...] = ("weighted", "yes_count")

#: Where the instruments shipped with caseflow live.
SHIPPED_DIR: Path = Path(__file__).with_name("instruments")

_INSTRUMENT_FILE_SUFFIXES = (".yaml", ".yml", ".json")
_SLUG = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")

_TOP_REQUIRED = (
    "id",
    "name",
    "version",
    "licence",
    "scoring",
    "items",
    "bands",
    "escalation_band",
    "reassess_days",
)
_ITEM_REQUIRED = ("id", "text")
_ITEM_OPTIONAL = ("weight", "escalates", "help", "words")
_BAND_REQUIRED = ("id", "label", "min_score")

Number = int | float
Scoring = Literal["weighted", "yes_count"]


class InstrumentError(ValueError):
    """An instrument (or a set of answers) is invalid.

    ``problems`` lists every problem found, each naming where it is (``items[3].id: ...``).
    """

    def __init__(self, problems: list[str], *, summary: str = "invalid instrument") -> None:
        self.problems: list[str] = list(problems)
        if len(self.problems) == 1:
            message = f"{summary}: {self.problems[0]}"
        else:
            lines = "\n".join(f"  - {problem}" for problem in self.problems)
            message = f"{summary}: {len(self.problems)} problems:\n{lines}"
        super().__init__(message)


@dataclass(frozen=True)
class Item:
    """One yes/no question. ``weight`` is ``None`` on a ``yes_count`` instrument."""

    id: str
    text: str
    weight: Number | None = None
    escalates: bool = False
    help: str = ""
    #: The question asks for the survivor's own words: the form offers a box to write them in.
    words: bool = False


@dataclass(frozen=True)
class Band:
    """A risk band, reached when the score is at least ``min_score``."""

    id: str
    label: str
    min_score: Number


@dataclass(frozen=True)
class Instrument:
    """A validated instrument. Build it with :func:`validate_instrument` or :func:`load_instrument`.

    ``bands`` are ordered by increasing ``min_score`` (and so by increasing severity).
    """

    id: str
    name: str
    version: int
    licence: str
    scoring: Scoring
    items: tuple[Item, ...]
    bands: tuple[Band, ...]
    escalation_band: str
    reassess_days: int

    def item(self, item_id: str) -> Item:
        """The item with this id (``KeyError`` if there is none)."""
        for item in self.items:
            if item.id == item_id:
                return item
        raise KeyError(item_id)

    def band(self, band_id: str) -> Band:
        """The band with this id (``KeyError`` if there is none)."""
        for band in self.bands:
            if band.id == band_id:
                return band
        raise KeyError(band_id)

    def band_rank(self, band_id: str) -> int:
        """Position of a band from least (0) to most severe."""
        return [band.id for band in self.bands].index(band_id)

    def band_for_score(self, value: Number) -> Band:
        """The most severe band whose threshold ``value`` reaches."""
        reached = self.bands[0]
        for band in self.bands:
            if value >= band.min_score:
                reached = band
        return reached

    def points(self, item: Item) -> Number:
        """What a yes to ``item`` adds to the score."""
        if self.scoring == "yes_count":
            return 1
        assert item.weight is not None  # guaranteed by validation
        return item.weight

    @property
    def max_score(self) -> Number:
        """The score when every item is answered yes."""
        return sum(self.points(item) for item in self.items)

    def next_reassessment(self, assessed_on: date) -> date:
        """The date a re-assessment is due after an assessment made on ``assessed_on``."""
        return assessed_on + timedelta(days=self.reassess_days)

    def with_thresholds(self, thresholds: Mapping[str, Number]) -> Instrument:
        """A copy with some bands' ``min_score`` replaced (an agency's own thresholds).

        ``thresholds`` maps band id to the new minimum score. The copy is validated again, so
        thresholds that end up out of order raise :class:`InstrumentError`.
        """
        known = [band.id for band in self.bands]
        unknown = [
            f'thresholds: unknown band "{band_id}" (expected one of {", ".join(known)})'
            for band_id in thresholds
            if band_id not in known
        ]
        if unknown:
            raise InstrumentError(unknown)
        data = self.to_dict()
        for band in data["bands"]:
            if band["id"] in thresholds:
                band["min_score"] = thresholds[band["id"]]
        return validate_instrument(data)

    def to_dict(self) -> dict[str, Any]:
        """The instrument as plain data, in the file format (round-trips through validation)."""
        items: list[dict[str, Any]] = []
        for item in self.items:
            raw: dict[str, Any] = {"id": item.id, "text": item.text}
            if item.weight is not None:
                raw["weight"] = item.weight
            if item.escalates:
                raw["escalates"] = True
            if item.help:
                raw["help"] = item.help
            if item.words:
                raw["words"] = True
            items.append(raw)
        return {
            "id": self.id,
            "name": self.name,
            "version": self.version,
            "licence": self.licence,
            "scoring": self.scoring,
            "items": items,
            "bands": [
                {"id": band.id, "label": band.label, "min_score": band.min_score}
                for band in self.bands
            ],
            "escalation_band": self.escalation_band,
            "reassess_days": self.reassess_days,
        }


@dataclass(frozen=True)
class Result:
    """The outcome of scoring one set of answers.

    ``band`` is the band after escalation; ``score_band`` is the band the score alone reaches.
    ``answered`` / ``unanswered`` / ``escalated_by`` hold item ids in instrument order.
    """

    instrument: Instrument = field(repr=False)
    score: Number
    band: Band
    score_band: Band
    escalated_by: tuple[str, ...]
    answered: tuple[str, ...]
    unanswered: tuple[str, ...]


# --- loading -----------------------------------------------------------------------------------


class _StrictLoader(yaml.SafeLoader):
    """A safe YAML loader that refuses duplicate mapping keys instead of keeping the last one."""


def _construct_strict_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    seen: set[Any] = set()
    for key_node, _value_node in node.value:
        key = loader.construct_object(key_node)
        try:
            duplicate = key in seen
            seen.add(key)
        except TypeError:  # unhashable key: construct_mapping reports it
            continue
        if duplicate:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                f'duplicate key "{key}"',
                key_node.start_mark,
            )
    return loader.construct_mapping(node)


_StrictLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
    _construct_strict_mapping,  # type: ignore[arg-type]
)


def _read_source(path_or_text: str | os.PathLike[str]) -> str:
    """The document text: read from a path, or ``path_or_text`` itself if it is the document."""
    if isinstance(path_or_text, os.PathLike):
        return Path(path_or_text).read_text(encoding="utf-8")
    if not isinstance(path_or_text, str):
        raise TypeError(f"expected a path or YAML/JSON text, got {type(path_or_text).__name__}")
    if "\n" not in path_or_text:
        if path_or_text.strip().lower().endswith(_INSTRUMENT_FILE_SUFFIXES):
            return Path(path_or_text).read_text(encoding="utf-8")
        try:
            is_file = Path(path_or_text).is_file()
        except (OSError, ValueError):  # far too long, or NUL bytes: not a path
            is_file = False
        if is_file:
            return Path(path_or_text).read_text(encoding="utf-8")
    return path_or_text


def load_instrument(path_or_text: str | os.PathLike[str]) -> Instrument:
    """Load and validate an instrument from a file or from YAML/JSON text.

    A :class:`os.PathLike`, or a one-line string naming an existing file or ending in ``.yaml``,
    ``.yml`` or ``.json``, is read as a file (``FileNotFoundError`` if it is missing); any other
    string is parsed as the document itself. Syntax errors and duplicate keys raise
    :class:`InstrumentError`, as does everything :func:`validate_instrument` rejects.
    """
    text = _read_source(path_or_text)
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise InstrumentError([_describe_yaml_error(exc)]) from exc
    return validate_instrument(data)


def _describe_yaml_error(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem:
        where = ""
        if exc.problem_mark is not None:
            mark = exc.problem_mark
            where = f" (line {mark.line + 1}, column {mark.column + 1})"
        return f"yaml: {exc.problem}{where}"
    return f"yaml: {exc}"


# --- validation --------------------------------------------------------------------------------


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, Mapping):
        return "mapping"
    if isinstance(value, list | tuple):
        return "list"
    return type(value).__name__


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class _Checker:
    """Collects problems while reading raw instrument data."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def add(self, problem: str) -> None:
        self.problems.append(problem)

    def fields(
        self,
        where: str,
        raw: Mapping[Any, Any],
        required: tuple[str, ...],
        optional: tuple[str, ...] = (),
    ) -> None:
        allowed = set(required) | set(optional)
        for key in raw:
            if key not in allowed:
                self.add(f'unknown field "{key}" in {where}')
        for name in required:
            if name not in raw:
                self.add(f'{where}: missing required field "{name}"')

    def text(self, where: str, value: object) -> str | None:
        if not isinstance(value, str):
            self.add(f"{where}: expected a string, got {_type_name(value)}")
            return None
        if not value.strip():
            self.add(f"{where}: must not be blank")
            return None
        return value

    def slug(self, where: str, value: object) -> str | None:
        text = self.text(where, value)
        if text is not None and not _SLUG.match(text):
            self.add(
                f'{where}: "{text}" is not a valid id '
                "(lower-case letters and digits, separated by single - or _)"
            )
            return None
        return text

    def positive_int(self, where: str, value: object) -> int | None:
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(f"{where}: expected an integer, got {_type_name(value)}")
            return None
        if value < 1:
            self.add(f"{where}: must be a positive integer (got {value})")
            return None
        return value

    def number(self, where: str, value: object) -> Number | None:
        if not _is_number(value):
            self.add(f"{where}: expected a number, got {_type_name(value)}")
            return None
        assert isinstance(value, int | float)
        if not math.isfinite(value):
            self.add(f"{where}: must be a finite number (got {value})")
            return None
        return value

    def mapping_list(self, where: str, value: object) -> list[Any] | None:
        if not isinstance(value, list):
            self.add(f"{where}: expected a list, got {_type_name(value)}")
            return None
        if not value:
            self.add(f"{where}: must not be empty")
            return None
        return value


def validate_instrument(data: Mapping[str, Any]) -> Instrument:
    """Check raw instrument data (as parsed from YAML/JSON) and build an :class:`Instrument`.

    Raises :class:`InstrumentError` listing every problem: unknown or missing fields, wrong types,
    invalid or duplicate ids, band thresholds that do not start at 0 and strictly increase, bands
    outside ``standard``/``medium``/``high`` or out of severity order, weights missing on a
    ``weighted`` instrument or present on a ``yes_count`` one, negative weights, an
    ``escalation_band`` that is not one of the bands, and a non-positive ``reassess_days``.
    """
    check = _Checker()
    if not isinstance(data, Mapping):
        raise InstrumentError([f"instrument: expected a mapping, got {_type_name(data)}"])
    check.fields("instrument", data, _TOP_REQUIRED)

    instrument_id = check.slug("id", data["id"]) if "id" in data else None
    name = check.text("name", data["name"]) if "name" in data else None
    version = check.positive_int("version", data["version"]) if "version" in data else None
    licence = check.text("licence", data["licence"]) if "licence" in data else None
    reassess_days = (
        check.positive_int("reassess_days", data["reassess_days"])
        if "reassess_days" in data
        else None
    )

    scoring: str | None = None
    if "scoring" in data:
        raw_scoring = data["scoring"]
        if raw_scoring in SCORING_METHODS:
            scoring = raw_scoring
        else:
            shown = f'"{raw_scoring}"' if isinstance(raw_scoring, str) else _type_name(raw_scoring)
            check.add(f'scoring: must be "weighted" or "yes_count" (got {shown})')

    items = _validate_items(check, data.get("items"), scoring) if "items" in data else None
    bands = _validate_bands(check, data.get("bands")) if "bands" in data else None

    escalation_band: str | None = None
    if "escalation_band" in data:
        escalation_band = check.text("escalation_band", data["escalation_band"])
        # Compared with every band id written in the file, valid or not: a band with a problem of
        # its own is reported once, and escalation_band is still checked when other bands are bad.
        band_ids = _written_band_ids(data.get("bands"))
        if escalation_band is not None and band_ids and escalation_band not in band_ids:
            check.add(
                f'escalation_band: "{escalation_band}" is not one of the bands '
                f"({', '.join(band_ids)})"
            )

    if check.problems:
        raise InstrumentError(check.problems)
    assert instrument_id is not None and name is not None and version is not None
    assert licence is not None and reassess_days is not None and scoring is not None
    assert items is not None and bands is not None and escalation_band is not None
    return Instrument(
        id=instrument_id,
        name=name,
        version=version,
        licence=licence,
        scoring=scoring,  # type: ignore[arg-type]  # checked against SCORING_METHODS
        items=items,
        bands=bands,
        escalation_band=escalation_band,
        reassess_days=reassess_days,
    )


def _written_band_ids(raw_bands: object) -> list[str]:
    """The string ids in a raw ``bands`` list, whether or not the bands are otherwise valid."""
    if not isinstance(raw_bands, list):
        return []
    return [
        raw["id"]
        for raw in raw_bands
        if isinstance(raw, Mapping) and isinstance(raw.get("id"), str)
    ]


def _validate_items(check: _Checker, raw_items: object, scoring: str | None) -> tuple[Item, ...]:
    """Validate the ``items`` list; returns the items that are valid (problems go to ``check``)."""
    entries = check.mapping_list("items", raw_items)
    if entries is None:
        return ()
    items: list[Item] = []
    first_use: dict[str, int] = {}
    for index, raw in enumerate(entries):
        where = f"items[{index}]"
        if not isinstance(raw, Mapping):
            check.add(f"{where}: expected a mapping, got {_type_name(raw)}")
            continue
        problems_before = len(check.problems)
        check.fields(where, raw, _ITEM_REQUIRED, _ITEM_OPTIONAL)

        item_id = check.slug(f"{where}.id", raw["id"]) if "id" in raw else None
        if item_id is not None:
            if item_id in first_use:
                check.add(
                    f'{where}.id: duplicate id "{item_id}" '
                    f"(already used by items[{first_use[item_id]}])"
                )
            else:
                first_use[item_id] = index
        text = check.text(f"{where}.text", raw["text"]) if "text" in raw else None

        weight: Number | None = None
        if scoring == "yes_count" and "weight" in raw:
            check.add(f"{where}.weight: not allowed when scoring is yes_count")
        elif scoring == "weighted" and "weight" not in raw:
            check.add(f'{where}: missing "weight" (required when scoring is weighted)')
        elif "weight" in raw:
            weight = check.number(f"{where}.weight", raw["weight"])
            if weight is not None and weight < 0:
                check.add(f"{where}.weight: must not be negative (got {weight})")

        escalates = raw.get("escalates", False)
        if not isinstance(escalates, bool):
            check.add(f"{where}.escalates: expected true or false, got {_type_name(escalates)}")
        help_text = raw.get("help", "")
        if not isinstance(help_text, str):
            check.add(f"{where}.help: expected a string, got {_type_name(help_text)}")

        words = raw.get("words", False)
        if not isinstance(words, bool):
            check.add(f"{where}.words: expected true or false, got {_type_name(words)}")

        if len(check.problems) == problems_before:
            assert item_id is not None and text is not None
            items.append(Item(item_id, text, weight, escalates, help_text, words))
    return tuple(items)


def _validate_bands(check: _Checker, raw_bands: object) -> tuple[Band, ...]:
    """Validate the ``bands`` list; returns the bands that are valid (problems go to ``check``)."""
    entries = check.mapping_list("bands", raw_bands)
    if entries is None:
        return ()
    bands: list[Band] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(entries):
        where = f"bands[{index}]"
        if not isinstance(raw, Mapping):
            check.add(f"{where}: expected a mapping, got {_type_name(raw)}")
            continue
        band_problems_before = len(check.problems)
        check.fields(where, raw, _BAND_REQUIRED)

        band_id = check.text(f"{where}.id", raw["id"]) if "id" in raw else None
        if band_id is not None:
            if band_id not in BAND_IDS:
                check.add(
                    f'{where}.id: unknown band "{band_id}" (expected one of {", ".join(BAND_IDS)})'
                )
            elif band_id in seen:
                check.add(
                    f'{where}.id: duplicate id "{band_id}" (already used by bands[{seen[band_id]}])'
                )
            else:
                seen[band_id] = index
        label = check.text(f"{where}.label", raw["label"]) if "label" in raw else None
        min_score = None
        if "min_score" in raw:
            min_score = check.number(f"{where}.min_score", raw["min_score"])
            if min_score is not None and index == 0 and min_score != 0:
                check.add(f"{where}.min_score: the first band must start at 0 (got {min_score})")

        if len(check.problems) == band_problems_before:
            assert band_id is not None and label is not None and min_score is not None
            bands.append(Band(band_id, label, min_score))

    # Order checks only make sense between bands that are themselves valid.
    for previous, current in zip(bands, bands[1:], strict=False):
        if current.min_score <= previous.min_score:
            check.add(
                f"bands: min_score must increase ({current.id} {current.min_score} <= "
                f"{previous.id} {previous.min_score})"
            )
    ranks = [BAND_IDS.index(band.id) for band in bands]
    if ranks != sorted(ranks):
        check.add(
            f"bands: must be listed from least to most severe ({', '.join(BAND_IDS)}); "
            f"got {', '.join(band.id for band in bands)}"
        )
    return tuple(bands)


# --- scoring -----------------------------------------------------------------------------------


def score(instrument: Instrument, answers: Mapping[str, bool | None]) -> Result:
    """Score ``answers`` (item id -> yes/no, ``None`` or absent for unanswered).

    Unanswered items count as no. A yes to an escalating item raises the band to at least the
    instrument's ``escalation_band`` (it never lowers it). Unknown item ids and answers that are
    not ``True``/``False``/``None`` raise :class:`InstrumentError`.
    """
    if not isinstance(answers, Mapping):
        raise TypeError(f"answers must be a mapping, got {_type_name(answers)}")
    known = {item.id for item in instrument.items}
    problems: list[str] = []
    for item_id, value in answers.items():
        if item_id not in known:
            problems.append(f'answers: unknown item "{item_id}" in instrument "{instrument.id}"')
        elif value is not None and not isinstance(value, bool):
            problems.append(
                f'answers["{item_id}"]: expected true, false or None, got {_type_name(value)}'
            )
    if problems:
        raise InstrumentError(problems, summary="invalid answers")

    total: Number = 0
    answered: list[str] = []
    unanswered: list[str] = []
    escalated_by: list[str] = []
    for item in instrument.items:
        value = answers.get(item.id)
        if value is None:
            unanswered.append(item.id)
            continue
        answered.append(item.id)
        if value:
            total += instrument.points(item)
            if item.escalates:
                escalated_by.append(item.id)

    score_band = instrument.band_for_score(total)
    band = score_band
    if escalated_by:
        forced = instrument.band(instrument.escalation_band)
        if instrument.band_rank(forced.id) > instrument.band_rank(band.id):
            band = forced
    return Result(
        instrument=instrument,
        score=total,
        band=band,
        score_band=score_band,
        escalated_by=tuple(escalated_by),
        answered=tuple(answered),
        unanswered=tuple(unanswered),
    )


def effective_band(result: Result, override_band_id: str | None, reason: str | None) -> str:
    """The band id that applies: the scored band, or a professional-judgement override.

    An override (``override_band_id`` not ``None``) must name one of the instrument's bands and
    needs a non-blank ``reason``; otherwise ``ValueError`` is raised. An override may raise or
    lower the band: the reason is what makes it accountable.
    """
    if override_band_id is None:
        return result.band.id
    band_ids = [band.id for band in result.instrument.bands]
    if override_band_id not in band_ids:
        raise ValueError(
            f'override band "{override_band_id}" is not a band of instrument '
            f'"{result.instrument.id}" (expected one of {", ".join(band_ids)})'
        )
    if not isinstance(reason, str) or not reason.strip():
        raise ValueError(
            f'a professional-judgement override to "{override_band_id}" needs a reason: '
            f'say why the band should not be "{result.band.id}"'
        )
    return override_band_id
