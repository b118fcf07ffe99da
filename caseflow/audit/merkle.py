"""The Merkle tree over the sequenced audit events, as RFC 9162 (Certificate Transparency 2.0)
defines it: leaf hash SHA-256(0x00 || leaf), interior node SHA-256(0x01 || left || right), a
tree of n leaves split at the largest power of two smaller than n (2.1.1); inclusion proofs
(2.1.3) and consistency proofs (2.1.4), and their verification.

Nothing here touches the database. The hashes of complete subtrees come from a *source*: a
function given (level, index) pairs that returns their hashes, where the node at (level, index)
covers leaves [index * 2**level, (index + 1) * 2**level). Every root and proof below needs
O(log n) such nodes, asked for in one call.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence

Key = tuple[int, int]
Source = Callable[[Iterable[Key]], dict[Key, bytes]]


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def _is_complete(start: int, end: int) -> bool:
    size = end - start
    return size > 0 and size & (size - 1) == 0 and start % size == 0


def _keys(start: int, end: int, out: list[Key]) -> None:
    """The stored nodes MTH(D[start:end]) is made of."""
    if _is_complete(start, end):
        level = (end - start).bit_length() - 1
        out.append((level, start >> level))
        return
    k = _split(end - start)
    _keys(start, start + k, out)
    _keys(start + k, end, out)


def _mth(start: int, end: int, nodes: dict[Key, bytes]) -> bytes:
    if _is_complete(start, end):
        level = (end - start).bit_length() - 1
        return nodes[(level, start >> level)]
    k = _split(end - start)
    return node_hash(_mth(start, start + k, nodes), _mth(start + k, end, nodes))


def _evaluate(ranges: Sequence[tuple[int, int]], source: Source) -> list[bytes]:
    keys: list[Key] = []
    for start, end in ranges:
        _keys(start, end, keys)
    nodes = source(keys)
    missing = [key for key in keys if key not in nodes]
    if missing:
        raise MissingNode(missing[0])
    return [_mth(start, end, nodes) for start, end in ranges]


class MissingNode(LookupError):
    """The store lacks a node the tree of this size needs (it is larger than the tree)."""


def root(size: int, source: Source) -> bytes:
    """MTH of the first ``size`` leaves (the hash of the empty string for none, as RFC 9162)."""
    if size == 0:
        return hashlib.sha256(b"").digest()
    return _evaluate([(0, size)], source)[0]


# --- Proofs (RFC 9162 2.1.3.1 and 2.1.4.1), as lists of ranges then hashes --------------------


def _path(m: int, start: int, end: int) -> list[tuple[int, int]]:
    n = end - start
    if n == 1:
        return []
    k = _split(n)
    if m < k:
        return [*_path(m, start, start + k), (start + k, end)]
    return [*_path(m - k, start + k, end), (start, start + k)]


def _subproof(m: int, start: int, end: int, whole: bool) -> list[tuple[int, int]]:
    n = end - start
    if m == n:
        return [] if whole else [(start, end)]
    k = _split(n)
    if m <= k:
        return [*_subproof(m, start, start + k, whole), (start + k, end)]
    return [*_subproof(m - k, start + k, end, False), (start, start + k)]


def inclusion_proof(index: int, size: int, source: Source) -> list[bytes]:
    """The audit path of leaf ``index`` (from 0) in the tree of ``size`` leaves."""
    if not 0 <= index < size:
        raise ValueError("the leaf is not in a tree of that size")
    return _evaluate(_path(index, 0, size), source)


def consistency_proof(old_size: int, new_size: int, source: Source) -> list[bytes]:
    """The proof that the tree of ``new_size`` leaves extends the one of ``old_size``."""
    if not 0 <= old_size <= new_size:
        raise ValueError("the old tree must not be larger than the new one")
    if old_size in (0, new_size):
        return []
    return _evaluate(_subproof(old_size, 0, new_size, True), source)


# --- Verification (RFC 9162 2.1.3.2 and 2.1.4.2) ----------------------------------------------


def verify_inclusion(
    index: int, size: int, leaf: bytes, proof: Sequence[bytes], expected_root: bytes
) -> bool:
    """Whether ``leaf`` (a leaf *hash*) is leaf ``index`` of the tree of ``size`` whose root is
    ``expected_root``."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while not (fn & 1 or fn == 0):
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == expected_root


