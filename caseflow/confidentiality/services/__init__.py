"""Confidentiality operations, one module per sub-domain; callers use the names re-exported here.

Each operation checks policy itself, runs in a transaction and writes its audit event. Audit
details hold ids, categories and field names only.
"""

from caseflow.confidentiality.services.chronology import timeline_categories, timeline_share
from caseflow.confidentiality.services.compelled import (
    CHRONOLOGY_CATEGORIES,
    compelled_record,
    outside_authority,
)
from caseflow.confidentiality.services.configure import may_configure
from caseflow.confidentiality.services.disclosures import ReleaseRequired, referral_pack_export
from caseflow.confidentiality.services.exports import (
    EvidenceUnavailable,
    Export,
    case_export,
    evidence_pack_export,
    transfer_authorise,
    transfer_disclose,
    transfer_pack,
)
from caseflow.confidentiality.services.field_settings import field_settings_save
from caseflow.confidentiality.services.own_copy import (
    CopyEntry,
    OwnCopy,
    OwnCopyRefused,
    case_contacts,
    case_incidents,
    contact_local,
    own_copy_give,
    survivor_of,
)
from caseflow.confidentiality.services.prepared_exports import (
    PreparationFailed,
    export_is_large,
    export_is_stale,
    export_progress,
    prepared_export_build,
    prepared_export_claim,
    prepared_export_download,
    prepared_export_fail,
    prepared_export_for,
    prepared_export_purge,
    prepared_export_retry,
    prepared_export_start,
    prepared_exports_asked,
    prepared_exports_discard,
)
from caseflow.confidentiality.services.purges import (
    PurgeRefused,
    active_hold,
    case_counts,
    legal_hold_lift,
    legal_hold_place,
    purge_approve,
    purge_execute,
)
from caseflow.confidentiality.services.releases import (
    ReleaseRefused,
    consent_problem,
    expiry_problem,
    recipient_index,
    release_covering,
    release_expiry_sweep,
    release_problem,
    release_record,
    release_revoke,
)
from caseflow.confidentiality.services.reports import DIMENSIONS, AggregateReport, aggregate_report
from caseflow.confidentiality.services.research import research_answer, research_consent_save
from caseflow.confidentiality.services.retention import (
    purge_propose_due,
    retention_save,
    schedule_for,
)
