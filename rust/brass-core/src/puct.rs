//! Search guided by a policy-value network, for a game of hidden information (docs/learning.md, "The
//! search"): AlphaZero's PUCT, or Gumbel AlphaZero (Danihelka et al. 2022; arithmetic in [`gumbel`]).
//!
//! One tree serves every deal of the hidden cards: a node is a sequence of actions from the root. Each
//! simulation sees the hidden cards dealt afresh, consistent with what the searching player knows
//! ([`Redealer`], as the random-rollout MCTS does) — but only where they can make a difference. While the
//! searching player decides and no card is drawn, no shuffle happens and nobody else's hand is read
//! ([`touches_hidden`]), every deal reaches the same position up to the hidden cards: such a node is *fixed*,
//! and keeps its position, its legal actions and its priors, so a simulation walks through it without
//! replaying or listing anything. The first step that does touch the hidden cards deals them at its fixed
//! parent, and the simulation plays on from there in its own deal (a *dealt* node: its legal actions are
//! listed in each deal, and its priors renormalised over them).
//!
//! At a node the player to move picks, over the actions legal in this deal:
//! - **PUCT**: the best `Q + c · P · √N / (1 + n)`, `Q` that player's mean value through the child (while
//!   unvisited, the node's mean value less `fpu_reduction`), `P` the prior, `N` the node's visits, `n` the
//!   child's; Dirichlet noise may be mixed into the root's priors;
//! - **Gumbel**: at the root, Sequential Halving over the `considered` actions of highest Gumbel draw +
//!   log prior, each round keeping the half of highest Gumbel + log prior + σ(completed Q); below it, the
//!   action most under-visited by the improved policy softmax(ln P + σ): `argmax π'(a) − n(a) / (1 + Σ n)`.
//!
//! A node met for the first time is a leaf: the network evaluates the observation of its player to move and
//! its values — one per seat, each seat maximising its own, so the search is right for 2, 3 and 4 players —
//! are backed up the path; a finished game backs up its real result ([`apply::returns`]). The root is
//! evaluated first, and `simulations` more leaves (or finished games) follow. Many searches run side by side
//! and hand their leaves to the evaluator in one batch ([`Batch`]).
use crate::apply::{self, apply_unchecked};
use crate::game::{Game, MAX_PLAYERS};
use crate::gumbel::{self, ActionStats};
use crate::hidden::{touches_hidden, Redealer};
use crate::observation;
use crate::rng::Rng;
use crate::rules;
use crate::state::State;
use std::sync::atomic::{AtomicBool, Ordering};

/// Gumbel AlphaZero's settings (mctx's names in the comments).
#[derive(Clone, Debug, PartialEq)]
pub struct GumbelConfig {
    /// Root actions Sequential Halving starts from (`max_num_considered_actions`).
    pub considered: u32,
    /// The scale of the root's Gumbel draws (`gumbel_scale`): 1 in self-play, where it makes the chosen
    /// action a sample of the improved policy; 0 picks the best action deterministically.
    pub scale: f32,
    /// σ(q̂) = (`c_visit` + most visits) · `c_scale` · q̂ (`maxvisit_init`, `value_scale`).
    pub c_visit: f32,
    pub c_scale: f32,
    /// Rescale the completed Q-values to [0, 1] over each node's actions (mctx's `rescale_values`; see
    /// [`gumbel::sigma`]).
    pub rescale: bool,
}

impl Default for GumbelConfig {
    fn default() -> GumbelConfig {
        GumbelConfig {
            considered: 16,
            scale: 1.0,
            c_visit: 50.0,
            c_scale: 0.1,
            rescale: true,
        }
    }
}

/// How a search is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct PuctConfig {
    /// Leaves (or finished games) evaluated after the root.
    pub simulations: u32,
    /// The exploration constant `c` (PUCT).
    pub c_puct: f32,
    /// Dirichlet noise mixed into the root's priors (PUCT self-play exploration); `alpha` 0 for none.
    pub dirichlet_alpha: f32,
    /// The share of the noise in the root's priors.
    pub dirichlet_fraction: f32,
    /// An unvisited child is worth the mover's mean value at its node, less this ("first-play urgency", PUCT):
    /// counting it as an even game instead (0) made a losing player's search spread its visits over every
    /// move, and its policy targets flat.
    pub fpu_reduction: f32,
    /// Gumbel AlphaZero's root and tree rules instead of PUCT (None: PUCT).
    pub gumbel: Option<GumbelConfig>,
}

impl Default for PuctConfig {
    fn default() -> PuctConfig {
        PuctConfig {
            simulations: 64,
            c_puct: 1.5,
            dirichlet_alpha: 0.0,
            dirichlet_fraction: 0.25,
            fpu_reduction: 0.0,
            gumbel: None,
        }
    }
}

/// Evaluates leaves: `rows` observations (`rows × observation::size`) and legal-action masks
/// (`rows × num_actions`) into logits (`rows × num_actions`) and values (`rows × players`, each row
/// relative to its observer: index 0 is the player to move at the leaf, then the next seats in turn). Only
/// the logits of legal actions are read.
pub trait Evaluator {
    fn evaluate(
        &mut self,
        observations: &[f32],
        masks: &[bool],
        rows: usize,
        logits: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) -> crate::error::Result<()>;

    /// Whether [`evaluate`](Evaluator::evaluate) reads the masks. One that does not (the native network: it
    /// gives every action's logit) is handed none, and the search skips listing the legal actions of the
    /// leaves it asks for in a deal of its own (the search's priors are made from the logits of the actions
    /// legal in each deal, whatever the leaf's mask was).
    fn reads_masks(&self) -> bool {
        true
    }
}

const NONE: u32 = u32::MAX;
/// No player to move: the game is over.
const GAME_OVER: u8 = u8::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Visits through this node.
    visits: u32,
    /// Sum of the values backed up through it, by seat.
    value: [f32; MAX_PLAYERS],
    /// The network's values at this node (absolute seats), once evaluated; a finished game's result.
    raw: [f32; MAX_PLAYERS],
    evaluated: bool,
    /// A fixed node's player to move, or `GAME_OVER` (a dealt node's are its deal's): kept here so that a
    /// simulation passing through reads the node, not the far end of its 2 KB position.
    fixed_mover: u8,
    /// Its entry in `Search::fixed`, or NONE for a dealt node.
    fixed: u32,
    /// A dealt node's logits, `Search::logits[logits_at..][..num_actions]`.
    logits_at: u32,
    /// A dealt node's children, linked through `next_sibling`; `action` is the action leading to the node.
    first_child: u32,
    next_sibling: u32,
    action: u16,
}

impl Node {
    fn new(action: u16, fixed: u32) -> Node {
        Node {
            visits: 0,
            value: [0.0; MAX_PLAYERS],
            raw: [0.0; MAX_PLAYERS],
            evaluated: false,
            fixed_mover: GAME_OVER,
            fixed,
            logits_at: NONE,
            first_child: NONE,
            next_sibling: NONE,
            action,
        }
    }
}

/// A fixed node: its position (the same in every deal up to the hidden cards), and its legal actions with
/// their priors and children in `Search::ids`, `priors`, `kids` `[at..at + len]`.
#[derive(Clone, Debug)]
struct Fixed {
    state: State,
    at: u32,
    len: u32,
    /// Deals the hidden cards here, for the steps that leave the fixed nodes (made when first needed).
    redealer: Option<Redealer>,
}

/// One action at the node being walked, in this deal.
#[derive(Clone, Copy, Debug)]
struct Edge {
    action: u16,
    prior: f32,
    log_prior: f32,
    child: u32,
}

/// A leaf waiting for its evaluation (the path to it is `Search::path`).
#[derive(Clone, Copy, Debug)]
struct Pending {
    node: u32,
    /// The player to move at the leaf (whose observation was asked for).
    observer: u8,
}

