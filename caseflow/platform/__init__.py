"""What caseflow needs to run that is not about cases: backup and restore, key rotation, the
health and status pages, and the site's root URLs. It reads every app, so it sits on top of the
layers (see docs/architecture.md)."""
