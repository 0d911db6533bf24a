//! The arithmetic of Gumbel AlphaZero (Danihelka, Guez, Schrittwieser and Silver, "Policy improvement by
//! planning with Gumbel", ICLR 2022), used by the search (`puct`): the Sequential Halving schedule of the
//! root's simulations, the completed Q-values and their transform σ, and Gumbel draws. Plain functions of
//! numbers, so each is tested on its own; the names follow the paper (and DeepMind's `mctx`, the reference
//! implementation it was checked against by reading, not copied from).
use crate::rng::Rng;

/// How many visits each considered root action has had when simulation `i` chooses among them: the
/// `i`-th entry is the visit count an action must have to be chosen by simulation `i` (Sequential Halving
/// over `considered` actions, `simulations` simulations). Each phase gives every remaining action
/// `max(1, ⌊simulations / (⌈log2 considered⌉ · remaining)⌋)` more visits, then halves the remaining actions
/// (never below two).
pub fn considered_visits(considered: u32, simulations: u32) -> Vec<u32> {
    let simulations = simulations as usize;
    if considered <= 1 {
        return (0..simulations as u32).collect();
    }
    let log2 = (considered as f64).log2().ceil() as usize;
    let mut sequence = Vec::with_capacity(simulations);
    let mut visits = vec![0u32; considered as usize];
    let mut remaining = considered as usize;
    while sequence.len() < simulations {
        let extra = (simulations / (log2 * remaining)).max(1);
        for _ in 0..extra {
            sequence.extend_from_slice(&visits[..remaining]);
            for v in &mut visits[..remaining] {
                *v += 1;
            }
        }
        remaining = (remaining / 2).max(2);
    }
    sequence.truncate(simulations);
    sequence
}

/// One action at a node, as the improved policy sees it: its prior (and its logarithm, [`log_prior`]), its
/// visits and its mean value for the player to move (meaningless while `visits` is 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionStats {
    pub prior: f32,
    pub log_prior: f32,
    pub visits: u32,
    pub q: f32,
}

/// σ(q̂) of every action (written to `sigma`, in the order of `actions`): the completed Q-values — an action's
/// mean value where visited, else the node's mixed value (the network's value `raw`, averaged with the
/// prior-weighted values of the visited actions) — mapped to [0, 1], times `(c_visit + most visits) · c_scale`.
/// The improved policy is softmax(ln prior + σ). `rescale` maps the node's lowest completed value to 0 and its
/// highest to 1 (mctx's `rescale_values`: right when values are exact); without it values in [−1, 1] map to
/// [0, 1] as they are, so a small difference between noisy estimates stays small.
pub fn sigma(
    actions: &[ActionStats],
    raw: f32,
    c_visit: f32,
    c_scale: f32,
    rescale: bool,
    sigma: &mut Vec<f32>,
) {
    sigma.clear();
    let c = Completion::new(actions, false, raw, c_visit, c_scale, rescale);
    sigma.extend(actions.iter().map(|a| c.sigma(a)));
}

/// What [`sigma`] of a node's actions is made of: its mixed value and the linear map to σ. Made from the
/// visited actions alone when the others are only known to exist (`unvisited_elsewhere`) — every one of them
/// has the mixed value, which is all they add — so a search can compute σ of a few actions of a node with
/// hundreds, the same to the bit as [`sigma`] of them all.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Completion {
    /// The completed value of an unvisited action.
    mixed: f32,
    low: f32,
    scale: f32,
}

impl Completion {
    pub fn new(
        actions: &[ActionStats],
        unvisited_elsewhere: bool,
        raw: f32,
        c_visit: f32,
        c_scale: f32,
        rescale: bool,
    ) -> Completion {
        // One pass for the visits, the most visits and the visited actions' prior-weighted values (the search
        // calls this at every node of every simulation).
        let (mut visits, mut most) = (0u32, 0u32);
        let (mut weight, mut weighted) = (0.0f32, 0.0f32);
        for a in actions {
            visits += a.visits;
            most = most.max(a.visits);
            if a.visits > 0 {
                let p = a.prior.max(f32::MIN_POSITIVE);
                weight += p;
                weighted += p * a.q;
            }
        }
        let mixed = if weight > 0.0 {
            (raw + visits as f32 * weighted / weight) / (1.0 + visits as f32)
        } else {
            raw
        };
        let (low, range) = if rescale {
            // (A minimum and a maximum do not depend on the order they are taken in: the unvisited actions
            // elsewhere count once, as `mixed`.)
            let start = |x: f32| if unvisited_elsewhere { mixed } else { x };
            let completed = |a: &ActionStats| if a.visits > 0 { a.q } else { mixed };
            let low = actions
                .iter()
                .map(completed)
                .fold(start(f32::INFINITY), f32::min);
            let high = actions
                .iter()
                .map(completed)
                .fold(start(f32::NEG_INFINITY), f32::max);
            (low, (high - low).max(1e-8))
        } else {
            (-1.0, 2.0)
        };
        Completion {
            mixed,
            low,
            scale: (c_visit + most as f32) * c_scale / range,
        }
    }