/// One search for the decision of `root`'s player to move. Reusable: [`Search::restart`] keeps its buffers.
pub struct Search {
    me: u8,
    config: PuctConfig,
    rng: Rng,
    nodes: Vec<Node>,
    fixed: Vec<Fixed>,
    ids: Vec<u16>,
    priors: Vec<f32>,
    log_priors: Vec<f32>,
    kids: Vec<u32>,
    logits: Vec<f32>,
    done: u32,
    pending: Option<Pending>,
    path: Vec<u32>,
    /// The root's Dirichlet noise (PUCT) or Gumbel draws, by root action (in the root's legal order).
    root_noise: Vec<f32>,
    /// Sequential Halving: the visits an action needs to be chosen by each simulation.
    schedule: Vec<u32>,
    // Scratch space for one step.
    edges: Vec<Edge>,
    stats: Vec<ActionStats>,
    sigma: Vec<f32>,
    policy: Vec<f32>,
    listed: Vec<u16>,
    child_of: Vec<u32>,
    /// The visited root actions' indices (`root_choice`).
    visited: Vec<u32>,
    /// Where a simulation's hidden cards are dealt (`advance`).
    deal_buffer: Option<Box<State>>,
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
        let mut s = Search {
            me: 0,
            config: config.clone(),
            rng: Rng(seed),
            nodes: Vec::new(),
            fixed: Vec::new(),
            ids: Vec::new(),
            priors: Vec::new(),
            log_priors: Vec::new(),
            kids: Vec::new(),
            logits: Vec::new(),
            done: 0,
            pending: None,
            path: Vec::new(),
            root_noise: Vec::new(),
            schedule: Vec::new(),
            edges: Vec::new(),
            stats: Vec::new(),
            sigma: Vec::new(),
            policy: Vec::new(),
            listed: Vec::with_capacity(128),
            child_of: vec![NONE; game.num_actions()],
            visited: Vec::new(),
            deal_buffer: None,
        };
        s.restart(game, root, config, seed);
        s
    }

    /// Start a new search (of the same game), keeping the buffers of the last.
    pub fn restart(&mut self, game: &Game, root: &State, config: &PuctConfig, seed: u64) {
        self.me = root.current_player(game).expect("a decision to search");
        if self.config != *config {
            self.config = config.clone();
        }
        self.rng = Rng(seed);
        for v in [&mut self.priors, &mut self.log_priors, &mut self.logits] {
            v.clear();
        }
        self.nodes.clear();
        self.fixed.clear();
        self.ids.clear();
        self.kids.clear();
        self.done = 0;
        self.pending = None;
        self.root_noise.clear();
        self.schedule.clear();
        self.child_of.resize(game.num_actions(), NONE);
        self.add_fixed(game, *root, u16::MAX);
    }

    /// A new fixed node holding `state`, its legal actions listed (none when the game is over).
    fn add_fixed(&mut self, game: &Game, state: State, action: u16) -> u32 {
        let at = self.ids.len() as u32;
        if !state.is_terminal() {
            self.listed.clear();
            rules::legal_actions(game, &state, &mut self.listed);
            self.ids.extend_from_slice(&self.listed);
        }
        let len = self.ids.len() as u32 - at;
        self.priors.resize(self.ids.len(), 0.0);
        self.log_priors.resize(self.ids.len(), 0.0);
        self.kids.resize(self.ids.len(), NONE);
        let node = self.nodes.len() as u32;
        self.nodes.push(Node::new(action, self.fixed.len() as u32));
        self.nodes[node as usize].fixed_mover = player_to_move(game, &state);
        if state.is_terminal() {
            self.nodes[node as usize].raw = result(game, &state);
            self.nodes[node as usize].evaluated = true;
        }
        self.fixed.push(Fixed {
            state,
            at,
            len,
            redealer: None,
        });
        node
    }

    /// Run simulations until one needs a leaf evaluated (its observation is written to `observation`,
    /// `observation::size` floats, and its legal actions to `mask`, `num_actions` bools) or all are done.
    /// An empty `mask` asks for no mask (an evaluator that does not read them, [`Evaluator::reads_masks`]):
    /// the search is the same, without listing the legal actions of a leaf in a deal of its own.
    pub fn advance(&mut self, game: &Game, observation: &mut [f32], mask: &mut [bool]) -> Need {
        debug_assert!(
            self.pending.is_none(),
            "a leaf is waiting for its evaluation"
        );
        if !self.nodes[0].evaluated {
            self.path.clear();
            self.path.push(0);
            self.ask(game, 0, None, observation, mask);
            return Need::Evaluation;
        }
        // The position of a simulation's deal once it has left the fixed nodes (`dealt`), dealt into one
        // buffer kept by the search (each deal overwrites all of it).
        let mut buffer = self
            .deal_buffer
            .take()
            .unwrap_or_else(|| Box::new(self.fixed[0].state));
        let need = self.simulate(game, observation, mask, &mut buffer);
        self.deal_buffer = Some(buffer);
        need
    }

    /// [`advance`](Search::advance) once the root is evaluated, dealing into `deal_buffer`.
    fn simulate(
        &mut self,
        game: &Game,
        observation: &mut [f32],
        mask: &mut [bool],
        deal_buffer: &mut State,
    ) -> Need {
        while self.done < self.config.simulations {
            self.path.clear();
            self.path.push(0);
            let mut node = 0u32;
            let mut dealt: Option<&mut State> = None;
            loop {
                let n = self.nodes[node as usize];
                let mover = match &dealt {
                    Some(s) => player_to_move(game, s),
                    None => n.fixed_mover,
                };
                if mover == GAME_OVER {
                    // A fixed node's result is the same in every deal (`add_fixed` set it). A dealt one's is
                    // this deal's only: the same actions may end the game in one deal and not in another (a
                    // sale to the Distant Cotton Market draws a hidden tile, L-42), so the node is not marked
                    // evaluated — a deal where the game goes on asks for its evaluation and priors.
                    let value = match &dealt {
                        Some(s) => result(game, s),
                        None => n.raw,
                    };
                    self.backup(&value);
                    break;
                }
                let mover = mover as usize;
                if !n.evaluated {
                    self.ask(game, node, dealt.as_deref(), observation, mask);
                    return Need::Evaluation;
                }
                let (e, action, child) = match self.root_choice(node) {
                    Some(e) => {
                        let at = self.fixed[0].at as usize;
                        (e, self.ids[at + e], self.kids[at + e])
                    }
                    None => {
                        match &dealt {
                            Some(s) => self.dealt_edges(game, node, s),
                            None => self.fixed_edges(node),
                        }
                        let e = self.select(node, mover);
                        let Edge { action, child, .. } = self.edges[e];
                        (e, action, child)
                    }
                };
                let decoded = game.decode(action as i64).expect("legal");
                let child = match dealt.as_mut() {
                    None => {
                        let child = match child {
                            NONE => self.expand_fixed(game, node, e, action),
                            c => c,
                        };
                        if self.nodes[child as usize].fixed == NONE {
                            self.deal(game, node, deal_buffer);
                            apply_unchecked(game, deal_buffer, decoded);
                            dealt = Some(&mut *deal_buffer);
                        }
                        child
                    }
                    Some(s) => {
                        apply_unchecked(game, s, decoded);
                        match child {
                            NONE => self.add_dealt(node, action),
                            c => c,
                        }
                    }
                };
                self.path.push(child);
                node = child;
            }
        }
        Need::Finished
    }

    /// Ask for `node`'s evaluation: the observation of its player to move, and its legal actions — the
    /// fixed node's, or those of the `dealt` position of this simulation.
    fn ask(
        &mut self,
        game: &Game,
        node: u32,
        dealt: Option<&State>,
        observation: &mut [f32],
        mask: &mut [bool],
    ) {
        mask.fill(false);
        let observer = match dealt {
            Some(state) => {
                let observer = state.current_player(game).expect("a player to move");
                observation::write(game, state, observer, observation);
                if !mask.is_empty() {
                    self.listed.clear();
                    rules::legal_actions(game, state, &mut self.listed);
                    for &id in &self.listed {
                        mask[id as usize] = true;
                    }
                }
                observer
            }
            None => {
                let f = &self.fixed[self.nodes[node as usize].fixed as usize];
                observation::write(game, &f.state, self.me, observation);
                if !mask.is_empty() {
                    for &id in &self.ids[f.at as usize..(f.at + f.len) as usize] {
                        mask[id as usize] = true;
                    }
                }
                self.me
            }
        };
        self.pending = Some(Pending { node, observer });
    }

    /// The hidden cards dealt afresh at fixed `node` (into `out`), for a step that leaves the fixed nodes.
    fn deal(&mut self, game: &Game, node: u32, out: &mut State) {
        let (me, seed) = (self.me, self.rng.next_u64());
        let Fixed {
            state, redealer, ..
        } = &mut self.fixed[self.nodes[node as usize].fixed as usize];
        redealer
            .get_or_insert_with(|| Redealer::new(game, state, me))
            .deal_into(game, seed, out);
    }

    /// The child of fixed `node` through its `e`-th action, made now: fixed when the step touches nothing
    /// hidden and leads to the searching player's own decision (or the game's end), else dealt.
    fn expand_fixed(&mut self, game: &Game, node: u32, e: usize, action: u16) -> u32 {
        let f = self.nodes[node as usize].fixed as usize;
        let before = self.fixed[f].state;
        let mut after = before;
        apply_unchecked(game, &mut after, game.decode(action as i64).expect("legal"));
        let stays = !touches_hidden(game, &before, &after, self.me)
            && (after.is_terminal() || after.current_player(game) == Some(self.me));
        let child = if stays {
            self.add_fixed(game, after, action)
        } else {
            let c = self.nodes.len() as u32;
            self.nodes.push(Node::new(action, NONE));
            c
        };
        let at = self.fixed[f].at as usize;
        self.kids[at + e] = child;
        child
    }

    /// A new dealt child of dealt `node` through `action`.
    fn add_dealt(&mut self, node: u32, action: u16) -> u32 {
        let c = self.nodes.len() as u32;
        let mut child = Node::new(action, NONE);
        child.next_sibling = self.nodes[node as usize].first_child;
        self.nodes.push(child);
        self.nodes[node as usize].first_child = c;
        c
    }

    /// The actions of fixed `node`, into `edges`.
    fn fixed_edges(&mut self, node: u32) {
        let f = &self.fixed[self.nodes[node as usize].fixed as usize];
        let range = f.at as usize..(f.at + f.len) as usize;
        self.edges.clear();
        for i in range {
            self.edges.push(Edge {
                action: self.ids[i],
                prior: self.priors[i],
                log_prior: self.log_priors[i],
                child: self.kids[i],
            });
        }
    }

    /// The actions of dealt `node` legal in `state` (this deal), priors renormalised over them, into `edges`.
    fn dealt_edges(&mut self, game: &Game, node: u32, state: &State) {
        self.listed.clear();
        rules::legal_actions(game, state, &mut self.listed);
        let n = self.nodes[node as usize];
        let mut c = n.first_child;
        while c != NONE {
            let child = &self.nodes[c as usize];
            self.child_of[child.action as usize] = c;
            c = child.next_sibling;
        }
        let logits = &self.logits[n.logits_at as usize..][..game.num_actions()];
        let max = self
            .listed
            .iter()
            .map(|&a| logits[a as usize])
            .fold(f32::NEG_INFINITY, f32::max);
        self.edges.clear();
        let mut total = 0.0;
        for &a in &self.listed {
            let w = (logits[a as usize] - max).exp();
            total += w;
            self.edges.push(Edge {
                action: a,
                prior: w,
                log_prior: logits[a as usize] - max,
                child: self.child_of[a as usize],
            });
        }
        // A dealt node's log priors are read only by the improved policy below the root, a softmax: a
        // constant added to all of them (cargo-mutants: `+ max` for `- max` in `log_prior` above,
        // `+ log_total` here) changes nothing, so those mutants are equivalent. Subtracting `max` before
        // `exp` is what keeps large logits finite (tested).
        let log_total = total.ln();
        for e in &mut self.edges {
            e.prior /= total;
            e.log_prior = (e.log_prior - log_total).max(-1e9);
        }
        let mut c = n.first_child;
        while c != NONE {
            let child = &self.nodes[c as usize];
            self.child_of[child.action as usize] = NONE;
            c = child.next_sibling;
        }
    }

    /// Sequential Halving's choice at the root (Gumbel; None otherwise, or once the schedule is spent): the
    /// root action's index, the same as [`select`](Search::select)'s, computed from the visited root actions
    /// alone (σ of the others is the one value, [`gumbel::Completion`]) — the root is passed by every
    /// simulation and has the most actions, and only the first phase looks past the visited ones.
    fn root_choice(&mut self, node: u32) -> Option<usize> {
        if node != 0 {
            return None;
        }
        let g = self.config.gumbel.as_ref()?;
        let f = &self.fixed[0];
        let (at, len) = (f.at as usize, f.len as usize);
        let mover = self.me as usize;
        self.stats.clear();
        self.visited.clear();
        let mut simulation = 0usize;
        for e in 0..len {
            let c = self.kids[at + e];
            if c == NONE {
                continue;
            }
            let child = &self.nodes[c as usize];
            simulation += child.visits as usize;
            self.stats.push(ActionStats {
                prior: self.priors[at + e],
                log_prior: self.log_priors[at + e],
                visits: child.visits,
                q: child.value[mover] / child.visits.max(1) as f32,
            });
            self.visited.push(e as u32);
        }
        let wanted = *self.schedule.get(simulation)?;
        let raw = self.nodes[0].raw[mover];
        let unvisited_elsewhere = self.stats.len() < len;
        let c = gumbel::Completion::new(
            &self.stats,
            unvisited_elsewhere,
            raw,
            g.c_visit,
            g.c_scale,
            g.rescale,
        );
        // The best Gumbel draw + log prior + σ among the actions with `wanted` visits, the first on a tie
        // (in the root's order, as `best_considered`).
        let mut best = (f32::NEG_INFINITY, 0usize);
        if wanted > 0 {
            for (a, &e) in self.stats.iter().zip(&self.visited) {
                let e = e as usize;
                if a.visits != wanted {
                    continue;
                }
                let score = self.root_noise[e] + a.log_prior + c.sigma(a);
                if score > best.0 {
                    best = (score, e);
                }
            }
        } else {
            let unvisited = c.unvisited();
            for e in 0..len {
                let kid = self.kids[at + e];
                if kid != NONE && self.nodes[kid as usize].visits != 0 {
                    continue;
                }
                let score = self.root_noise[e] + self.log_priors[at + e] + unvisited;
                if score > best.0 {
                    best = (score, e);
                }
            }
        }
        Some(best.1)
    }

    /// The statistics of `edges` for the player to move (`mover`), into `stats`.
    fn gather_stats(&mut self, mover: usize) {
        self.stats.clear();
        for e in &self.edges {
            let (visits, q) = match e.child {
                NONE => (0, 0.0),
                c => {
                    let child = &self.nodes[c as usize];
                    (
                        child.visits,
                        child.value[mover] / child.visits.max(1) as f32,
                    )
                }
            };
            self.stats.push(ActionStats {
                prior: e.prior,
                log_prior: e.log_prior,
                visits,
                q,
            });
        }
    }

    /// The edge to follow from `node` (its edges in `edges`), for the player to move (`mover`).
    fn select(&mut self, node: u32, mover: usize) -> usize {
        self.gather_stats(mover);
        match self.config.gumbel.clone() {
            None => self.select_puct(node, mover),
            Some(g) => {
                let raw = self.nodes[node as usize].raw[mover];
                gumbel::sigma(
                    &self.stats,
                    raw,
                    g.c_visit,
                    g.c_scale,
                    g.rescale,
                    &mut self.sigma,
                );
                if node == 0 {
                    let simulation = self.stats.iter().map(|a| a.visits).sum::<u32>() as usize;
                    let wanted = self.schedule.get(simulation).copied();
                    best_considered(&self.stats, &self.sigma, &self.root_noise, wanted)
                } else {
                    gumbel::improved_policy(&self.stats, &self.sigma, &mut self.policy);
                    let visits: u32 = self.stats.iter().map(|a| a.visits).sum();
                    let mut best = (f32::NEG_INFINITY, 0);
                    for (i, (a, &p)) in self.stats.iter().zip(&self.policy).enumerate() {
                        let score = p - a.visits as f32 / (1 + visits) as f32;
                        if score > best.0 {
                            best = (score, i);
                        }
                    }
                    best.1
                }
            }
        }
    }

    fn select_puct(&self, node: u32, mover: usize) -> usize {
        let n = &self.nodes[node as usize];
        let sqrt_visits = (n.visits.max(1) as f32).sqrt();
        let unvisited = n.value[mover] / n.visits.max(1) as f32 - self.config.fpu_reduction;
        let f = self.config.dirichlet_fraction;
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, a) in self.stats.iter().enumerate() {
            let mut prior = a.prior;
            if node == 0 && !self.root_noise.is_empty() {
                prior = (1.0 - f) * prior + f * self.root_noise[i];
            }
            let q = if a.visits > 0 { a.q } else { unvisited };
            let score = q + self.config.c_puct * prior * sqrt_visits / (1.0 + a.visits as f32);
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }

    /// The evaluation of the leaf [`advance`](Search::advance) asked for: `logits` (`num_actions`) and
    /// `values` (`players`, relative to the leaf's player to move).
    pub fn deliver(&mut self, game: &Game, logits: &[f32], values: &[f32]) {
        let Pending { node, observer } = self.pending.take().expect("a leaf waiting");
        let n = game.players as usize;
        let mut value = [0.0f32; MAX_PLAYERS];
        for k in 0..n {
            value[(observer as usize + k) % n] = values[k];
        }
        let fixed = self.nodes[node as usize].fixed;
        if fixed == NONE {
            self.nodes[node as usize].logits_at = self.logits.len() as u32;
            self.logits.extend_from_slice(&logits[..game.num_actions()]);
        } else {
            let f = &self.fixed[fixed as usize];
            let range = f.at as usize..(f.at + f.len) as usize;
            let max = self.ids[range.clone()]
                .iter()
                .map(|&a| logits[a as usize])
                .fold(f32::NEG_INFINITY, f32::max);
            let mut total = 0.0;
            for i in range.clone() {
                let w = (logits[self.ids[i] as usize] - max).exp();
                self.priors[i] = w;
                total += w;
            }
            for i in range {
                self.priors[i] /= total;
                self.log_priors[i] = gumbel::log_prior(self.priors[i]);
            }
        }
        let leaf = &mut self.nodes[node as usize];
        leaf.raw = value;
        leaf.evaluated = true;
        if node == 0 {
            self.draw_root_noise();
            let path = [0];
            self.add_up(&path, &value);
        } else {
            self.backup(&value);
        }
    }

    /// The root's noise: Dirichlet for PUCT self-play, Gumbel draws and the Sequential Halving schedule.
    fn draw_root_noise(&mut self) {
        let len = self.fixed[0].len as usize;
        self.root_noise.clear();
        match self.config.gumbel.clone() {
            Some(g) => {
                for _ in 0..len {
                    let x = gumbel::gumbel(&mut self.rng);
                    self.root_noise.push(g.scale * x);
                }
                let considered = g.considered.min(len as u32);
                self.schedule = gumbel::considered_visits(considered, self.config.simulations);
            }
            None if self.config.dirichlet_alpha > 0.0 => {
                for _ in 0..len {
                    let x = gamma(&mut self.rng, self.config.dirichlet_alpha);
                    self.root_noise.push(x);
                }
                let total: f32 = self.root_noise.iter().sum::<f32>().max(f32::MIN_POSITIVE);
                for x in &mut self.root_noise {
                    *x /= total;
                }
            }
            None => {}
        }
    }

    /// Back `value` up the path of this simulation, and count it.
    fn backup(&mut self, value: &[f32; MAX_PLAYERS]) {
        let path = std::mem::take(&mut self.path);
        self.add_up(&path, value);
        self.path = path;
        self.done += 1;
    }

    fn add_up(&mut self, path: &[u32], value: &[f32; MAX_PLAYERS]) {
        for &n in path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            for p in 0..MAX_PLAYERS {
                node.value[p] += value[p];
            }
        }
    }

    /// The root's actions (its legal actions, the same in every deal: the player to move knows their own
    /// hand) with their statistics for the searching player, into `edges` and `stats`.
    fn root_stats(&mut self) {
        self.fixed_edges(0);
        self.gather_stats(self.me as usize);
    }

    /// The visits of each root action searched (only actions legal at the root).
    pub fn visits(&self) -> Vec<(u16, u32)> {
        let f = &self.fixed[0];
        (f.at as usize..(f.at + f.len) as usize)
            .filter(|&i| self.kids[i] != NONE)
            .map(|i| (self.ids[i], self.nodes[self.kids[i] as usize].visits))
            .collect()
    }

    /// The improved policy at the root (Danihelka et al. 2022, the "completed Q-values" target):
    /// softmax over the legal root actions of ln P + σ(q̂) ([`gumbel::sigma`]: q the action's mean value for
    /// the searching player, completed with the root's mixed value where not visited, rescaled to [0, 1]
    /// over the root's actions). Unlike the visit counts of a search of a few dozen simulations, which
    /// spread over the priors and the root noise, it moves the policy only where the search found something.
    pub fn improved_policy(&mut self) -> Vec<(u16, f32)> {
        self.root_stats();
        let g = self.config.gumbel.clone().unwrap_or_default();
        let raw = self.nodes[0].raw[self.me as usize];
        gumbel::sigma(
            &self.stats,
            raw,
            g.c_visit,
            g.c_scale,
            g.rescale,
            &mut self.sigma,
        );
        gumbel::improved_policy(&self.stats, &self.sigma, &mut self.policy);
        self.edges
            .iter()
            .zip(&self.policy)
            .map(|(e, &p)| (e.action, p))
            .collect()
    }

    /// The action the search chooses: with Gumbel, the Sequential Halving winner (among the most visited,
    /// the best Gumbel + log prior + σ); with PUCT, the most visited (ties to the lower id), or one drawn
    /// with probability ∝ visits^(1/temperature) when `temperature` > 0.
    pub fn action(&mut self, temperature: f32, rng: &mut Rng) -> u16 {
        match self.config.gumbel.clone() {
            Some(g) => {
                self.root_stats();
                let raw = self.nodes[0].raw[self.me as usize];
                gumbel::sigma(
                    &self.stats,
                    raw,
                    g.c_visit,
                    g.c_scale,
                    g.rescale,
                    &mut self.sigma,
                );
                let most = self.stats.iter().map(|a| a.visits).max();
                let e = best_considered(&self.stats, &self.sigma, &self.root_noise, most);
                self.edges[e].action
            }
            None => pick(&self.visits(), temperature, rng),
        }
    }

    /// The mean value of the root for each seat (absolute seats).
    pub fn root_value(&self) -> Vec<f32> {
        let root = &self.nodes[0];
        root.value
            .iter()
            .map(|&v| v / root.visits.max(1) as f32)
            .collect()
    }

    /// Nodes in the tree, and how many of them are fixed (for tests and profiles).
    pub fn nodes(&self) -> (usize, usize) {
        (self.nodes.len(), self.fixed.len())
    }
}

