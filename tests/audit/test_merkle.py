"""The Merkle tree against RFC 9162's definitions, computed naively from the leaves."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from caseflow.audit import merkle


def mth(leaves: list[bytes]) -> bytes:
    """RFC 9162 2.1.1, literally."""
    n = len(leaves)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < n:
        k *= 2
    return hashlib.sha256(b"\x01" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def stored(leaves: list[bytes]):
    frontier, nodes = merkle.Frontier(), {}
    for leaf in leaves:
        for level, index, digest in frontier.append(merkle.leaf_hash(leaf)):
            nodes[(level, index)] = digest
    return frontier, lambda keys: {key: nodes[key] for key in keys if key in nodes}


def test_the_known_answer_for_empty_and_one_leaf():
    assert merkle.root(0, stored([])[1]).hex() == hashlib.sha256(b"").hexdigest()
    assert merkle.leaf_hash(b"") == hashlib.sha256(b"\x00").digest()


@given(st.integers(1, 70), st.data())
def test_roots_and_proofs_match_the_definition(n, data):
    leaves = [i.to_bytes(4, "big") for i in range(n)]
    frontier, source = stored(leaves)
    assert frontier.root() == mth(leaves) == merkle.root(n, source)
    size = data.draw(st.integers(1, n))
    index = data.draw(st.integers(0, size - 1))
    tree_root = mth(leaves[:size])
    proof = merkle.inclusion_proof(index, size, source)
    leaf = merkle.leaf_hash(leaves[index])
    assert merkle.verify_inclusion(index, size, leaf, proof, tree_root)
    # Another leaf, another position, another size or a changed path: refused.
    assert not merkle.verify_inclusion(index, size, merkle.leaf_hash(b"forged"), proof, tree_root)
    if size > 1:
        assert not merkle.verify_inclusion((index + 1) % size, size, leaf, proof, tree_root)
        bent = [bytes(32)] + proof[1:]
        assert not merkle.verify_inclusion(index, size, leaf, bent, tree_root)
    old = data.draw(st.integers(0, size))
    proof = merkle.consistency_proof(old, size, source)
    old_root = mth(leaves[:old])
    assert merkle.verify_consistency(old, size, old_root, tree_root, proof)
    if 0 < old < size:
        rewritten = [*leaves[: old - 1], b"rewritten", *leaves[old:size]]
        assert not merkle.verify_consistency(old, size, mth(rewritten[:old]), tree_root, proof)
        assert not merkle.verify_consistency(old, size, old_root, mth(rewritten), proof)
        assert not merkle.verify_consistency(old, size, old_root, tree_root, proof[:-1])


def test_a_tree_larger_than_the_store_is_refused():
    _, source = stored([b"a", b"b", b"c"])
    try:
        merkle.root(4, source)
    except merkle.MissingNode:
        pass
    else:
        raise AssertionError("a fourth leaf was invented")


def test_one_fetch_serves_a_root_an_inclusion_and_a_consistency_proof():
    leaves = [i.to_bytes(4, "big") for i in range(37)]
    _, source = stored(leaves)
    calls = []

    def counted(keys):
        calls.append(list(keys))
        return source(calls[-1])

    keys = merkle.keys_for(roots=(20, 37), inclusions=[(19, 20)], consistencies=[(20, 37)])
    once = merkle.prefetched(counted, keys)
    assert merkle.root(37, once) == mth(leaves)
    proof = merkle.consistency_proof(20, 37, once)
    assert merkle.verify_consistency(20, 37, mth(leaves[:20]), mth(leaves), proof)
    path = merkle.inclusion_proof(19, 20, once)
    assert merkle.verify_inclusion(19, 20, merkle.leaf_hash(leaves[19]), path, mth(leaves[:20]))
    assert len(calls) == 1
