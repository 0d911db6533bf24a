//! PUCT search guided by a policy-value network (AlphaZero-style), for a game of hidden information
//! (docs/learning.md, "The search").
//!
//! Each simulation deals the hidden cards afresh, consistent with what the searching player knows
//! ([`resample_hidden`], as the random-rollout MCTS does), and walks one tree shared by all deals: a node is
//! a sequence of actions from the root. At a node the player to move picks the child with the best
//! `Q + c · P · √N / (1 + n)`, where `Q` is that player's mean value, `P` the network's prior over the
//! actions legal in this deal, `N` the node's visits and `n` the child's. A node met for the first time is a
//! leaf: the network evaluates it (the observation of the player to move, and the legal actions) and its
//! values — one per seat, each seat maximising its own — are backed up the path; a finished game backs up
//! its real result ([`apply::returns`]). Many searches run side by side and hand their leaves to the
//! evaluator in one batch ([`Batch`]).
use crate::apply::{self, apply_unchecked};
use crate::game::{Game, MAX_PLAYERS};
use crate::hidden::resample_hidden;
use crate::observation;
use crate::rng::Rng;
use crate::rules;
use crate::state::State;

/// How a search is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct PuctConfig {
    /// Simulations per decision.
    pub simulations: u32,
    /// The exploration constant `c`.
    pub c_puct: f32,
    /// Dirichlet noise mixed into the root's priors (self-play exploration); `alpha` 0 for none.
    pub dirichlet_alpha: f32,
    /// The share of the noise in the root's priors.
    pub dirichlet_fraction: f32,
    /// An unvisited child is worth the mover's mean value at its node, less this ("first-play urgency"):
    /// counting it as an even game instead (0) made a losing player's search spread its visits over every
    /// move, and its policy targets flat.
    pub fpu_reduction: f32,
}

impl Default for PuctConfig {
    fn default() -> PuctConfig {
        PuctConfig {
            simulations: 64,
            c_puct: 1.5,
            dirichlet_alpha: 0.0,
            dirichlet_fraction: 0.25,
            fpu_reduction: 0.0,
        }
    }
}

/// Evaluates leaves: `rows` observations (`rows × observation::size`) and legal-action masks
/// (`rows × num_actions`) into logits (`rows × num_actions`) and values (`rows × players`, each row
/// relative to its observer: index 0 is the player to move at the leaf, then the next seats in turn).
pub trait Evaluator {
    fn evaluate(
        &mut self,
        observations: &[f32],
        masks: &[bool],
        rows: usize,
        logits: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) -> crate::error::Result<()>;
}

struct Node {
    /// Visits through this node.
    visits: u32,
    /// Sum of the values backed up through it, by seat.
    value: [f32; MAX_PLAYERS],
    /// The network's logits at this node (all actions), once it has been evaluated.
    logits: Vec<f32>,
    /// (action, child node).
    children: Vec<(u16, u32)>,
}

impl Node {
    fn new() -> Node {
        Node {
            visits: 0,
            value: [0.0; MAX_PLAYERS],
            logits: Vec::new(),
            children: Vec::new(),
        }
    }
}

/// A simulation waiting for its leaf's evaluation.
struct Pending {
    path: Vec<u32>,
    /// The player to move at the leaf (whose observation was asked for).
    observer: u8,
}

/// One search for the decision of `root`'s player to move.
pub struct Search {
    root: State,
    me: u8,
    config: PuctConfig,
    rng: Rng,
    nodes: Vec<Node>,
    done: u32,
    pending: Option<Pending>,
    /// Dirichlet noise per legal root action, drawn when the root is first evaluated.
    noise: Vec<(u16, f32)>,
    ids: Vec<u16>,
}

/// What a search needs next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// A leaf's evaluation: its observation and mask were written to the buffers given.
    Evaluation,
    /// Nothing: all the simulations are done.
    Finished,
}

impl Search {
    /// A search for the player to move in `root` (which is not over), its randomness from `seed`.
    pub fn new(game: &Game, root: &State, config: &PuctConfig, seed: u64) -> Search {
        let me = root.current_player(game).expect("a decision to search");
        Search {
            root: *root,
            me,
            config: config.clone(),
            rng: Rng(seed),
            nodes: vec![Node::new()],
            done: 0,
            pending: None,
            noise: Vec::new(),
            ids: Vec::with_capacity(128),
        }
    }

