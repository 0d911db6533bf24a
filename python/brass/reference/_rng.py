"""SplitMix64, exactly as in DESIGN.md ("The RNG"), used for every chance event (docs/state-format.md).

The generator's whole state is one unsigned 64-bit integer, stored in the game state (`rng`), so a
state fixes all hidden information and replays are exact.
"""

from __future__ import annotations

from typing import Any

MASK64 = (1 << 64) - 1


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
