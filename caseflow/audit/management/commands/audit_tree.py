"""The audit log's Merkle tree: sequence, publish and export signed heads, print and check
inclusion and consistency proofs (RFC 9162)."""

import base64
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from caseflow.audit import heads, merkle, sequencer
from caseflow.audit.models import AuditEvent, AuditTreeHead


def _b64(value: bytes) -> str:
    return base64.b64encode(value).decode()


class Command(BaseCommand):
    help = (
        "sequence: chain waiting events now. publish: sign, store and ship a tree head. "
        "export: print every stored head as JSON lines (for a witness). key: print the public "
        "key heads are checked with. inclusion POS: prove an event is in the log. "
        "consistency OLD NEW: prove the tree of NEW events extends the one of OLD."
    )

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        sub.add_parser("sequence")
        publish = sub.add_parser("publish")
        publish.add_argument("--force", action="store_true", help="even if nothing changed")
        export = sub.add_parser("export")
        export.add_argument("--output", type=Path, help="append to this file, not stdout")
        sub.add_parser("key")
        inclusion = sub.add_parser("inclusion")
        inclusion.add_argument("pos", type=int, help="the event's position in the chain")
        inclusion.add_argument("--size", type=int, help="tree size (default: the whole tree)")
        consistency = sub.add_parser("consistency")
        consistency.add_argument("old", type=int)
        consistency.add_argument("new", type=int, nargs="?")

    def handle(self, *args, **options):
        action = options["action"]
        if action == "sequence":
            done = sequencer.sequence_pending()
            self.stdout.write(f"{done} events sequenced; tree size {sequencer.tree_size()}")
        elif action == "publish":
            head = heads.publish_head(force=options["force"])
            self.stdout.write(head.to_json() if head else "no new events since the last head")
        elif action == "export":
            lines = [
                heads.SignedHead.from_row(row).to_json() for row in AuditTreeHead.objects.all()
            ]
            if options["output"]:
                with options["output"].open("a") as fh:
                    fh.writelines(line + "\n" for line in lines)
                self.stdout.write(f"{len(lines)} heads written to {options['output']}")
            else:
                self.stdout.write("\n".join(lines))
        elif action == "key":
            self.stdout.write(
                json.dumps({"key_id": heads.key_id(), "ed25519": heads.public_key_text()})
            )
        elif action == "inclusion":
            self._inclusion(options["pos"], options["size"])
        else:
            self._consistency(options["old"], options["new"])

    def _size(self, size: int | None) -> int:
        sequencer.sequence_pending()
        whole = sequencer.tree_size()
        if size is None:
            return whole
        if not 0 <= size <= whole:
            raise CommandError(f"the tree has {whole} events")
        return size

    def _inclusion(self, pos: int, size: int | None) -> None:
        size = self._size(size)
        if not 1 <= pos <= size:
            raise CommandError(f"no event at position {pos} in a tree of {size}")
        digest = AuditEvent.objects.filter(pos=pos).values_list("hash", flat=True).first()
        if digest is None:
            raise CommandError(f"no event at position {pos}")
        leaf = merkle.leaf_hash(bytes.fromhex(digest))
        proof = merkle.inclusion_proof(pos - 1, size, sequencer.nodes)
        tree_root = merkle.root(size, sequencer.nodes)
        ok = merkle.verify_inclusion(pos - 1, size, leaf, proof, tree_root)
        self.stdout.write(
            json.dumps(
                {
                    "leaf_index": pos - 1,
                    "tree_size": size,
                    "event_hash": digest,
                    "leaf_hash": _b64(leaf),
                    "root_hash": tree_root.hex(),
                    "inclusion_path": [_b64(p) for p in proof],
                    "verified": ok,
                }
            )
        )
        if not ok:
            raise CommandError("the inclusion proof does not verify")

    def _consistency(self, old: int, new: int | None) -> None:
        new = self._size(new)
        if not 0 <= old <= new:
            raise CommandError("the old size must be between 0 and the new one")
        proof = merkle.consistency_proof(old, new, sequencer.nodes)
        old_root = merkle.root(old, sequencer.nodes)
        new_root = merkle.root(new, sequencer.nodes)
        ok = merkle.verify_consistency(old, new, old_root, new_root, proof)
        self.stdout.write(
            json.dumps(
                {
                    "old_size": old,
                    "new_size": new,
                    "old_root": old_root.hex(),
                    "new_root": new_root.hex(),
                    "consistency_path": [_b64(p) for p in proof],
                    "verified": ok,
                }
            )
        )
        if not ok:
            raise CommandError("the consistency proof does not verify")