    /// Run simulations until one needs a leaf evaluated (its observation is written to `observation`,
    /// `observation::size` floats, and its legal actions to `mask`, `num_actions` bools) or all are done.
    pub fn advance(&mut self, game: &Game, observation: &mut [f32], mask: &mut [bool]) -> Need {
        debug_assert!(
            self.pending.is_none(),
            "a leaf is waiting for its evaluation"
        );
        while self.done < self.config.simulations {
            let mut state = resample_hidden(game, &self.root, self.me, self.rng.next_u64());
            let mut path = vec![0u32];
            loop {
                let node = *path.last().expect("a path");
                if state.is_terminal() {
                    let r = apply::returns(game, &state);
                    let mut value = [0.0f32; MAX_PLAYERS];
                    for p in 0..game.players as usize {
                        value[p] = r[p] as f32;
                    }
                    self.backup(&path, &value);
                    break;
                }
                if self.nodes[node as usize].logits.is_empty() {
                    let observer = state.current_player(game).expect("a player to move");
                    observation::write(game, &state, observer, observation);
                    self.ids.clear();
                    rules::legal_actions(game, &state, &mut self.ids);
                    mask.fill(false);
                    for &id in &self.ids {
                        mask[id as usize] = true;
                    }
                    self.pending = Some(Pending { path, observer });
                    return Need::Evaluation;
                }
                let action = self.select(game, &state, node);
                apply_unchecked(game, &mut state, game.decode(action as i64).expect("legal"));
                let child = match self.nodes[node as usize]
                    .children
                    .iter()
                    .find(|&&(a, _)| a == action)
                {
                    Some(&(_, c)) => c,
                    None => {
                        let c = self.nodes.len() as u32;
                        self.nodes.push(Node::new());
                        self.nodes[node as usize].children.push((action, c));
                        c
                    }
                };
                path.push(child);
            }
        }
        Need::Finished
    }

    /// The evaluation of the leaf [`advance`](Search::advance) asked for: `logits` (`num_actions`) and
    /// `values` (`players`, relative to the leaf's player to move).
    pub fn deliver(&mut self, game: &Game, logits: &[f32], values: &[f32]) {
        let Pending { path, observer } = self.pending.take().expect("a leaf waiting");
        let leaf = *path.last().expect("a path") as usize;
        self.nodes[leaf].logits = logits[..game.num_actions()].to_vec();
        if leaf == 0 && self.config.dirichlet_alpha > 0.0 {
            self.draw_noise(game);
        }
        let n = game.players as usize;
        let mut value = [0.0f32; MAX_PLAYERS];
        for k in 0..n {
            value[(observer as usize + k) % n] = values[k];
        }
        self.backup(&path, &value);
    }

    /// The visits of each root action (only actions legal at the root; the same in every deal, since the
    /// player to move knows their own hand).
    pub fn visits(&self) -> Vec<(u16, u32)> {
        self.nodes[0]
            .children
            .iter()
            .map(|&(a, c)| (a, self.nodes[c as usize].visits))
            .collect()
    }

    /// An improved policy for the root (Danihelka et al., "Policy improvement by planning with Gumbel", 2022:
    /// the "completed Q-values" target): softmax over the legal root actions of `logit + (50 + max visits) ·
    /// 0.1 · q`, `q` the action's mean value for the searching player mapped to [0, 1], or the root's mean
    /// value for an action not visited. Unlike the visit counts of a search of a few dozen simulations,
    /// which spread over the priors and the root noise, it moves the policy only where the search found
    /// something, so a network trained on it does not drift towards flatter policies.
    pub fn improved_policy(&self, game: &Game) -> Vec<(u16, f32)> {
        let root = &self.nodes[0];
        let me = self.me as usize;
        let mean = |value: f32, visits: u32| value / visits.max(1) as f32;
        let root_q = mean(root.value[me], root.visits);
        let most = root
            .children
            .iter()
            .map(|&(_, c)| self.nodes[c as usize].visits)
            .max()
            .unwrap_or(0);
        let mut ids = Vec::new();
        rules::legal_actions(game, &self.root, &mut ids);
        let scores: Vec<f32> = ids
            .iter()
            .map(|&a| {
                let q = match root.children.iter().find(|&&(b, _)| b == a) {
                    Some(&(_, c)) if self.nodes[c as usize].visits > 0 => {
                        let child = &self.nodes[c as usize];
                        mean(child.value[me], child.visits)
                    }
                    _ => root_q,
                };
                let logit = root.logits.get(a as usize).copied().unwrap_or(0.0);
                logit + (50.0 + most as f32) * 0.1 * (q + 1.0) / 2.0
            })
            .collect();
        let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let total: f32 = scores.iter().map(|&x| (x - max).exp()).sum();
        ids.iter()
            .zip(&scores)
            .map(|(&a, &x)| (a, (x - max).exp() / total))
            .collect()
    }

