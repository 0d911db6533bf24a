"""SplitMix64 reference values and the derived below()/shuffle() (docs/state-format.md, "The RNG")."""

from brass._rng import SplitMix64


def test_splitmix64_seed_0_reference_values():
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_splitmix64_wraps_mod_2_64():
    rng = SplitMix64((1 << 64) - 1)
    x = rng.next()
    assert 0 <= x < 1 << 64
    assert rng.state == (0x9E3779B97F4A7C15 - 1)


def test_below_uses_rejection_threshold_and_modulo():
    # below(n) = next() % n whenever next() >= (2^64 - n) % n; for n = 10 the threshold is 6.
    a, b = SplitMix64(0), SplitMix64(0)
    assert [a.below(10) for _ in range(5)] == [b.next() % 10 for _ in range(5)]
    assert all(0 <= SplitMix64(s).below(3) < 3 for s in range(100))


def test_below_rejects_values_under_threshold():
    n = (1 << 63) + 1  # threshold t = (2^64 - n) mod n = 2^63 - 1: draws below it are rejected
    rng, raw = SplitMix64(5), SplitMix64(5)
    t = ((1 << 64) - n) % n
    expected = None
    while expected is None:
        x = raw.next()
        if x >= t:
            expected = x % n
    assert rng.below(n) == expected


def test_shuffle_is_fisher_yates_from_the_end():
    items = list(range(6))
    rng, ref = SplitMix64(42), SplitMix64(42)
    rng.shuffle(items)
    expected = list(range(6))
    for i in range(5, 0, -1):
        j = ref.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert sorted(items) == list(range(6))
