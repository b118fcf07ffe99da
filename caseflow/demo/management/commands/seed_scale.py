"""Seed synthetic data at agency scale (design brief §8) for benchmarks."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from caseflow.demo import scale as scale_data


class Command(BaseCommand):
    help = (
        "Bulk-seed one synthetic agency at the base or stretch tier into the configured "
        "database (per-case data keys, a valid audit chain). Refuses a database that already "
        "holds cases unless --force."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tier", choices=sorted(scale_data.TIERS), default="base")
        parser.add_argument(
            "--scale", type=float, default=1.0, help="Multiply every count (e.g. 0.1)."
        )
        parser.add_argument("--seed", type=int, default=10, help="Random seed.")
        parser.add_argument(
            "--force", action="store_true", help="Add another agency even if cases exist."
        )

    def handle(self, *args, tier: str, scale: float, seed: int, force: bool, **options):
        try:
            plan = scale_data.plan_for(tier, scale)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        existing = scale_data.existing_cases()
        if existing and not force:
            raise CommandError(
                f"the database already holds {existing} cases; use --force to add another "
                "synthetic agency, or point DATABASE_URL at an empty database"
            )
        self.stdout.write(
            f"Seeding tier {tier} x{scale}: {plan.advocates} advocates, {plan.supervisors} "
            f"supervisors in {plan.teams} teams, {plan.cases} cases (one advocate with "
            f"{plan.overloaded_open} open, the others {plan.typical_open}), "
            f"{plan.audit_events} audit events, {plan.checkins} check-ins"
        )
        started = time.perf_counter()
        context = scale_data.seed(plan, rng_seed=seed, progress=self.stdout.write)
        self.stdout.write(
            self.style.SUCCESS(
                f"Seeded agency {context.agency.slug!r} in {time.perf_counter() - started:.1f}s"
            )
        )