    /// The mean value of the root for each seat (absolute seats).
    pub fn root_value(&self) -> Vec<f32> {
        let root = &self.nodes[0];
        root.value
            .iter()
            .map(|&v| v / root.visits.max(1) as f32)
            .collect()
    }

    fn backup(&mut self, path: &[u32], value: &[f32; MAX_PLAYERS]) {
        for &n in path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            for p in 0..MAX_PLAYERS {
                node.value[p] += value[p];
            }
        }
        self.done += 1;
    }

    /// The child to visit from `node` in `state`: the best `Q + U` for the player to move, over the actions
    /// legal in this deal, priors renormalised over them.
    fn select(&mut self, game: &Game, state: &State, node: u32) -> u16 {
        let mover = state.current_player(game).expect("a player to move") as usize;
        self.ids.clear();
        rules::legal_actions(game, state, &mut self.ids);
        let n = &self.nodes[node as usize];
        let max = self
            .ids
            .iter()
            .map(|&a| n.logits[a as usize])
            .fold(f32::NEG_INFINITY, f32::max);
        let total: f32 = self
            .ids
            .iter()
            .map(|&a| (n.logits[a as usize] - max).exp())
            .sum();
        let sqrt_visits = (n.visits.max(1) as f32).sqrt();
        let unvisited = n.value[mover] / n.visits.max(1) as f32 - self.config.fpu_reduction;
        let mut best = (f32::NEG_INFINITY, self.ids[0]);
        for &a in &self.ids {
            let mut prior = (n.logits[a as usize] - max).exp() / total;
            if node == 0 {
                if let Some(&(_, eta)) = self.noise.iter().find(|&&(b, _)| b == a) {
                    let f = self.config.dirichlet_fraction;
                    prior = (1.0 - f) * prior + f * eta;
                }
            }
            let (visits, q) = match n.children.iter().find(|&&(b, _)| b == a) {
                Some(&(_, c)) => {
                    let child = &self.nodes[c as usize];
                    (
                        child.visits,
                        child.value[mover] / child.visits.max(1) as f32,
                    )
                }
                None => (0, unvisited),
            };
            let score = q + self.config.c_puct * prior * sqrt_visits / (1.0 + visits as f32);
            if score > best.0 {
                best = (score, a);
            }
        }
        best.1
    }

    fn draw_noise(&mut self, game: &Game) {
        self.ids.clear();
        rules::legal_actions(game, &self.root, &mut self.ids);
        let draws: Vec<f32> = self
            .ids
            .iter()
            .map(|_| gamma(&mut self.rng, self.config.dirichlet_alpha))
            .collect();
        let total: f32 = draws.iter().sum::<f32>().max(f32::MIN_POSITIVE);
        self.noise = self
            .ids
            .iter()
            .zip(draws)
            .map(|(&a, d)| (a, d / total))
            .collect();
    }
}

