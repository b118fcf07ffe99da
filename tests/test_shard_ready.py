"""The schema stays ready to shard by agency (SCALING.md, "Sharding by agency").

The rule held, for every model of caseflow:

1. It is *agency-scoped* — it reaches an agency through non-null foreign keys (directly, through
   its ``case``, or through a parent that does) — or it is one of the few deployment-wide tables
   listed below with the reason it can be shared (a reference table, the accounts, the queues).
2. Every case-owned model (``case_owned``) has a non-null ``case``: its rows live with the case.
   Every model with a required case carries the agency itself (a non-null ``agency`` column,
   copied from the case), the column a distributed database shards every table by.
3. Every unique constraint of an agency-scoped model holds within one agency's shard: it
   includes the agency, the case or a parent row of the same agency, or it is a single globally
   unique value (a random public id, a token hash, a key built from a cluster-unique row id).
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.exceptions import FieldDoesNotExist
from django.db import IntegrityError, models, transaction
from django.test.utils import isolate_apps

from caseflow.accounts.models import Agency
from caseflow.cases.models import new_public_id

#: Deployment-wide tables and why they need no agency of their own.
SHARED = {
    "accounts.Agency": "the shard key itself",
    "accounts.User": "people sign in before an agency is known; routed by their membership",
    "accounts.Membership": "one per user (user is unique): maps a user to their agency's shard",
    "audit.AuditEvent": "carries agency_id (null only for deployment events such as operator "
    "actions); one log per shard when sharded",
    "audit.AuditTreeNode": "the Merkle tree of its shard's log",
    "audit.AuditTreeHead": "the signed heads of its shard's log",
    "outbox.Intent": "the outbox queue; its payload carries ids only",
    "checkins.SchedulerHeartbeat": "one row per scheduler",
    "checkins.CalendarToken": "a user's feed token, found by its hash before the user is known",
    "accounts.ProviderIdentity": "found by the provider's issuer and subject at sign-in, before "
    "the user is known; routed by its user's membership",
    "inbox.Notification": "a user's inbox, on the shard of the recipient's agency",
    "safety.RiskInstrument": "a reference table: shared instruments (no agency) and agency ones",
    "accounts.Coalition": "a grouping of agencies that may lie on several shards; no case data",
    "accounts.CoalitionSeat": "a coalition's person, in no agency; found by user",
    "reporting.PreparedReport": "one agency's report (on its shard) or a coalition's roll-up of "
    "its members' published counts, which spans their shards",
}

#: Single-column unique values that are globally unique by construction.
GLOBAL_VALUES = {
    "cases.CaseChange.audit_seq": "the number of the audit event it belongs to, in the same shard",
    "agreements.EscalationFiring.key": "built from the breach's id, unique across the cluster",
    "api.Integration.key_prefix": "random, and read before the agency is known (a key names none)",
    "api.Integration.account": "one account per integration; accounts are deployment-wide",
}


def _caseflow_models() -> list[type[models.Model]]:
    return [m for m in apps.get_models() if m.__module__.startswith("caseflow.")]


def _label(model: type[models.Model]) -> str:
    return model._meta.label


def _required_parents(model: type[models.Model]) -> list[type[models.Model]]:
    return [
        field.related_model
        for field in model._meta.concrete_fields
        if isinstance(field, models.ForeignKey) and not field.null
    ]


def _agency_scoped(model: type[models.Model], seen: frozenset = frozenset()) -> bool:
    if model is Agency:
        return True
    if model in seen:
        return False
    return any(
        _agency_scoped(parent, seen | {model})  # type: ignore[arg-type]
        for parent in _required_parents(model)
        if parent is not None and parent is not model
    )


def _unique_sets(model: type[models.Model]) -> list[tuple[str, ...]]:
    sets = [
        (field.name,)
        for field in model._meta.concrete_fields
        if field.unique and not field.primary_key
    ]
    sets += [
        tuple(c.fields)
        for c in model._meta.constraints
        if isinstance(c, models.UniqueConstraint) and c.fields
    ]
    return sets


def _shard_local(model: type[models.Model], field_name: str) -> bool:
    field = model._meta.get_field(field_name)
    if isinstance(field, models.ForeignKey):
        # A parent of the same agency (when the key is null the constraint does not apply).
        return _agency_scoped(field.related_model)  # type: ignore[arg-type]
    return field.default is new_public_id or field_name == "token_hash"


def test_every_table_reaches_an_agency_or_is_listed_as_shared():
    stray = [
        _label(m) for m in _caseflow_models() if not _agency_scoped(m) and _label(m) not in SHARED
    ]
    assert stray == [], f"give these an agency (through case or a parent) or list why: {stray}"
    stale = set(SHARED) - {_label(m) for m in _caseflow_models()}
    assert stale == set()


def test_every_case_owned_table_has_a_required_case():
    for model in _caseflow_models():
        if getattr(model, "case_owned", False):
            field = model._meta.get_field("case")
            assert isinstance(field, models.ForeignKey) and not field.null, _label(model)
            assert _agency_scoped(model), _label(model)


def _has_required_case(model: type[models.Model]) -> bool:
    try:
        field = model._meta.get_field("case")
    except FieldDoesNotExist:
        return False
    return isinstance(field, models.ForeignKey) and not field.null


def test_every_table_with_a_required_case_carries_the_agency():
    missing = []
    for model in _caseflow_models():
        if not _has_required_case(model):
            continue
        try:
            field = model._meta.get_field("agency")
        except FieldDoesNotExist:
            missing.append(_label(model))
            continue
        carried = isinstance(field, models.ForeignKey) and field.related_model is Agency
        if not carried or field.null:
            missing.append(_label(model))
    assert missing == [], f"inherit CaseOwned (or CarriesAgency) in these: {missing}"


@pytest.mark.django_db
def test_a_row_takes_its_case_agency_and_a_bulk_write_without_it_is_refused():
    from caseflow.cases.models import Party, PartyRole
    from caseflow.lib.shard import carry_agencies
    from tests.factories import TeamFactory, add_party, open_case

    case = open_case(TeamFactory())
    other = open_case(TeamFactory())
    assert case.agency_id != other.agency_id
    # Saved one at a time: the agency comes from the case, even when only its id is known.
    assert add_party(case).agency_id == case.agency_id
    assert Party.objects.create(case_id=other.pk, role=PartyRole.OTHER_PARTY).agency_id == (
        other.agency_id
    )
    # Written in bulk: carry_agencies fills each row from its case.
    rows = [Party(case_id=pk, role=PartyRole.OTHER_PARTY) for pk in (case.pk, other.pk)]
    Party.objects.bulk_create(carry_agencies(rows))
    assert sorted(Party.objects.values_list("case_id", "agency_id")) == sorted(
        [(case.pk, case.agency_id)] * 2 + [(other.pk, other.agency_id)] * 2
    )
    # A bulk write that forgets the agency is refused by the database, not stored without it.
    with pytest.raises(IntegrityError), transaction.atomic():
        Party.objects.bulk_create([Party(case_id=case.pk, role=PartyRole.OTHER_PARTY)])


def test_every_unique_constraint_of_an_agency_table_holds_within_one_shard():
    problems = []
    for model in _caseflow_models():
        if not _agency_scoped(model) or _label(model) in SHARED:
            continue
        for fields in _unique_sets(model):
            if any(_shard_local(model, name) for name in fields):
                continue
            if len(fields) == 1 and f"{_label(model)}.{fields[0]}" in GLOBAL_VALUES:
                continue
            problems.append(f"{_label(model)}{fields}")
    assert problems == [], f"add the agency, the case or a parent to these: {problems}"


@isolate_apps("caseflow.cases")
def test_the_rule_catches_a_table_that_breaks_it():
    """The checks above can fail: a model with a unique column and no path to an agency."""

    class Loose(models.Model):
        code = models.CharField(max_length=10, unique=True)

        class Meta:
            app_label = "cases"

    assert not _agency_scoped(Loose)
    assert not _shard_local(Loose, "code")