/// The player to move, or `GAME_OVER`.
fn player_to_move(game: &Game, state: &State) -> u8 {
    if state.is_terminal() {
        GAME_OVER
    } else {
        state.current_player(game).expect("a player to move")
    }
}

/// A finished game's result by seat.
fn result(game: &Game, state: &State) -> [f32; MAX_PLAYERS] {
    let r = apply::returns(game, state);
    let mut value = [0.0f32; MAX_PLAYERS];
    for p in 0..game.players as usize {
        value[p] = r[p] as f32;
    }
    value
}

/// Sequential Halving's choice among the root actions with `wanted` visits (all, for None): the best
/// Gumbel draw + log prior + σ.
fn best_considered(
    stats: &[ActionStats],
    sigma: &[f32],
    gumbels: &[f32],
    wanted: Option<u32>,
) -> usize {
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, a) in stats.iter().enumerate() {
        if wanted.is_some_and(|w| a.visits != w) {
            continue;
        }
        let g = gumbels.get(i).copied().unwrap_or(0.0);
        let score = g + a.log_prior + sigma[i];
        if score > best.0 {
            best = (score, i);
        }
    }
    best.1
}

/// A uniform draw in (0, 1).
fn open_unit(rng: &mut Rng) -> f32 {
    // The top draw, (2^24 − ½) / 2^24, rounds to 1 in f32: it is kept just below (found by mutation testing).
    ((((rng.next_u64() >> 40) as f32) + 0.5) / (1u64 << 24) as f32).min(crate::rng::BELOW_ONE)
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut Rng) -> f32 {
    let (u, v) = (open_unit(rng), open_unit(rng));
    (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
}

/// A Gamma(alpha, 1) draw (Marsaglia and Tsang; for alpha < 1, Gamma(alpha + 1) · U^(1/alpha)); a
/// Dirichlet draw is independent Gamma draws, normalised.
fn gamma(rng: &mut Rng, alpha: f32) -> f32 {
    // (cargo-mutants: `<=` here is equivalent, Gamma(2) · U is Gamma(1) too; so are `>=` for `v > 0.0` and
    // `<=` for the acceptance's `<` below, which differ only on draws of probability 0.)
    if alpha < 1.0 {
        return gamma(rng, alpha + 1.0) * open_unit(rng).powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    // The acceptance test below makes the draw exact for any c > 0; this c makes it accept most often. (So
    // cargo-mutants' other positive c, `1.0 % …` and `1.0 * …`, are equivalent, as is `1.0 - c * x` below:
    // x is symmetric.)
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        // (cargo-mutants' `c + x` for `c * x` survives the moment tests of these draws: not killed.)
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

/// An error unless an evaluator's answer for `rows` leaves has the sizes asked for (`rows × num_actions` logits,
/// `rows × players` values) and every number finite: a NaN would spread through every mean it is added to, and
/// the search would choose by noise.
pub fn check_evaluation(
    game: &Game,
    logits: &[f32],
    values: &[f32],
    rows: usize,
) -> crate::error::Result<()> {
    let (actions, n) = (game.num_actions(), game.players as usize);
    if logits.len() != rows * actions || values.len() != rows * n {
        return Err(crate::error::Error::Config(format!(
            "the evaluator gave {} logits and {} values for {rows} leaves: {} and {} are needed",
            logits.len(),
            values.len(),
            rows * actions,
            rows * n
        )));
    }
    check_finite(logits, values)
}

/// An error naming the first number of `logits` or `values` that is not finite.
fn check_finite(logits: &[f32], values: &[f32]) -> crate::error::Result<()> {
    // One pass without branches (vectorised) to see that all are finite; the first that is not, named.
    let not_finite = |xs: &[f32]| xs.iter().fold(false, |bad, x| bad | !x.is_finite());
    if not_finite(logits) || not_finite(values) {
        let bad = logits.iter().chain(values).find(|x| !x.is_finite());
        return Err(crate::error::Error::Config(format!(
            "the evaluator gave a value that is not finite ({})",
            bad.copied().unwrap_or(f32::NAN)
        )));
    }
    Ok(())
}

/// Run one search to the end with `evaluator`, one leaf at a time (an agent's decision).
pub fn search(
    game: &Game,
    state: &State,
    config: &PuctConfig,
    seed: u64,
    evaluator: &mut dyn Evaluator,
) -> crate::error::Result<Search> {
    let go_on = AtomicBool::new(false);
    Ok(search_or_stop(game, state, config, seed, evaluator, &go_on)?.expect("nothing stops it"))
}

/// Simulations of a one-leaf search with a native network that take about [`crate::agents::LONG_CHOICE`] (some
/// 12 ms with the shipped Birmingham network): a search this large is made where a caller can stop it.
pub const LONG_SEARCH_SIMULATIONS: u32 = 1024;

/// [`search`], given up (`Ok(None)`) once `stop` is set: it is looked at before each leaf's evaluation, so a
/// search of millions of simulations can be cancelled (a Ctrl-C) in about one evaluation's time. Not stopped,
/// the same search.
pub fn search_or_stop(
    game: &Game,
    state: &State,
    config: &PuctConfig,
    seed: u64,
    evaluator: &mut dyn Evaluator,
    stop: &AtomicBool,
) -> crate::error::Result<Option<Search>> {
    let mut s = Search::new(game, state, config, seed);
    let mut batch = Batch::new(game, 1);
    let masks = evaluator.reads_masks();
    loop {
        let (obs, mask) = batch.row(0);
        let mask = if masks { mask } else { &mut [] };
        match s.advance(game, obs, mask) {
            Need::Finished => return Ok(Some(s)),
            Need::Evaluation if stop.load(Ordering::Relaxed) => return Ok(None),
            Need::Evaluation => {
                evaluator.evaluate(
                    &batch.observations,
                    if masks { &batch.masks } else { &[] },
                    1,
                    &mut batch.logits,
                    &mut batch.values,
                )?;
                // The one leaf's logits and values (an evaluator may fill its values to MAX_PLAYERS seats).
                let (actions, n) = (game.num_actions(), game.players as usize);
                if batch.logits.len() < actions || batch.values.len() < n {
                    check_evaluation(game, &batch.logits, &batch.values, 1)?;
                }
                check_finite(&batch.logits[..actions], &batch.values[..n])?;
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
        // (`<=` would differ only when x lands exactly on a boundary: an equivalent mutant.)
        if x < *w {
            return a;
        }
        x -= w;
    }
    sorted.last().map_or(0, |&(a, _)| a)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::hidden::resample_hidden;
    use std::collections::BTreeMap;
    // (touches_hidden, ActionStats, gumbel and the rest come from the module: `use super::*`.)

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

    fn gumbel_config(simulations: u32) -> PuctConfig {
        PuctConfig {
            simulations,
            gumbel: Some(GumbelConfig::default()),
            ..PuctConfig::default()
        }
    }

    /// Positions of a random game of `name`, every `step`-th decision.
    fn positions(name: &str, players: i64, step: usize) -> (Game, Vec<State>) {
        let g = Game::new(name, players, &BTreeMap::new()).expect("game");
        let mut s = apply::new_state(&g, 11);
        let mut rng = Rng(5);
        let (mut out, mut ids) = (Vec::new(), Vec::new());
        for d in 0.. {
            if s.is_terminal() {
                break;
            }
            if d % step == 0 {
                out.push(s);
            }
            ids.clear();
            rules::legal_actions(&g, &s, &mut ids);
            let a = ids[rng.below(ids.len() as u64) as usize];
            apply_unchecked(&g, &mut s, g.decode(a as i64).expect("legal"));
        }
        (g, out)
    }

    /// The root's Sequential Halving choice made from its visited actions alone (`root_choice`) is the choice
    /// `select` makes over all of them, before every simulation of searches of the three games (rescaled
    /// and not, 12 to 40 simulations, 4 to 16 considered actions).
    #[test]
    fn the_roots_choice_from_its_visited_actions_is_the_choice_over_all() {
        let mut compared = 0;
        for (name, players) in [("birmingham", 2), ("lancashire", 4), ("brass", 3)] {
            let (g, states) = positions(name, players, 9);
            let mut net = Varied::new(&g);
            let mut batch = Batch::new(&g, 1);
            for (i, state) in states.iter().enumerate().take(14) {
                let mut config = gumbel_config([12, 24, 40][i % 3]);
                let gc = config.gumbel.as_mut().expect("gumbel");
                gc.rescale = i % 2 == 0;
                gc.considered = [4, 16, 8][i % 3];
                let mut s = Search::new(&g, state, &config, i as u64);
                let me = s.me as usize;
                loop {
                    if s.nodes[0].evaluated && s.done < config.simulations {
                        let sparse = s.root_choice(0);
                        let visited = s.stats.clone();
                        s.fixed_edges(0);
                        let full = s.select(0, me);
                        assert_eq!(
                            sparse,
                            Some(full),
                            "{name}, position {i}, simulation {}",
                            s.done
                        );
                        // The visited actions' statistics are those of the pass over all, in its order.
                        let kids: Vec<ActionStats> = s
                            .edges
                            .iter()
                            .zip(&s.stats)
                            .filter(|(e, _)| e.child != NONE)
                            .map(|(_, a)| *a)
                            .collect();
                        assert_eq!(visited, kids, "{name}, position {i}");
                        compared += 1;
                    }
                    let (obs, mask) = batch.row(0);
                    if s.advance(&g, obs, mask) == Need::Finished {
                        break;
                    }
                    net.evaluate(
                        &batch.observations,
                        &batch.masks,
                        1,
                        &mut batch.logits,
                        &mut batch.values,
                    )
                    .expect("evaluated");
                    s.deliver(&g, &batch.logits, &batch.values);
                }
            }
        }
        assert!(compared > 500, "{compared}");
    }

    /// Mean, variance and third central moment of `n` draws.
    fn moments(n: usize, mut draw: impl FnMut() -> f32) -> (f64, f64, f64) {
        let xs: Vec<f64> = (0..n).map(|_| draw() as f64).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let central = |k: i32| xs.iter().map(|x| (x - mean).powi(k)).sum::<f64>() / n as f64;
        (mean, central(2), central(3))
    }

    #[test]
    fn gamma_draws_have_the_moments_of_the_gamma_distribution() {
        // Gamma(α, 1): mean α, variance α, third central moment 2α.
        let mut rng = Rng(3);
        for alpha in [0.3f32, 1.0, 2.5, 7.0] {
            let a = alpha as f64;
            let (mean, var, third) = moments(40_000, || gamma(&mut rng, alpha));
            assert!((mean - a).abs() < 0.02 * a.max(1.0), "{alpha}: mean {mean}");
            assert!(
                (var - a).abs() < 0.06 * a.max(1.0),
                "{alpha}: variance {var}"
            );
            assert!(
                (third - 2.0 * a).abs() < 0.2 * (2.0 * a).max(1.0),
                "{alpha}: third {third}"
            );
        }
    }

    #[test]
    fn normal_draws_are_standard_normal() {
        let mut rng = Rng(8);
        let (mean, var, third) = moments(40_000, || normal(&mut rng));
        assert!(
            mean.abs() < 0.02 && (var - 1.0).abs() < 0.03 && third.abs() < 0.06,
            "{mean} {var} {third}"
        );
        let within = (0..40_000).filter(|_| normal(&mut rng).abs() < 1.0).count() as f64 / 40_000.0;
        assert!((within - 0.6827).abs() < 0.01, "{within}");
    }

    #[test]
    fn open_unit_draws_stay_inside_the_open_interval() {
        let low = open_unit(&mut Rng::giving(0));
        let high = open_unit(&mut Rng::giving(u64::MAX));
        assert!(low > 0.0 && low < 1e-7, "{low}");
        assert!(high < 1.0 && high > 1.0 - 1e-7, "{high}");
        assert!(normal(&mut Rng::giving(0)).is_finite());
    }

    /// Uniform priors and one number that is not finite: a logit or a value.
    struct NotFinite {
        logit: f32,
        value: f32,
    }
    impl Evaluator for NotFinite {
        fn evaluate(
            &mut self,
            obs: &[f32],
            masks: &[bool],
            rows: usize,
            logits: &mut Vec<f32>,
            values: &mut Vec<f32>,
        ) -> crate::error::Result<()> {
            Uniform.evaluate(obs, masks, rows, logits, values)?;
            logits[3] = self.logit;
            values[1] = self.value;
            Ok(())
        }
    }

    #[test]
    fn a_search_refuses_an_evaluation_that_is_not_finite() {
        let g = Game::new("birmingham", 2, &BTreeMap::new()).expect("game");
        let state = apply::new_state(&g, 5);
        for (logit, value) in [
            (f32::NAN, 0.0),
            (f32::INFINITY, 0.0),
            (f32::NEG_INFINITY, 0.0),
            (0.0, f32::NAN),
        ] {
            for config in [PuctConfig::default(), gumbel_config(8)] {
                let mut e = NotFinite { logit, value };
                match search(&g, &state, &config, 1, &mut e) {
                    Err(crate::error::Error::Config(why)) => {
                        assert!(why.contains("not finite"), "{why}");
                    }
                    Err(other) => panic!("{other}"),
                    Ok(_) => panic!("a search took {logit} / {value}"),
                }
            }
        }
        // The same evaluator with finite numbers searches.
        let mut e = NotFinite {
            logit: 1.0,
            value: 0.5,
        };
        assert!(search(&g, &state, &gumbel_config(8), 1, &mut e).is_ok());
    }

    #[test]
    fn a_search_spends_its_simulations_and_visits_only_legal_root_actions() {
        let g = Game::new("birmingham", 2, &BTreeMap::new()).expect("game");
        let state = apply::new_state(&g, 5);
        let mut legal = Vec::new();
        rules::legal_actions(&g, &state, &mut legal);
        let puct = PuctConfig {
            simulations: 50,
            dirichlet_alpha: 0.3,
            ..PuctConfig::default()
        };
        for config in [puct, gumbel_config(50)] {
            let s = search(&g, &state, &config, 1, &mut Uniform).expect("search");
            let visits = s.visits();
            assert!(visits.iter().all(|(a, _)| legal.contains(a)));
            // The root is evaluated first; each simulation then adds a visit below it.
            assert_eq!(visits.iter().map(|&(_, v)| v).sum::<u32>(), 50);
            let again = search(&g, &state, &config, 1, &mut Uniform).expect("search");
            assert_eq!(
                again.visits(),
                visits,
                "the same seed gives the same search"
            );
            // A search asked to stop gives up before its next evaluation; one never asked is the same search.
            let (go_on, stop) = (AtomicBool::new(false), AtomicBool::new(true));
            let kept = search_or_stop(&g, &state, &config, 1, &mut Uniform, &go_on);
            assert_eq!(kept.expect("search").expect("not stopped").visits(), visits);
            let stopped = search_or_stop(&g, &state, &config, 1, &mut Uniform, &stop);
            assert!(stopped.expect("no error").is_none());
        }
    }

    #[test]
    fn gumbel_root_follows_sequential_halving() {
        // Equal priors and values: Sequential Halving spreads the visits exactly as its schedule says.
        let (g, states) = positions("birmingham", 2, 7);
        for state in states.iter().take(12) {
            let mut legal = Vec::new();
            rules::legal_actions(&g, state, &mut legal);
            if legal.len() < 2 {
                continue;
            }
            let s = search(&g, state, &gumbel_config(64), 3, &mut Uniform).expect("search");
            let mut visits: Vec<u32> = s.visits().iter().map(|&(_, v)| v).collect();
            visits.sort_unstable_by(|a, b| b.cmp(a));
            let m = legal.len().min(16) as u32;
            let schedule = gumbel::considered_visits(m, 64);
            let mut expected = vec![0u32; m as usize];
            for (i, &wanted) in schedule.iter().enumerate() {
                let _ = i;
                // Each simulation visits one action with `wanted` visits: count how many reach each level.
                let k = expected
                    .iter()
                    .position(|&v| v == wanted)
                    .expect("an action at that level");
                expected[k] += 1;
            }
            expected.sort_unstable_by(|a, b| b.cmp(a));
            expected.retain(|&v| v > 0);
            assert_eq!(visits, expected, "{} legal actions", legal.len());
        }
    }

    /// Every fixed node of searches at positions of random games: dealing the hidden cards at the node gives
    /// exactly what dealing them at the root and replaying the path gives, for many seeds — so walking the
    /// fixed nodes without dealing is the same search as dealing at the root.
    #[test]
    fn dealing_at_a_fixed_node_is_dealing_at_the_root_and_replaying() {
        let mut fixed_seen = 0;
        for (name, players) in [("birmingham", 2), ("lancashire", 3), ("brass", 4)] {
            let (g, states) = positions(name, players, 9);
            for root in &states {
                let s = search(&g, root, &gumbel_config(48), 7, &mut Uniform).expect("search");
                let me = root.current_player(&g).expect("player");
                // Depth-first over the fixed nodes, with the actions that lead to each.
                let mut stack = vec![(0u32, Vec::<u16>::new())];
                while let Some((node, path)) = stack.pop() {
                    let f = &s.fixed[s.nodes[node as usize].fixed as usize];
                    let mut replayed = *root;
                    for &a in &path {
                        apply_unchecked(&g, &mut replayed, g.decode(a as i64).expect("legal"));
                    }
                    assert_eq!(
                        replayed, f.state,
                        "{name}: the fixed node holds its position"
                    );
                    if !f.state.is_terminal() {
                        assert_eq!(f.state.current_player(&g), Some(me));
                    }
                    for seed in 0..4u64 {
                        let mut from_root = resample_hidden(&g, root, me, seed);
                        for &a in &path {
                            apply_unchecked(&g, &mut from_root, g.decode(a as i64).expect("legal"));
                        }
                        assert_eq!(resample_hidden(&g, &f.state, me, seed), from_root, "{name}");
                    }
                    fixed_seen += 1;
                    for i in f.at as usize..(f.at + f.len) as usize {
                        let kid = s.kids[i];
                        if kid != NONE && s.nodes[kid as usize].fixed != NONE {
                            let mut p = path.clone();
                            p.push(s.ids[i]);
                            stack.push((kid, p));
                        }
                    }
                }
            }
        }
        assert!(fixed_seen > 200, "{fixed_seen} fixed nodes checked");
    }

    #[test]
    fn a_fixed_node_is_left_when_cards_are_drawn() {
        // After the searching player's last action of a turn, the refill draws: that child is dealt.
        let (g, states) = positions("birmingham", 2, 1);
        let mut dealt_children = 0;
        for root in states.iter().take(60) {
            let s = search(&g, root, &gumbel_config(32), 1, &mut Uniform).expect("search");
            let (nodes, fixed) = s.nodes();
            assert!(fixed >= 1 && fixed <= nodes);
            dealt_children += nodes - fixed;
        }
        assert!(
            dealt_children > 0,
            "some steps reach what the player cannot see"
        );
    }

    /// Logits and values that depend on the observation and the action: a deterministic stand-in for a
    /// network, so that priors differ, values differ by seat and position, and every formula of the search
    /// shows in its visits.
    pub(crate) struct Varied {
        /// Rows evaluated so far.
        pub(crate) rows: usize,
        /// Values per row (one per seat).
        pub(crate) players: usize,
        /// The logits' size: large ones (60) overflow `exp` unless the softmax subtracts their maximum.
        pub(crate) scale: f32,
    }
    impl Varied {
        pub(crate) fn new(game: &Game) -> Varied {
            Varied {
                rows: 0,
                players: game.players as usize,
                scale: 2.0,
            }
        }
    }
    impl Evaluator for Varied {
        fn evaluate(
            &mut self,
            observations: &[f32],
            masks: &[bool],
            rows: usize,
            logits: &mut Vec<f32>,
            values: &mut Vec<f32>,
        ) -> crate::error::Result<()> {
            self.rows += rows;
            let actions = masks.len() / rows;
            let size = observations.len() / rows;
            logits.clear();
            values.clear();
            for r in 0..rows {
                let obs = &observations[r * size..(r + 1) * size];
                let h: f32 = obs
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| x * ((i % 13) as f32 - 6.0))
                    .sum();
                // The legal actions count too: a leaf's mask is part of what is evaluated.
                let mask = &masks[r * actions..(r + 1) * actions];
                let legal: f32 = mask
                    .iter()
                    .enumerate()
                    .filter(|(_, &m)| m)
                    .map(|(a, _)| a as f32)
                    .sum();
                let h = h + legal * 0.001;
                for a in 0..actions {
                    logits.push(((a as f32) * 0.37 + h * 0.01).sin() * self.scale);
                }
                for k in 0..self.players {
                    values.push((h * 0.013 * (k as f32 + 1.0) + k as f32).sin().tanh());
                }
            }
            Ok(())
        }
    }

    /// One node of [`plain_search`]'s tree, which is keyed by the actions from the root.
    #[derive(Default)]
    struct PlainNode {
        visits: u32,
        value: [f32; MAX_PLAYERS],
        raw: [f32; MAX_PLAYERS],
        logits: Option<Vec<f32>>,
        /// Reached without touching the hidden cards, at the searching player's own decision.
        fixed: bool,
    }

    /// What a search gives: root visits, root value, improved policy and the chosen action.
    type Outcome = (Vec<(u16, u32)>, Vec<f32>, Vec<(u16, f32)>, u16);

    /// The search written plainly, as the module's documentation states it: a tree keyed by action paths;
    /// each simulation starts at the root's true position and, at the first step that leaves the fixed
    /// nodes, deals the hidden cards at the root (`resample_hidden`, the next seed of the search's RNG) and
    /// replays the path; priors are the softmax of the logits over the actions legal in the position at hand.
    /// No cached positions, no linked children, no Redealer.
    struct Plain<'a> {
        g: &'a Game,
        root: State,
        config: &'a PuctConfig,
        me: u8,
        rng: Rng,
        tree: std::collections::HashMap<Vec<u16>, PlainNode>,
        root_ids: Vec<u16>,
        noise: Vec<f32>,
        schedule: Vec<u32>,
    }

    fn legal(g: &Game, state: &State) -> Vec<u16> {
        let mut ids = Vec::new();
        rules::legal_actions(g, state, &mut ids);
        ids
    }

    /// Prior and log prior of each of `ids`: a fixed node's from its softmax, a dealt node's renormalised in
    /// log space.
    fn plain_priors(logits: &[f32], ids: &[u16], fixed: bool) -> Vec<(f32, f32)> {
        let max = ids
            .iter()
            .map(|&a| logits[a as usize])
            .fold(f32::NEG_INFINITY, f32::max);
        let w: Vec<f32> = ids
            .iter()
            .map(|&a| (logits[a as usize] - max).exp())
            .collect();
        let mut total = 0.0;
        for x in &w {
            total += x;
        }
        ids.iter()
            .zip(&w)
            .map(|(&a, &x)| {
                let p = x / total;
                let lp = if fixed {
                    gumbel::log_prior(p)
                } else {
                    (logits[a as usize] - max - total.ln()).max(-1e9)
                };
                (p, lp)
            })
            .collect()
    }

    /// The first of the highest scores.
    fn first_best(scores: impl Iterator<Item = f32>) -> usize {
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, score) in scores.enumerate() {
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }

    impl<'a> Plain<'a> {
        /// The root evaluated, its noise drawn.
        fn new(
            g: &'a Game,
            root: &State,
            config: &'a PuctConfig,
            seed: u64,
            net: &mut dyn Evaluator,
        ) -> Plain<'a> {
            let mut p = Plain {
                g,
                root: *root,
                config,
                me: root.current_player(g).expect("player"),
                rng: Rng(seed),
                tree: Default::default(),
                root_ids: legal(g, root),
                noise: Vec::new(),
                schedule: Vec::new(),
            };
            let (logits, value) = p.evaluate(root, net);
            let node = PlainNode {
                raw: value,
                logits: Some(logits),
                fixed: true,
                ..PlainNode::default()
            };
            p.tree.insert(vec![], node);
            let len = p.root_ids.len();
            match &config.gumbel {
                Some(gc) => {
                    for _ in 0..len {
                        p.noise.push(gc.scale * gumbel::gumbel(&mut p.rng));
                    }
                    let considered = gc.considered.min(len as u32);
                    p.schedule = gumbel::considered_visits(considered, config.simulations);
                }
                None if config.dirichlet_alpha > 0.0 => {
                    for _ in 0..len {
                        p.noise.push(gamma(&mut p.rng, config.dirichlet_alpha));
                    }
                    let total: f32 = p.noise.iter().sum::<f32>().max(f32::MIN_POSITIVE);
                    for x in &mut p.noise {
                        *x /= total;
                    }
                }
                None => {}
            }
            p.add(&[], &value);
            p
        }

        /// The network's logits and values (by absolute seat) for the player to move in `state`.
        fn evaluate(
            &self,
            state: &State,
            net: &mut dyn Evaluator,
        ) -> (Vec<f32>, [f32; MAX_PLAYERS]) {
            let (g, n) = (self.g, self.g.players as usize);
            let observer = state.current_player(g).expect("player");
            let mut obs = vec![0.0; observation::size(g)];
            observation::write(g, state, observer, &mut obs);
            let mut mask = vec![false; g.num_actions()];
            for a in legal(g, state) {
                mask[a as usize] = true;
            }
            let (mut logits, mut values) = (Vec::new(), Vec::new());
            net.evaluate(&obs, &mask, 1, &mut logits, &mut values)
                .expect("evaluate");
            let mut value = [0.0; MAX_PLAYERS];
            for k in 0..n {
                value[(observer as usize + k) % n] = values[k];
            }
            (logits, value)
        }

        /// Back `v` up every node from the root to `path`.
        fn add(&mut self, path: &[u16], v: &[f32; MAX_PLAYERS]) {
            for k in 0..=path.len() {
                let node = self.tree.get_mut(&path[..k]).expect("node");
                node.visits += 1;
                for p in 0..MAX_PLAYERS {
                    node.value[p] += v[p];
                }
            }
        }

        /// The legal actions at `path` (position `state`) and their statistics for `mover`.
        fn stats(&self, path: &[u16], state: &State, mover: usize) -> (Vec<u16>, Vec<ActionStats>) {
            let node = &self.tree[path];
            let ids = legal(self.g, state);
            let priors = plain_priors(node.logits.as_ref().expect("evaluated"), &ids, node.fixed);
            let stats = ids
                .iter()
                .zip(priors)
                .map(|(&a, (prior, log_prior))| {
                    let mut child = path.to_vec();
                    child.push(a);
                    let (visits, q) = self.tree.get(&child).map_or((0, 0.0), |c| {
                        (c.visits, c.value[mover] / c.visits.max(1) as f32)
                    });
                    ActionStats {
                        prior,
                        log_prior,
                        visits,
                        q,
                    }
                })
                .collect();
            (ids, stats)
        }

        fn sigma(&self, stats: &[ActionStats], raw: f32) -> Vec<f32> {
            let gc = self.config.gumbel.clone().unwrap_or_default();
            let mut sigma = Vec::new();
            gumbel::sigma(stats, raw, gc.c_visit, gc.c_scale, gc.rescale, &mut sigma);
            sigma
        }

        /// Sequential Halving's choice among the root actions with `wanted` visits (all, for None).
        fn considered_best(
            &self,
            stats: &[ActionStats],
            sigma: &[f32],
            wanted: Option<u32>,
        ) -> usize {
            let scores = stats.iter().enumerate().map(|(i, a)| {
                let counts = wanted.is_none_or(|w| a.visits == w);
                let noise = self.noise.get(i).copied().unwrap_or(0.0);
                if counts {
                    noise + a.log_prior + sigma[i]
                } else {
                    f32::NEG_INFINITY
                }
            });
            first_best(scores)
        }

        /// The action the player to move (`mover`) takes at `path`: PUCT, or Gumbel's rules.
        fn choose(&self, path: &[u16], stats: &[ActionStats], mover: usize) -> usize {
            let node = &self.tree[path];
            let config = self.config;
            if config.gumbel.is_none() {
                let sqrt_visits = (node.visits.max(1) as f32).sqrt();
                let unvisited =
                    node.value[mover] / node.visits.max(1) as f32 - config.fpu_reduction;
                let f = config.dirichlet_fraction;
                return first_best(stats.iter().enumerate().map(|(i, a)| {
                    let prior = if path.is_empty() && !self.noise.is_empty() {
                        (1.0 - f) * a.prior + f * self.noise[i]
                    } else {
                        a.prior
                    };
                    let q = if a.visits > 0 { a.q } else { unvisited };
                    q + config.c_puct * prior * sqrt_visits / (1.0 + a.visits as f32)
                }));
            }
            let sigma = self.sigma(stats, node.raw[mover]);
            let total: u32 = stats.iter().map(|a| a.visits).sum();
            if path.is_empty() {
                return self.considered_best(
                    stats,
                    &sigma,
                    self.schedule.get(total as usize).copied(),
                );
            }
            let mut policy = Vec::new();
            gumbel::improved_policy(stats, &sigma, &mut policy);
            first_best(
                stats
                    .iter()
                    .zip(&policy)
                    .map(|(a, &p)| p - a.visits as f32 / (1 + total) as f32),
            )
        }

        /// One simulation, from the root to a leaf or a finished game.
        fn simulate(&mut self, net: &mut dyn Evaluator) {
            let (g, me) = (self.g, self.me);
            let mut path: Vec<u16> = Vec::new();
            let mut state = self.root;
            loop {
                if state.is_terminal() {
                    // A finished game backs up its real result: each seat's return.
                    let returns = apply::returns(g, &state);
                    let mut value = [0.0f32; MAX_PLAYERS];
                    for (v, &r) in value.iter_mut().zip(&returns).take(g.players as usize) {
                        *v = r as f32;
                    }
                    return self.add(&path, &value);
                }
                if self.tree[&path].logits.is_none() {
                    let (logits, value) = self.evaluate(&state, net);
                    let node = self.tree.get_mut(&path).expect("node");
                    node.logits = Some(logits);
                    node.raw = value;
                    return self.add(&path, &value);
                }
                let mover = state.current_player(g).expect("player") as usize;
                let (ids, stats) = self.stats(&path, &state, mover);
                let action = ids[self.choose(&path, &stats, mover)];
                let was_fixed = self.tree[&path].fixed;
                let mut child = path.clone();
                child.push(action);
                let mut after = state;
                apply_unchecked(g, &mut after, g.decode(action as i64).expect("legal"));
                let child_fixed = match self.tree.get(&child) {
                    Some(c) => c.fixed,
                    None => {
                        was_fixed
                            && !touches_hidden(g, &state, &after, me)
                            && (after.is_terminal() || after.current_player(g) == Some(me))
                    }
                };
                if was_fixed && !child_fixed {
                    after = resample_hidden(g, &self.root, me, self.rng.next_u64());
                    for &a in &child {
                        apply_unchecked(g, &mut after, g.decode(a as i64).expect("legal"));
                    }
                }
                self.tree.entry(child.clone()).or_insert_with(|| PlainNode {
                    fixed: child_fixed,
                    ..PlainNode::default()
                });
                state = after;
                path = child;
            }
        }

        /// Root visits, root value, improved policy and the choice.
        fn outcome(&self) -> Outcome {
            let me = self.me as usize;
            let root_node = &self.tree[&Vec::new()];
            let visits: Vec<(u16, u32)> = self
                .root_ids
                .iter()
                .filter_map(|&a| self.tree.get(&vec![a]).map(|c| (a, c.visits)))
                .collect();
            let root_value = (0..MAX_PLAYERS)
                .map(|p| root_node.value[p] / root_node.visits.max(1) as f32)
                .collect();
            let (_, stats) = self.stats(&[], &self.root, me);
            let sigma = self.sigma(&stats, root_node.raw[me]);
            let mut policy = Vec::new();
            gumbel::improved_policy(&stats, &sigma, &mut policy);
            let improved = self.root_ids.iter().copied().zip(policy).collect();
            let action = match &self.config.gumbel {
                Some(_) => {
                    let most = stats.iter().map(|a| a.visits).max();
                    self.root_ids[self.considered_best(&stats, &sigma, most)]
                }
                None => pick(&visits, 0.0, &mut Rng(0)),
            };
            (visits, root_value, improved, action)
        }
    }

    fn plain_search(
        g: &Game,
        root: &State,
        config: &PuctConfig,
        seed: u64,
        net: &mut dyn Evaluator,
    ) -> Outcome {
        let mut plain = Plain::new(g, root, config, seed, net);
        for _ in 0..config.simulations {
            plain.simulate(net);
        }
        plain.outcome()
    }

    /// The search, with its caches of fixed positions and dealt children, gives exactly what the plain search
    /// gives — visits, values, improved policy and choice — for PUCT with and without root noise and
    /// first-play urgency, and Gumbel with and without rescaled values, at positions of 2-, 3- and 4-player
    /// games.
    #[test]
    fn the_search_is_the_plain_search_of_its_documentation() {
        let puct_noise = PuctConfig {
            simulations: 40,
            dirichlet_alpha: 0.3,
            fpu_reduction: 0.2,
            c_puct: 1.25,
            ..PuctConfig::default()
        };
        let puct_plain = PuctConfig {
            simulations: 40,
            ..PuctConfig::default()
        };
        let gumbel_rescaled = PuctConfig {
            simulations: 48,
            ..gumbel_config(48)
        };
        let gumbel_few = PuctConfig {
            simulations: 24,
            gumbel: Some(GumbelConfig {
                considered: 4,
                rescale: false,
                scale: 0.5,
                ..GumbelConfig::default()
            }),
            ..PuctConfig::default()
        };
        // No Gumbel noise (the quick searches of self-play): ties at the root are broken by the order.
        let gumbel_still = PuctConfig {
            simulations: 20,
            gumbel: Some(GumbelConfig {
                scale: 0.0,
                ..GumbelConfig::default()
            }),
            ..PuctConfig::default()
        };
        let configs = [
            puct_noise,
            puct_plain,
            gumbel_rescaled,
            gumbel_few,
            gumbel_still,
        ];
        let outcome = |s: &mut Search| -> Outcome {
            (
                s.visits(),
                s.root_value(),
                s.improved_policy(),
                s.action(0.0, &mut Rng(0)),
            )
        };
        let mut compared = 0;
        let mut dealt = 0;
        for (name, players) in [
            ("birmingham", 2),
            ("lancashire", 3),
            ("brass", 4),
            ("birmingham", 4),
        ] {
            let (g, states) = positions(name, players, 23);
            // One search restarted for every position and setting, as self-play reuses them.
            let mut reused = Search::new(&g, &states[0], &configs[4], 0);
            for (k, root) in states.iter().enumerate() {
                for (c, config) in configs.iter().enumerate() {
                    let seed = 100 + k as u64 * 7 + c as u64;
                    let mut s =
                        search(&g, root, config, seed, &mut Varied::new(&g)).expect("search");
                    let (nodes, fixed) = s.nodes();
                    dealt += nodes - fixed;
                    let want = plain_search(&g, root, config, seed, &mut Varied::new(&g));
                    assert_eq!(
                        outcome(&mut s),
                        want,
                        "{name} {players}p, position {k}, config {c}"
                    );
                    reused.restart(&g, root, config, seed);
                    let mut batch = Batch::new(&g, 1);
                    loop {
                        let (obs, mask) = batch.row(0);
                        if reused.advance(&g, obs, mask) == Need::Finished {
                            break;
                        }
                        let Batch {
                            observations,
                            masks,
                            logits,
                            values,
                            ..
                        } = &mut batch;
                        Varied::new(&g)
                            .evaluate(observations, masks, 1, logits, values)
                            .expect("evaluate");
                        reused.deliver(&g, logits, values);
                    }
                    assert_eq!(outcome(&mut reused), want, "restarted: {name} {players}p");
                    // Ties everywhere (equal priors, values 0), equal priors with values that differ
                    // (the ties of the tree's choices decide what the root learns), and logits too large
                    // for a softmax that does not subtract their maximum first.
                    let mut flat = Varied {
                        scale: 0.0,
                        ..Varied::new(&g)
                    };
                    let mut loud = Varied {
                        scale: 60.0,
                        ..Varied::new(&g)
                    };
                    for net in [&mut Uniform as &mut dyn Evaluator, &mut flat, &mut loud] {
                        let mut s = search(&g, root, config, seed, &mut *net).expect("search");
                        let want = plain_search(&g, root, config, seed, &mut *net);
                        assert_eq!(outcome(&mut s), want, "{name} {players}p, {k}, {c}");
                    }
                    compared += 1;
                }
            }
        }
        assert!(
            compared > 100 && dealt > 1000,
            "{compared} searches, {dealt} dealt nodes"
        );
    }

    /// Lancashire, 3 players, the game's last action (round 9 of the Rail Era, player 2's last card, taken in
    /// game 227 of a `brass learn` run's second iteration): a sale to the Distant Cotton Market draws a hidden
    /// tile (L-42), so after `sell oldham/2 distant` the game is over in some deals (the market closes, the
    /// action ends) and goes on in others (another mill may be sold). A dealt node the search had found over
    /// was kept as evaluated without its priors; a later deal where it went on read them and panicked (index
    /// u32::MAX). Its result is now backed up without marking the node evaluated: the search is the plain one,
    /// which evaluates a node the first time a deal reaches it with the game going on.
    #[test]
    fn l42_a_dealt_node_over_in_one_deal_and_not_in_another_is_searched_as_the_plain_search_does() {
        let text = include_str!("../tests/positions/lancashire-3p-last-action.json");
        let (g, root) = crate::json::from_json(text).expect("a position");
        let over = |seed: u64| {
            let mut s = resample_hidden(&g, &root, 2, seed);
            for a in ["card barrow_in_furness", "sell oldham/2 distant"] {
                let id = g.parse_action(a).expect("notation");
                crate::apply::apply(&g, &mut s, id as i64).expect("legal");
            }
            s.is_terminal()
        };
        let ends: Vec<bool> = (0..64).map(over).collect();
        assert!(ends.contains(&true) && ends.contains(&false), "{ends:?}");
        let gumbel = PuctConfig {
            gumbel: Some(GumbelConfig {
                considered: 16,
                rescale: false,
                ..GumbelConfig::default()
            }),
            ..PuctConfig::default()
        };
        for config in [gumbel, PuctConfig::default()] {
            for seed in 0..8 {
                let config = PuctConfig {
                    simulations: 48,
                    ..config.clone()
                };
                let mut s = search(&g, &root, &config, seed, &mut Varied::new(&g)).expect("search");
                let want = plain_search(&g, &root, &config, seed, &mut Varied::new(&g));
                let got = (
                    s.visits(),
                    s.root_value(),
                    s.improved_policy(),
                    s.action(0.0, &mut Rng(0)),
                );
                assert_eq!(got, want, "seed {seed}");
            }
        }
    }

    #[test]
    fn each_row_of_a_batch_is_its_own_part_of_the_buffers() {
        let g = Game::new("birmingham", 3, &BTreeMap::new()).expect("game");
        let mut batch = Batch::new(&g, 3);
        for i in 0..3 {
            let (obs, mask) = batch.row(i);
            assert_eq!(
                (obs.len(), mask.len()),
                (observation::size(&g), g.num_actions())
            );
            obs.fill(i as f32 + 1.0);
            mask.fill(i == 1);
        }
        let (size, actions) = (observation::size(&g), g.num_actions());
        for i in 0..3 {
            assert!(batch.observations[i * size..(i + 1) * size]
                .iter()
                .all(|&x| x == i as f32 + 1.0));
            assert!(batch.masks[i * actions..(i + 1) * actions]
                .iter()
                .all(|&m| m == (i == 1)));
        }
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
        // τ = ½ squares the visits: 9 against 100 and 100, so action 7 is drawn 9 times in 209 (4.3 %).
        let mut sevens = 0;
        for _ in 0..4000 {
            sevens += u32::from(pick(&visits, 0.5, &mut rng) == 7);
        }
        assert!((110..=240).contains(&sevens), "{sevens}");
    }
}
