//! SplitMix64, the one random number generator of both engines (docs/state-format.md, "The RNG").
//!
//! Hidden information (deck order, DCM tiles, first turn order) is drawn from it, and its state is part
//! of the game state, so (configuration, seed, actions) replays a game exactly in both engines.

/// The largest f32 below 1: where a uniform draw in (0, 1) made of 24 bits would round to 1.
pub const BELOW_ONE: f32 = 1.0 - f32::EPSILON / 2.0;

/// A SplitMix64 generator; the seed is the initial state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (n > 0), by rejection so that it is unbiased.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let threshold = n.wrapping_neg() % n;
        loop {
            let x = self.next_u64();
            if x >= threshold {
                return x % n;
            }
        }
    }

    /// Fisher–Yates from the end: for i from len-1 down to 1, swap i with below(i+1).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
impl Rng {
    /// The generator whose next output is `x` (SplitMix64's output function is a bijection: undone step by
    /// step), for tests of what a draw does with its extreme values.
    pub(crate) fn giving(x: u64) -> Rng {
        let unshift = |y: u64, k: u32| {
            let mut z = y;
            for _ in 0..64 / k {
                z = y ^ (z >> k);
            }
            z
        };
        // The inverse of an odd number modulo 2^64 (Newton's iteration doubles the correct bits).
        let inverse = |c: u64| {
            let mut inv = c;
            for _ in 0..6 {
                inv = inv.wrapping_mul(2u64.wrapping_sub(c.wrapping_mul(inv)));
            }
            inv
        };
        let mut z = unshift(x, 31);
        z = unshift(z.wrapping_mul(inverse(0x94D0_49BB_1331_11EB)), 27);
        z = unshift(z.wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9)), 30);
        Rng(z.wrapping_sub(0x9E37_79B9_7F4A_7C15))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generator_can_be_made_for_any_next_output() {
        for x in [0, 1 << 40, u64::MAX, 0x1234_5678_9ABC_DEF0] {
            assert_eq!(Rng::giving(x).next_u64(), x);
        }
    }

    #[test]
    fn splitmix64_reference_outputs() {
        // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        let mut rng = Rng(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_is_in_range_and_shuffle_is_a_permutation() {
        let mut rng = Rng(42);
        for n in 1..50u64 {
            assert!(rng.below(n) < n);
        }
        let mut v: Vec<u32> = (0..20).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