def verify_consistency(
    old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]
) -> bool:
    """Whether the tree of ``new_size`` leaves with root ``new_root`` extends the tree of
    ``old_size`` leaves with root ``old_root``."""
    if not 0 <= old_size <= new_size:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof
    path = list(proof)
    if old_size & (old_size - 1) == 0:
        path.insert(0, old_root)
    if not path:
        return False
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while not (fn & 1 or fn == 0):
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == old_root and sr == new_root


def keys_for(
    *,
    roots: Iterable[int] = (),
    inclusions: Iterable[tuple[int, int]] = (),
    consistencies: Iterable[tuple[int, int]] = (),
) -> list[Key]:
    """Every stored node the given roots (tree sizes), inclusion proofs (index, size) and
    consistency proofs (old size, new size) need: to fetch them all in one call."""
    ranges: list[tuple[int, int]] = [(0, size) for size in roots if size]
    for index, size in inclusions:
        ranges += _path(index, 0, size)
    for old, new in consistencies:
        if 0 < old < new:
            ranges += _subproof(old, 0, new, True)
    keys: list[Key] = []
    for start, end in ranges:
        _keys(start, end, keys)
    return keys


def prefetched(source: Source, keys: Iterable[Key]) -> Source:
    """A source answering from one call of ``source`` for ``keys`` (and asking ``source`` for
    anything else)."""
    known = source(keys)

    def lookup(wanted: Iterable[Key]) -> dict[Key, bytes]:
        wanted = list(wanted)
        missing = [key for key in wanted if key not in known]
        if missing:
            known.update(source(missing))
        return {key: known[key] for key in wanted if key in known}

    return lookup


# --- Appending leaves: the frontier of complete subtrees ---------------------------------------


def frontier_keys(size: int) -> list[Key]:
    """The complete subtrees that make up the tree of ``size`` leaves, largest first."""
    keys = []
    for level in range(size.bit_length() - 1, -1, -1):
        if size >> level & 1:
            keys.append((level, (size >> level) - 1))
    return keys


class Frontier:
    """The right edge of a tree: enough to append leaves and compute the root, in O(log n)
    memory. ``append`` returns the complete subtrees each new leaf finishes (the nodes to
    store), lowest first."""

    def __init__(self, size: int = 0, hashes: dict[int, bytes] | None = None) -> None:
        self.size = size
        self.by_level: dict[int, bytes] = dict(hashes or {})

    @classmethod
    def load(cls, size: int, source: Source) -> Frontier:
        keys = frontier_keys(size)
        nodes = source(keys)
        missing = [key for key in keys if key not in nodes]
        if missing:
            raise MissingNode(missing[0])
        return cls(size, {level: nodes[(level, index)] for level, index in keys})

    def append(self, leaf: bytes) -> list[tuple[int, int, bytes]]:
        index, level, h = self.size, 0, leaf
        made = [(0, index, h)]
        while index & 1:
            h = node_hash(self.by_level.pop(level), h)
            index, level = index >> 1, level + 1
            made.append((level, index, h))
        self.by_level[level] = h
        self.size += 1
        return made

    def push(self, leaf: bytes) -> None:
        """``append`` without reporting the nodes made (for a verifier that stores nothing)."""
        index, level, h = self.size, 0, leaf
        by_level = self.by_level
        while index & 1:
            h = node_hash(by_level.pop(level), h)
            index, level = index >> 1, level + 1
        by_level[level] = h
        self.size += 1

    def root(self) -> bytes:
        if self.size == 0:
            return hashlib.sha256(b"").digest()
        result: bytes | None = None
        for level in sorted(self.by_level):
            h = self.by_level[level]
            result = h if result is None else node_hash(h, result)
        assert result is not None
        return result
