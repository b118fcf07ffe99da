"""A vertical app that exists only for the tests: what a new part of caseflow has to write to
appear on the case page, the case timeline and the today queue (see docs/architecture.md)."""
