//! Agents that play with a trained network (docs/learning.md, "Agents"): its raw policy, or the PUCT search
//! it guides.
use crate::agents::Agent;
use crate::game::Game;
use crate::net::{Net, Scratch};
use crate::observation;
use crate::puct::{search_or_stop, Evaluator, PuctConfig, LONG_SEARCH_SIMULATIONS};
use crate::rng::Rng;
use crate::rules;
use crate::state::State;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A network as a leaf evaluator. `batch`: every row computed the same way whatever the batch
/// ([`Net::evaluate_batch`]: what self-play with many games at once needs); else the fastest way for the rows
/// given (a single search's one leaf at a time). `on_this_thread` (with `batch`): never split between threads
/// (a lane of [`Lanes`](crate::search_games::Lanes)).
pub struct NetEvaluator<'n> {
    pub net: &'n Net,
    pub scratch: Scratch,
    pub batch: bool,
    pub on_this_thread: bool,
}

impl Evaluator for NetEvaluator<'_> {
    fn evaluate(
        &mut self,
        observations: &[f32],
        _masks: &[bool],
        rows: usize,
        logits: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) -> crate::error::Result<()> {
        if self.batch && self.on_this_thread {
            self.net
                .evaluate_rows(observations, rows, &mut self.scratch, logits, values, true);
        } else if self.batch {
            self.net
                .evaluate_batch(observations, rows, &mut self.scratch, logits, values);
        } else {
            self.net
                .evaluate(observations, rows, &mut self.scratch, logits, values);
        }
        Ok(())
    }

    fn reads_masks(&self) -> bool {
        false
    }
}

/// The network's raw policy: the legal action with the highest logit (the lower id on a tie); no search.
#[derive(Clone, Debug)]
pub struct NetAgent {
    pub net: Arc<Net>,
    /// The game it was trained for.
    pub game: Arc<Game>,
}

impl Agent for NetAgent {
    fn choose(&self, game: &Game, state: &State, _rng: &mut Rng) -> u16 {
        let player = state.current_player(game).expect("a player to move");
        let mut obs = vec![0.0; observation::size(game)];
        observation::write(game, state, player, &mut obs);
        let (mut logits, mut values) = (Vec::new(), Vec::new());
        self.net
            .evaluate(&obs, 1, &mut Scratch::default(), &mut logits, &mut values);
        let mut ids = Vec::new();
        rules::legal_actions(game, state, &mut ids);
        let mut best = ids[0];
        for &a in &ids[1..] {
            if logits[a as usize] > logits[best as usize] {
                best = a;
            }
        }
        best
    }
    fn name(&self) -> String {
        "net".into()
    }
}

/// The search guided by the network (PUCT or Gumbel, `config`; no noise): PUCT plays the most visited action,
/// Gumbel the Sequential Halving winner.
#[derive(Clone, Debug)]
pub struct NetMctsAgent {
    pub net: Arc<Net>,
    pub game: Arc<Game>,
    pub config: PuctConfig,
}

impl Agent for NetMctsAgent {
    fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16 {
        let go_on = AtomicBool::new(false);
        self.choose_or_stop(game, state, rng, &go_on)
            .expect("nothing stops it")
    }
    fn choose_or_stop(
        &self,
        game: &Game,
        state: &State,
        rng: &mut Rng,
        stop: &AtomicBool,
    ) -> Option<u16> {
        let mut ids = Vec::new();
        rules::legal_actions(game, state, &mut ids);
        if ids.len() == 1 {
            return Some(ids[0]);
        }
        let mut evaluator = NetEvaluator {
            net: &self.net,
            scratch: Scratch::default(),
            batch: false,
            on_this_thread: false,
        };
        let mut s = search_or_stop(
            game,
            state,
            &self.config,
            rng.next_u64(),
            &mut evaluator,
            stop,
        )
        .expect("a native network evaluates every leaf")?;
        Some(s.action(0.0, rng))
    }
    fn may_take_long(&self) -> bool {
        self.config.simulations >= LONG_SEARCH_SIMULATIONS
    }
    fn name(&self) -> String {
        match self.config.gumbel {
            Some(_) => format!("netgumbel({})", self.config.simulations),
            None => format!("netmcts({})", self.config.simulations),
        }
    }
}
