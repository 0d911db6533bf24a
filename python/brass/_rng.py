"""SplitMix64 and the seed derivations: the randomness both engines and every driver of many games share.

SplitMix64 is the generator of docs/state-format.md ("The RNG"): its whole state is one unsigned 64-bit integer,
stored in the game state (`rng`), so a state fixes all hidden information and replays are exact. The reference
engine draws every chance event from it. The seed derivations give game `index` of a run its deal seed and its
agents' generator exactly as the native drivers do (rust/brass-core/src/agents.rs, rollout.rs), so a game can be
played again in Python, and a run split over processes or machines, from (`seed`, `index`) alone.
"""

from __future__ import annotations

from typing import Any

from brass._errors import ArgumentTypeError, ConfigError

MASK64 = (1 << 64) - 1


def check_seed(seed: Any) -> int:
    """A seed as the engine takes it (docs/api.md): an int with 0 <= seed < 2**64; ArgumentTypeError for another
    type, ConfigError out of range. The drivers written in Python check with this, so they refuse what the native
    ones refuse, in the same words, rather than wrap a seed into 64 bits."""
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise ArgumentTypeError(f"seed must be an int with 0 <= seed < 2**64, not {type(seed).__name__}")
    seed = seed.__index__()
    if not 0 <= seed < 2**64:
        raise ConfigError(f"seed must be an int with 0 <= seed < 2**64, not {seed}")
    return seed


class SplitMix64:
    """SplitMix64 over a u64 state `s`; the user's seed is the initial state."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next(self) -> int:
        """s += 0x9E3779B97F4A7C15; z = s; two xor-shift-multiply rounds; return z ^ (z >> 31)."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Unbiased 0 <= r < n: reject draws below t = (2^64 - n) mod n, return x mod n."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        t = ((1 << 64) - n) % n
        while True:
            x = self.next()
            if x >= t:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates from the end: for i = len-1 .. 1, j = below(i + 1), swap items i and j."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def _derived(start: int) -> tuple[int, SplitMix64]:
    """A deal seed and an agents' generator drawn one after the other from a generator started at `start`."""
    r = SplitMix64(start)
    deal = r.next()
    return deal, SplitMix64(r.next())


def selfplay_seeds(seed: int, index: int) -> tuple[int, SplitMix64]:
    """The deal seed and the agents' generator of game `index` of a self-play run (or tournament) seeded with
    `seed`, as the native driver derives them (rust/brass-core/src/agents.rs)."""
    return _derived(seed ^ ((index * 0xA24BAED4963EE407) & MASK64) ^ 0x5EED)


def rollout_seeds(seed: int, index: int) -> tuple[int, SplitMix64]:
    """The deal seed and the choices' generator of game `index` of a `brass.rollouts(…, seed)` batch
    (rust/brass-core/src/rollout.rs)."""
    return _derived(seed ^ ((index * 0xD1B54A32D192ED03) & MASK64))