/// A uniform draw in (0, 1).
fn open_unit(rng: &mut Rng) -> f32 {
    (((rng.next_u64() >> 40) as f32) + 0.5) / (1u64 << 24) as f32
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut Rng) -> f32 {
    let (u, v) = (open_unit(rng), open_unit(rng));
    (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
}

/// A Gamma(alpha, 1) draw (Marsaglia and Tsang; for alpha < 1, Gamma(alpha + 1) · U^(1/alpha)); a
/// Dirichlet draw is independent Gamma draws, normalised.
fn gamma(rng: &mut Rng, alpha: f32) -> f32 {
    if alpha < 1.0 {
        return gamma(rng, alpha + 1.0) * open_unit(rng).powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v > 0.0 && open_unit(rng).ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// Leaves of many searches, evaluated together.
pub struct Batch {
    pub observations: Vec<f32>,
    pub masks: Vec<bool>,
    pub logits: Vec<f32>,
    pub values: Vec<f32>,
    size: usize,
    actions: usize,
}

impl Batch {
    /// Room for `rows` leaves of `game`.
    pub fn new(game: &Game, rows: usize) -> Batch {
        let size = observation::size(game);
        let actions = game.num_actions();
        Batch {
            observations: vec![0.0; rows * size],
            masks: vec![false; rows * actions],
            logits: Vec::new(),
            values: Vec::new(),
            size,
            actions,
        }
    }

    /// The observation and mask buffers of row `i`.
    pub fn row(&mut self, i: usize) -> (&mut [f32], &mut [bool]) {
        (
            &mut self.observations[i * self.size..(i + 1) * self.size],
            &mut self.masks[i * self.actions..(i + 1) * self.actions],
        )
    }
}

/// Run one search to the end with `evaluator`, one leaf at a time (an agent's decision).
pub fn search(
    game: &Game,
    state: &State,
    config: &PuctConfig,
    seed: u64,
    evaluator: &mut dyn Evaluator,
) -> crate::error::Result<Search> {
    let mut s = Search::new(game, state, config, seed);
    let mut batch = Batch::new(game, 1);
    loop {
        let (obs, mask) = batch.row(0);
        match s.advance(game, obs, mask) {
            Need::Finished => return Ok(s),
            Need::Evaluation => {
                evaluator.evaluate(
                    &batch.observations,
                    &batch.masks,
                    1,
                    &mut batch.logits,
                    &mut batch.values,
                )?;
                s.deliver(game, &batch.logits, &batch.values);
            }
        }
    }
}

/// The action with the most visits (ties to the lower id), or one drawn with probability ∝
/// visits^(1/temperature) when `temperature` > 0.
pub fn pick(visits: &[(u16, u32)], temperature: f32, rng: &mut Rng) -> u16 {
    let mut sorted = visits.to_vec();
    sorted.sort_unstable();
    if temperature <= 0.0 {
        let most = sorted.iter().map(|&(_, v)| v).max().unwrap_or(0);
        return sorted
            .iter()
            .find(|&&(_, v)| v == most)
            .map_or(0, |&(a, _)| a);
    }
    let weights: Vec<f64> = sorted
        .iter()
        .map(|&(_, v)| (v as f64).powf(1.0 / temperature as f64))
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return sorted[rng.below(sorted.len() as u64) as usize].0;
    }
    let mut x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (&(a, _), w) in sorted.iter().zip(&weights) {
        if x < *w {
            return a;
        }
        x -= w;
    }
    sorted.last().map_or(0, |&(a, _)| a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Uniform priors, zero values.
    struct Uniform;
    impl Evaluator for Uniform {
        fn evaluate(
            &mut self,
            _: &[f32],
            masks: &[bool],
            rows: usize,
            logits: &mut Vec<f32>,
            values: &mut Vec<f32>,
        ) -> crate::error::Result<()> {
            logits.clear();
            logits.resize(masks.len(), 0.0);
            values.clear();
            values.resize(rows * 4, 0.0);
            Ok(())
        }
    }

    #[test]
    fn gamma_draws_have_the_right_mean() {
        let mut rng = Rng(3);
        for alpha in [0.3f32, 1.0, 2.5] {
            let n = 20_000;
            let mean: f32 = (0..n).map(|_| gamma(&mut rng, alpha)).sum::<f32>() / n as f32;
            assert!(
                (mean - alpha).abs() < 0.05 * alpha.max(1.0),
                "{alpha}: {mean}"
            );
        }
    }

    #[test]
    fn a_search_spends_its_simulations_and_visits_only_legal_root_actions() {
        let g = Game::new("birmingham", 2, &BTreeMap::new()).expect("game");
        let state = apply::new_state(&g, 5);
        let config = PuctConfig {
            simulations: 50,
            dirichlet_alpha: 0.3,
            ..PuctConfig::default()
        };
        let s = search(&g, &state, &config, 1, &mut Uniform).expect("search");
        let visits = s.visits();
        let mut legal = Vec::new();
        rules::legal_actions(&g, &state, &mut legal);
        assert!(visits.iter().all(|(a, _)| legal.contains(a)));
        // The first simulation evaluates the root; each later one adds a visit below it.
        assert_eq!(visits.iter().map(|&(_, v)| v).sum::<u32>(), 49);
        let again = search(&g, &state, &config, 1, &mut Uniform).expect("search");
        assert_eq!(
            again.visits(),
            visits,
            "the same seed gives the same search"
        );
    }

    #[test]
    fn pick_takes_the_most_visited_or_draws_by_visits() {
        let visits = [(7u16, 3u32), (2, 10), (5, 10), (9, 0)];
        let mut rng = Rng(1);
        assert_eq!(pick(&visits, 0.0, &mut rng), 2);
        let mut seen = [0u32; 10];
        for _ in 0..2000 {
            seen[pick(&visits, 1.0, &mut rng) as usize] += 1;
        }
        assert_eq!(seen[9], 0);
        assert!(seen[2] > 3 * seen[7] / 2 && seen[5] > 3 * seen[7] / 2 && seen[7] > 0);
    }
}
