"""Seeded randomness that lives in the game state.

A round keeps its seed (a string) and derives every random choice from it plus a label
(`derive(seed, "deal")`, `derive(seed, "restock", 2)`), so the only random state a game needs
to store is the seed and the counters it already has; replaying `(config, seed, moves)` always
reproduces the same deal, cuts and reshuffles.
"""

from __future__ import annotations

import hashlib
import random
import secrets


def new_seed() -> str:
    """A fresh, unguessable seed for a real table."""
    return secrets.token_hex(16)


def derive(seed: str, *labels: object) -> random.Random:
    material = "\x1f".join([str(seed), *(str(label) for label in labels)]).encode()
    return random.Random(int.from_bytes(hashlib.sha256(material).digest()[:16], "big"))


def shuffled(seed: str, items: tuple, *labels: object) -> tuple:
    order = list(items)
    derive(seed, *labels).shuffle(order)
    return tuple(order)