    /// σ of one action of the node.
    pub fn sigma(&self, a: &ActionStats) -> f32 {
        if a.visits > 0 {
            (a.q - self.low) * self.scale
        } else {
            self.unvisited()
        }
    }

    /// σ of an unvisited action of the node.
    pub fn unvisited(&self) -> f32 {
        (self.mixed - self.low) * self.scale
    }
}

/// The improved policy softmax(ln prior + σ) over `actions` (written to `policy`).
pub fn improved_policy(actions: &[ActionStats], sigma: &[f32], policy: &mut Vec<f32>) {
    policy.clear();
    policy.extend(actions.iter().zip(sigma).map(|(a, &s)| a.log_prior + s));
    let max = policy.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for x in policy.iter_mut() {
        *x = (*x - max).exp();
        total += *x;
    }
    for x in policy.iter_mut() {
        *x /= total;
    }
}

/// `ln prior`, kept finite for a prior of 0 (as mctx keeps logits above −10⁹).
pub fn log_prior(prior: f32) -> f32 {
    if prior > 0.0 {
        prior.ln()
    } else {
        -1e9
    }
}

/// A standard Gumbel draw, −ln(−ln U).
pub fn gumbel(rng: &mut Rng) -> f32 {
    // The top draw rounds to 1 in f32, whose Gumbel value is +∞: it is kept just below 1.
    let u =
        ((((rng.next_u64() >> 40) as f32) + 0.5) / (1u64 << 24) as f32).min(crate::rng::BELOW_ONE);
    -(-u.ln()).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_halving_visits_the_considered_actions_in_phases() {
        // 16 actions, 64 simulations: one visit each, then 8 actions get 2 more each, 4 get 4, 2 get 8.
        let s = considered_visits(16, 64);
        assert_eq!(s.len(), 64);
        assert_eq!(&s[..16], &[0; 16]);
        assert_eq!(&s[16..24], &[1; 8]);
        assert_eq!(&s[24..32], &[2; 8]);
        assert_eq!(&s[32..36], &[3; 4]);
        assert_eq!(&s[44..48], &[6; 4]);
        assert_eq!(&s[48..50], &[7, 7]);
        assert_eq!(&s[62..64], &[14, 14]);
        // Fewer simulations than actions: each simulation a new action.
        assert_eq!(considered_visits(8, 5), vec![0; 5]);
        // One action: every simulation goes to it.
        assert_eq!(considered_visits(1, 4), vec![0, 1, 2, 3]);
        // Three actions, 10 simulations: ⌈log2 3⌉ = 2, so ⌊10 / 6⌋ = 1 visit each, then two actions 2 each …
        assert_eq!(considered_visits(3, 10), vec![0, 0, 0, 1, 1, 2, 2, 3, 3, 4]);
    }

    fn stats(prior: f32, visits: u32, q: f32) -> ActionStats {
        ActionStats {
            prior,
            log_prior: log_prior(prior),
            visits,
            q,
        }
    }

    #[test]
    fn sigma_completes_unvisited_actions_with_the_mixed_value_and_rescales() {
        let actions = [
            stats(0.5, 3, 0.2),
            stats(0.25, 1, -0.6),
            stats(0.25, 0, 0.0),
        ];
        let mut s = Vec::new();
        sigma(&actions, 0.0, 50.0, 0.1, true, &mut s);
        // Mixed value: (0 + 4 · (0.5 · 0.2 + 0.25 · −0.6) / 0.75) / 5 = −0.0533…; range −0.6 … 0.2.
        let mixed = 4.0 * (0.5 * 0.2 - 0.25 * 0.6) / 0.75 / 5.0;
        let scale = (50.0 + 3.0) * 0.1 / 0.8;
        assert!((s[0] - 0.8 * scale).abs() < 1e-4, "{s:?}");
        assert!(s[1].abs() < 1e-6);
        assert!((s[2] - (mixed + 0.6) * scale).abs() < 1e-4, "{s:?}");
        // Nothing visited: every action has the network's value, σ = 0.
        sigma(
            &[stats(0.6, 0, 0.0), stats(0.4, 0, 0.0)],
            0.7,
            50.0,
            0.1,
            true,
            &mut s,
        );
        assert_eq!(s, vec![0.0, 0.0]);
    }

    /// σ made from the visited actions alone, the unvisited ones only known to exist, is σ of them all to the
    /// bit — with and without rescaling, the mixed value the lowest, the highest or in between.
    #[test]
    fn the_completion_of_the_visited_actions_is_sigma_of_them_all() {
        let mut rng = Rng(17);
        let mut all = Vec::new();
        for case in 0..300 {
            let n = 2 + (rng.next_u64() % 30) as usize;
            let actions: Vec<ActionStats> = (0..n)
                .map(|_| {
                    let prior = (rng.next_u64() % 1000) as f32 / 1000.0;
                    let visits = [0, 0, 1, 3][(rng.next_u64() % 4) as usize];
                    let q = (rng.next_u64() % 2001) as f32 / 1000.0 - 1.0;
                    stats(prior, visits, q)
                })
                .collect();
            let raw = (rng.next_u64() % 2001) as f32 / 1000.0 - 1.0;
            let visited: Vec<ActionStats> =
                actions.iter().copied().filter(|a| a.visits > 0).collect();
            let elsewhere = visited.len() < actions.len();
            for rescale in [true, false] {
                sigma(&actions, raw, 50.0, 0.1, rescale, &mut all);
                let c = Completion::new(&visited, elsewhere, raw, 50.0, 0.1, rescale);
                for (a, &want) in actions.iter().zip(&all) {
                    let got = if a.visits > 0 {
                        c.sigma(a)
                    } else {
                        c.unvisited()
                    };
                    assert_eq!(
                        got.to_bits(),
                        want.to_bits(),
                        "case {case}, rescale {rescale}"
                    );
                }
            }
        }
    }

    #[test]
    fn without_rescaling_a_small_difference_stays_small() {
        let actions = [stats(0.5, 4, 0.02), stats(0.5, 4, 0.0)];
        let mut s = Vec::new();
        sigma(&actions, 0.0, 50.0, 0.1, false, &mut s);
        // (50 + 4) · 0.1 · 0.02 / 2 apart: 0.054, where rescaling makes it the whole 5.4.
        assert!((s[0] - s[1] - 0.054).abs() < 1e-5, "{s:?}");
        sigma(&actions, 0.0, 50.0, 0.1, true, &mut s);
        assert!((s[0] - s[1] - 5.4).abs() < 1e-4, "{s:?}");
    }

    #[test]
    fn the_improved_policy_favours_what_the_search_found_good() {
        let actions = [stats(0.7, 4, -0.5), stats(0.3, 4, 0.5)];
        let (mut s, mut p) = (Vec::new(), Vec::new());
        sigma(&actions, 0.0, 50.0, 0.1, true, &mut s);
        improved_policy(&actions, &s, &mut p);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(p[1] > 0.95, "{p:?}");
        // Equal values: the prior is given back.
        let same = [stats(0.7, 4, 0.1), stats(0.3, 4, 0.1)];
        sigma(&same, 0.0, 50.0, 0.1, true, &mut s);
        improved_policy(&same, &s, &mut p);
        assert!((p[0] - 0.7).abs() < 1e-5 && (p[1] - 0.3).abs() < 1e-5);
    }

    #[test]
    fn gumbel_draws_have_the_right_mean() {
        let mut rng = Rng(5);
        let n = 40_000;
        let mean = (0..n).map(|_| gumbel(&mut rng) as f64).sum::<f64>() / n as f64;
        assert!((mean - 0.5772).abs() < 0.03, "{mean}"); // the Euler–Mascheroni constant
    }

    #[test]
    fn the_extreme_draws_give_finite_gumbel_values() {
        // The top draw (2^24 − ½) / 2^24 rounds to 1 in f32, whose Gumbel value would be +∞.
        let top = gumbel(&mut Rng::giving(u64::MAX));
        let bottom = gumbel(&mut Rng::giving(0));
        assert!(top.is_finite() && top > 15.0, "{top}");
        assert!(bottom.is_finite() && bottom < -2.5, "{bottom}");
    }
}
