//! Self-play at scale (docs/selfplay.md): games played by agents on worker threads and handed to one
//! reader in index order, with memory bounded by a window of games ahead of the reader, cancellation
//! between decisions, and optional training samples taken while the games are played.
//!
//! The order and the contents of what the reader gets depend only on the schedule (seeds, seatings),
//! never on the number of threads or on timing, so a run that is stopped and resumed from its next
//! index writes what an uninterrupted run writes.
use crate::agents::{play_dealt, selfplay_seeds, Agent, GameResult};
use crate::game::Game;
use crate::json::{game_json, seeded_record_json};
use crate::observation;
use crate::rng::Rng;
use crate::rules;
use crate::state::State;
use crate::{Error, Result};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// One game to play: how it is dealt, how its agents draw their randomness, who sits where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    /// The deal seed (the game record's seed).
    pub deal: u64,
    /// The seed of the generator each decision's agent seed is drawn from.
    pub agents_seed: u64,
    /// For each player, the index of the agent in that seat.
    pub seats: Vec<usize>,
}

/// Which games a stream plays, index by index.
#[derive(Clone, Debug)]
pub enum Schedule {
    /// Games `first .. first + games` of a self-play run seeded with `seed` ([`selfplay_seeds`]); with
    /// `rotate`, game `i` seats agent `(p + i) mod players` as player `p`.
    Run {
        seed: u64,
        first: u64,
        games: u64,
        rotate: bool,
    },
    /// These games, in this order (the arena's balanced seatings).
    Games(Vec<Seating>),
}

impl Schedule {
    /// The number of games.
    pub fn len(&self) -> u64 {
        match self {
            Schedule::Run { games, .. } => *games,
            Schedule::Games(list) => list.len() as u64,
        }
    }

    /// Whether there is no game to play.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The seed of a run (none for an explicit list of games).
    pub fn run_seed(&self) -> Option<u64> {
        match self {
            Schedule::Run { seed, .. } => Some(*seed),
            Schedule::Games(_) => None,
        }
    }

    /// The index reported for the `k`-th game of the schedule (a run's game index, or `k`).
    pub fn index(&self, k: u64) -> u64 {
        match self {
            Schedule::Run { first, .. } => first + k,
            Schedule::Games(_) => k,
        }
    }

    /// The `k`-th game of the schedule.
    pub fn seating(&self, k: u64, players: usize) -> Seating {
        match self {
            Schedule::Run {
                seed,
                first,
                rotate,
                ..
            } => {
                let i = first + k;
                let (deal, agents) = selfplay_seeds(*seed, i);
                Seating {
                    deal,
                    agents_seed: agents.0,
                    seats: (0..players)
                        .map(|p| {
                            if *rotate {
                                (p + i as usize) % players
                            } else {
                                p
                            }
                        })
                        .collect(),
                }
            }
            Schedule::Games(list) => list[k as usize].clone(),
        }
    }
}

/// Training samples of one game: the decisions kept (all of them at rate 1), each with the acting
/// player's observation and the legal actions as a bit mask (docs/selfplay.md, "Samples").
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Index of each kept decision in the game (0 first).
    pub decisions: Vec<u32>,
    /// The player who decided.
    pub players: Vec<u8>,
    /// The action id taken.
    pub actions: Vec<u16>,
    /// `rows × observation::size` float32: the observation of the player who decided.
    pub observations: Vec<f32>,
    /// `rows × mask_bytes(game)`: bit `a % 8` of byte `a / 8` is set when action `a` was legal.
    pub masks: Vec<u8>,
}

/// Bytes per bit-packed legal-action mask.
pub fn mask_bytes(game: &Game) -> usize {
    game.num_actions().div_ceil(8)
}

/// The seed of the generator that chooses which decisions of a game become samples: a function of
/// the deal seed alone, so the same game gives the same samples in any run.
fn sample_rng(deal: u64) -> Rng {
    Rng(deal ^ 0x5A3B_1E5D_0B5E_55ED)
}

/// A uniform draw in [0, 1) with 53 bits.
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Takes the samples of one game, decision by decision.
struct Sampler<'g> {
    game: &'g Game,
    rate: f64,
    pick: Rng,
    size: usize,
    bytes: usize,
    decision: u32,
    ids: Vec<u16>,
    samples: Samples,
}

impl<'g> Sampler<'g> {
    fn new(game: &'g Game, deal: u64, rate: f64) -> Sampler<'g> {
        Sampler {
            game,
            rate,
            pick: sample_rng(deal),
            size: observation::size(game),
            bytes: mask_bytes(game),
            decision: 0,
            ids: Vec::with_capacity(256),
            samples: Samples::default(),
        }
    }

    /// The decision about to be taken: `player` takes `action` in `state`.
    fn observe(&mut self, state: &State, player: u8, action: u16) {
        let decision = self.decision;
        self.decision += 1;
        // At rate 1 no draw is made: every decision is kept. (A draw at rate 1 would keep them all too, and
        // the generator serves nothing else: `<=` for `<` here is an equivalent mutant.)
        if self.rate < 1.0 && unit(&mut self.pick) >= self.rate {
            return;
        }
        let s = &mut self.samples;
        s.decisions.push(decision);
        s.players.push(player);
        s.actions.push(action);
        let at = s.observations.len();
        s.observations.resize(at + self.size, 0.0);
        observation::write(self.game, state, player, &mut s.observations[at..]);
        let at = s.masks.len();
        s.masks.resize(at + self.bytes, 0);
        self.ids.clear();
        rules::legal_actions(self.game, state, &mut self.ids);
        for &id in &self.ids {
            s.masks[at + id as usize / 8] |= 1 << (id % 8);
        }
    }
}

/// The samples of a recorded game (dealt from `deal`, then `actions`), as a stream taking samples at
/// `rate` gives them when it plays that game, so samples can be made again from records alone; and the
/// final position, whose scores and returns the samples are labelled with.
pub fn samples_of_game(
    game: &Game,
    deal: u64,
    actions: &[u16],
    rate: f64,
) -> Result<(Samples, State)> {
    let mut sampler = Sampler::new(game, deal, rate);
    let mut state = crate::apply::new_state(game, deal);
    for (d, &id) in actions.iter().enumerate() {
        let player = state.current_player(game).ok_or_else(|| {
            Error::IllegalAction(format!("decision {d}: the game is already over"))
        })?;
        let before = state;
        crate::apply::apply(game, &mut state, id as i64)
            .map_err(|e| Error::IllegalAction(format!("decision {d}: {e}")))?;
        sampler.observe(&before, player, id);
    }
    Ok((sampler.samples, state))
}

/// A finished game, as the reader gets it.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The game's index in its run (or its position in an explicit schedule).
    pub index: u64,
    /// For each player, the index of the agent that sat there.
    pub seats: Vec<usize>,
    pub result: GameResult,
    /// The game record JSON (docs/state-format.md).
    pub record: String,
    /// The JSON Lines entry of `brass selfplay --out` for this game: `{"index", "seats", "scores",
    /// "winners", "decisions", "record"}` on one line, without the newline.
    pub line: String,
    /// Training samples, when the stream takes them.
    pub samples: Option<Samples>,
}

/// The JSON Lines entry `brass selfplay --out` writes for a game: `{"index", "run_seed", "engine", "seats",
/// "scores", "winners", "decisions", "record"}` (docs/selfplay.md), on one line, without the newline;
/// `run_seed` is the seed of the run the game belongs to (none for a game of an explicit schedule), `engine`
/// the version that played it (`brass 0.1.0`), `seats` names the agent of each player, `record` is the game
/// record JSON.
pub fn line(
    index: u64,
    run_seed: Option<u64>,
    seats: &[String],
    result: &GameResult,
    record: &str,
) -> String {
    let run_seed = run_seed.map_or(String::new(), |s| format!("\"run_seed\":{s},"));
    format!(
        "{{\"index\":{index},{run_seed}\"engine\":\"brass {}\",\"seats\":{},\"scores\":{},\"winners\":{},\"decisions\":{},\"record\":{record}}}",
        env!("CARGO_PKG_VERSION"),
        json(seats),
        json(&result.scores),
        json(&result.winners),
        result.actions.len(),
    )
}

/// Compact JSON of a list of numbers or names (which cannot fail to serialise).
fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// What [`Stream::next_batch`] found.
#[derive(Debug)]
pub enum Batch {
    /// The next games in index order (at least one).
    Ready(Vec<Finished>),
    /// Nothing yet within the timeout.
    Pending,
    /// Every game has been handed out, or the stream was cancelled and what was finished in order is out.
    Done,
    /// A worker failed (a bug in an agent or the engine); the stream is cancelled.
    Failed(String),
}

struct Progress {
    /// The next schedule position a worker will start.
    next_start: u64,
    /// The next schedule position the reader will get.
    next_out: u64,
    /// Finished games not yet handed out, by schedule position.
    done: BTreeMap<u64, Finished>,
    /// Workers still running.
    running: usize,
    failure: Option<String>,
}

struct Shared {
    game: Arc<Game>,
    agents: Vec<Arc<dyn Agent>>,
    names: Vec<String>,
    /// The configuration as record JSON text, made once for all the records.
    game_text: String,
    schedule: Schedule,
    sample_rate: Option<f64>,
    window: u64,
    /// Finished games that wake the reader (a few, at most half the window).
    wake_after: u64,
    cancel: AtomicBool,
    progress: Mutex<Progress>,
    /// Workers wait here for room in the window.
    room: Condvar,
    /// The reader waits here for the next game in order.
    ready: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Progress> {
        // A worker never panics while holding the lock (games are played outside it).
        self.progress.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Games played on worker threads, handed out in order. Dropping it cancels the games still running
/// (their threads end at their next decision).
pub struct Stream {
    shared: Arc<Shared>,
}

/// How a stream is set up.
#[derive(Clone, Debug)]
pub struct StreamConfig {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Games that may be finished or under way ahead of the reader (0: 8 per thread, at least 16).
    pub window: u64,
    /// Take training samples, keeping each decision with this probability (0 < rate ≤ 1).
    pub sample_rate: Option<f64>,
}

impl Stream {
    /// Start playing `schedule` with `agents` (seat indices in the schedule refer to this list).
    pub fn start(
        game: Arc<Game>,
        agents: Vec<Arc<dyn Agent>>,
        schedule: Schedule,
        config: &StreamConfig,
    ) -> Stream {
        let threads = match config.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
        let threads = threads.min(schedule.len().max(1) as usize);
        let window = match config.window {
            0 => (8 * threads as u64).max(16),
            w => w.max(threads as u64),
        };
        let shared = Arc::new(Shared {
            game_text: game_json(&game).to_string(),
            game,
            names: agents.iter().map(|a| a.name()).collect(),
            agents,
            schedule,
            sample_rate: config.sample_rate,
            window,
            // How often the reader is woken changes when games are handed out, never which or in what order.
            wake_after: (window / 2).clamp(1, 16),
            cancel: AtomicBool::new(false),
            progress: Mutex::new(Progress {
                next_start: 0,
                next_out: 0,
                done: BTreeMap::new(),
                running: threads,
                failure: None,
            }),
            room: Condvar::new(),
            ready: Condvar::new(),
        });
        for _ in 0..threads {
            let shared = shared.clone();
            std::thread::spawn(move || work(&shared));
        }
        Stream { shared }
    }

    /// The next games in order, waiting at most `timeout` for the first of them.
    pub fn next_batch(&self, timeout: Duration) -> Batch {
        let shared = &self.shared;
        let mut progress = shared.lock();
        let mut waited = false;
        loop {
            if let Some(failure) = &progress.failure {
                return Batch::Failed(failure.clone());
            }
            let mut out = Vec::new();
            while let Some(game) = {
                let at = progress.next_out;
                progress.done.remove(&at)
            } {
                out.push(game);
                progress.next_out += 1;
            }
            if !out.is_empty() {
                shared.room.notify_all();
                return Batch::Ready(out);
            }
            let total = shared.schedule.len();
            if progress.next_out >= total || (progress.running == 0) {
                return Batch::Done;
            }
            if waited {
                return Batch::Pending;
            }
            let (guard, result) = shared
                .ready
                .wait_timeout(progress, timeout)
                .unwrap_or_else(|e| e.into_inner());
            progress = guard;
            waited = result.timed_out();
        }
    }

    /// Stop: no new game starts, the games under way are abandoned at their next decision. The games
    /// already finished in order can still be read.
    pub fn cancel(&self) {
        self.shared.cancel.store(true, Ordering::Relaxed);
        let _guard = self.shared.lock();
        self.shared.room.notify_all();
        self.shared.ready.notify_all();
    }

    /// Games handed out so far.
    pub fn handed_out(&self) -> u64 {
        self.shared.lock().next_out
    }

    /// The number of games in the schedule.
    pub fn len(&self) -> u64 {
        self.shared.schedule.len()
    }

    /// Whether the schedule is empty.
    pub fn is_empty(&self) -> bool {
        self.shared.schedule.is_empty()
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// A worker: take the next position while it is within the window, play it, hand it in.
fn work(shared: &Shared) {
    let players = shared.game.players as usize;
    loop {
        let k = {
            let mut progress = shared.lock();
            loop {
                if shared.cancel.load(Ordering::Relaxed)
                    || progress.next_start >= shared.schedule.len()
                {
                    progress.running -= 1;
                    shared.ready.notify_all();
                    return;
                }
                // (A `<=` here lets one game more run ahead: the same games in the same order, a window one
                // larger, which only timing shows; the window test checks that the window is reached.)
                if progress.next_start < progress.next_out + shared.window {
                    break;
                }
                progress = shared
                    .room
                    .wait(progress)
                    .unwrap_or_else(|e| e.into_inner());
            }
            progress.next_start += 1;
            progress.next_start - 1
        };
        let played = catch_unwind(AssertUnwindSafe(|| play_one(shared, k, players)));
        let mut progress = shared.lock();
        match played {
            Ok(Some(finished)) => {
                progress.done.insert(k, finished);
                // The reader is woken for a handful of games at a time: waking it for every short game costs
                // a context switch each (a tenth of a random game on one core). It also wakes on its own
                // every time its wait times out, so a slow game is handed out within that time.
                if progress.done.len() as u64 >= shared.wake_after {
                    shared.ready.notify_all();
                }
            }
            Ok(None) => {} // cancelled
            Err(panic) => {
                let what = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                progress
                    .failure
                    .get_or_insert(format!("game {} failed: {what}", shared.schedule.index(k)));
                shared.cancel.store(true, Ordering::Relaxed);
                shared.room.notify_all();
                shared.ready.notify_all();
            }
        }
    }
}

/// Play the `k`-th game of the schedule, taking samples if asked.
fn play_one(shared: &Shared, k: u64, players: usize) -> Option<Finished> {
    let game = &*shared.game;
    let seating = shared.schedule.seating(k, players);
    let seats: Vec<&dyn Agent> = seating
        .seats
        .iter()
        .map(|&a| shared.agents[a].as_ref())
        .collect();
    let mut sampler = shared
        .sample_rate
        .map(|rate| Sampler::new(game, seating.deal, rate));
    let result = play_dealt(
        game,
        &seats,
        seating.deal,
        Rng(seating.agents_seed),
        &shared.cancel,
        |state, player, action| {
            if let Some(s) = sampler.as_mut() {
                s.observe(state, player, action);
            }
        },
    )?;
    let samples = sampler.map(|s| s.samples);
    // Both texts are made here, on the worker, so the reader only writes them out.
    let index = shared.schedule.index(k);
    let record = seeded_record_json(&shared.game_text, result.seed, &result.actions);
    let names: Vec<String> = seating
        .seats
        .iter()
        .map(|&a| shared.names[a].clone())
        .collect();
    Some(Finished {
        index,
        line: line(index, shared.schedule.run_seed(), &names, &result, &record),
        seats: seating.seats,
        record,
        result,
        samples,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{play_game, GreedyAgent, RandomAgent};
    use std::sync::atomic::AtomicBool;

    fn game(name: &str, players: i64) -> Arc<Game> {
        Arc::new(Game::new(name, players, &Default::default()).expect("game"))
    }

    fn drain(stream: &Stream) -> Vec<Finished> {
        let mut out = Vec::new();
        loop {
            match stream.next_batch(Duration::from_secs(60)) {
                Batch::Ready(games) => out.extend(games),
                Batch::Pending => {}
                Batch::Done => return out,
                Batch::Failed(e) => panic!("{e}"),
            }
        }
    }

    fn randoms(n: usize) -> Vec<Arc<dyn Agent>> {
        let random: Arc<dyn Agent> = Arc::new(RandomAgent::default());
        vec![random; n]
    }

    fn agents() -> Vec<Arc<dyn Agent>> {
        vec![Arc::new(GreedyAgent), Arc::new(RandomAgent::default())]
    }

    #[test]
    fn a_stream_hands_out_the_games_of_play_game_in_order_whatever_the_threads() {
        let g = game("birmingham", 2);
        let schedule = Schedule::Run {
            seed: 9,
            first: 5,
            games: 12,
            rotate: true,
        };
        let mut runs = Vec::new();
        for threads in [1, 3] {
            let config = StreamConfig {
                threads,
                window: 4,
                sample_rate: None,
            };
            let stream = Stream::start(g.clone(), agents(), schedule.clone(), &config);
            runs.push(drain(&stream));
        }
        for run in &runs {
            assert_eq!(
                run.iter().map(|f| f.index).collect::<Vec<_>>(),
                (5..17).collect::<Vec<_>>()
            );
        }
        for (a, b) in runs[0].iter().zip(&runs[1]) {
            assert_eq!(a.line, b.line);
        }
        let owned = agents();
        for f in &runs[0] {
            let i = f.index as usize;
            let seats: Vec<&dyn Agent> = (0..2).map(|p| owned[(p + i) % 2].as_ref()).collect();
            let direct = play_game(&g, &seats, 9, f.index);
            assert_eq!(direct.actions, f.result.actions);
            assert_eq!(direct.placings, f.result.placings);
            let seats = if i % 2 == 0 {
                "greedy\",\"random"
            } else {
                "random\",\"greedy"
            };
            assert!(f.line.starts_with(&format!(
                "{{\"index\":{i},\"run_seed\":9,\"engine\":\"brass {}\",\"seats\":[\"{seats}\"]",
                env!("CARGO_PKG_VERSION")
            )));
            assert!(f.line.ends_with(&format!(",\"record\":{}}}", f.record)));
            // The record written directly is the text serde_json makes of the record's value.
            let value = serde_json::json!({
                "actions": f.result.actions,
                "format": crate::json::RECORD_FORMAT,
                "game": game_json(&g),
                "seed": f.result.seed,
            });
            assert_eq!(f.record, value.to_string());
            assert_eq!(f.record, direct.record(&g));
        }
    }

    #[test]
    fn samples_hold_each_kept_decision_with_its_observation_and_legal_mask() {
        let g = game("lancashire", 3);
        for rate in [1.0, 0.25] {
            let config = StreamConfig {
                threads: 2,
                window: 0,
                sample_rate: Some(rate),
            };
            let schedule = Schedule::Run {
                seed: 3,
                first: 0,
                games: 3,
                rotate: true,
            };
            let ours = randoms(3);
            let games = drain(&Stream::start(g.clone(), ours, schedule, &config));
            let size = observation::size(&g);
            let bytes = mask_bytes(&g);
            for f in &games {
                let s = f.samples.as_ref().expect("samples");
                let n = s.decisions.len();
                if rate == 1.0 {
                    assert_eq!(n, f.result.actions.len());
                } else {
                    assert!(n > 0 && n < f.result.actions.len() / 2);
                }
                assert_eq!(s.observations.len(), n * size);
                assert_eq!(s.masks.len(), n * bytes);
                // Replay the game and compare every kept decision.
                let mut state = crate::apply::new_state(&g, f.result.seed);
                let mut row = 0;
                let mut obs = vec![0.0; size];
                for (d, &a) in f.result.actions.iter().enumerate() {
                    if row < n && s.decisions[row] == d as u32 {
                        let p = state.current_player(&g).expect("player");
                        assert_eq!((s.players[row], s.actions[row]), (p, a));
                        observation::write(&g, &state, p, &mut obs);
                        assert_eq!(&s.observations[row * size..(row + 1) * size], &obs[..]);
                        let mut ids = Vec::new();
                        rules::legal_actions(&g, &state, &mut ids);
                        let mask = &s.masks[row * bytes..(row + 1) * bytes];
                        for id in 0..g.num_actions() {
                            let set = mask[id / 8] >> (id % 8) & 1 == 1;
                            assert_eq!(set, ids.contains(&(id as u16)));
                        }
                        row += 1;
                    }
                    crate::apply::apply(&g, &mut state, a as i64).expect("legal");
                }
                assert_eq!(row, n);
                let (again, end) =
                    samples_of_game(&g, f.result.seed, &f.result.actions, rate).expect("replay");
                assert_eq!(crate::apply::placings(&g, &end), f.result.placings);
                assert_eq!(again.decisions, s.decisions);
                assert_eq!(again.observations, s.observations);
                assert_eq!(again.masks, s.masks);
            }
        }
    }

    #[test]
    fn a_cancelled_stream_ends_and_hands_out_only_games_in_order() {
        let g = game("lancashire", 4);
        let schedule = Schedule::Run {
            seed: 1,
            first: 0,
            games: 100_000,
            rotate: true,
        };
        let config = StreamConfig {
            threads: 2,
            window: 8,
            sample_rate: None,
        };
        let stream = Stream::start(g, randoms(4), schedule, &config);
        let mut seen = Vec::new();
        while seen.len() < 5 {
            match stream.next_batch(Duration::from_secs(60)) {
                Batch::Ready(games) => seen.extend(games.into_iter().map(|f| f.index)),
                other => panic!("{other:?}"),
            }
        }
        stream.cancel();
        seen.extend(drain(&stream).into_iter().map(|f| f.index));
        assert_eq!(seen, (0..seen.len() as u64).collect::<Vec<_>>());
        assert!(
            seen.len() < 5 + 8 + 2,
            "the window bounds what was played ahead"
        );
    }

    /// An explicit schedule (the arena's seatings) is played as listed: indices 0, 1, …, the seats as
    /// given, the deal and agent seeds as given, and no run seed in the lines.
    #[test]
    fn an_explicit_schedule_is_played_as_listed() {
        let g = game("birmingham", 2);
        let list: Vec<Seating> = (0..5u64)
            .map(|k| Seating {
                deal: 1000 + k,
                agents_seed: 77 * k + 1,
                seats: if k % 3 == 0 { vec![1, 0] } else { vec![0, 1] },
            })
            .collect();
        let schedule = Schedule::Games(list.clone());
        assert_eq!(
            (schedule.len(), schedule.is_empty(), schedule.run_seed()),
            (5, false, None)
        );
        assert!(Schedule::Games(Vec::new()).is_empty());
        let config = StreamConfig {
            threads: 2,
            window: 0,
            sample_rate: None,
        };
        let stream = Stream::start(g.clone(), agents(), schedule, &config);
        assert_eq!((stream.len(), stream.is_empty()), (5, false));
        let games = drain(&stream);
        assert_eq!(stream.handed_out(), 5);
        let owned = agents();
        for (k, f) in games.iter().enumerate() {
            assert_eq!((f.index, &f.seats), (k as u64, &list[k].seats));
            assert!(
                f.line.starts_with(&format!("{{\"index\":{k},\"engine\"")),
                "{}",
                f.line
            );
            let seats: Vec<&dyn Agent> = list[k].seats.iter().map(|&a| owned[a].as_ref()).collect();
            let stop = AtomicBool::new(false);
            let direct = play_dealt(
                &g,
                &seats,
                list[k].deal,
                Rng(list[k].agents_seed),
                &stop,
                |_, _, _| {},
            )
            .expect("played");
            assert_eq!(direct.actions, f.result.actions);
            assert_eq!(f.result.seed, list[k].deal);
        }
    }

    #[test]
    fn a_run_without_rotation_keeps_every_agent_in_its_seat() {
        let schedule = Schedule::Run {
            seed: 4,
            first: 10,
            games: 3,
            rotate: false,
        };
        assert_eq!(
            (schedule.len(), schedule.run_seed(), schedule.index(2)),
            (3, Some(4), 12)
        );
        for k in 0..3 {
            let seating = schedule.seating(k, 3);
            assert_eq!(seating.seats, vec![0, 1, 2]);
            let (deal, agents) = selfplay_seeds(4, 10 + k);
            assert_eq!((seating.deal, seating.agents_seed), (deal, agents.0));
        }
        let rotating = Schedule::Run {
            seed: 4,
            first: 10,
            games: 3,
            rotate: true,
        };
        assert_eq!(rotating.seating(1, 3).seats, vec![2, 0, 1]);
    }

    /// An agent that panics at its first decision in the game dealt from `bad_deal`.
    struct Faulty {
        bad_deal: u64,
    }
    impl Agent for Faulty {
        fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16 {
            let start = crate::apply::new_state(game, self.bad_deal);
            assert!(*state != start, "a planted failure");
            RandomAgent::default().choose(game, state, rng)
        }
        fn name(&self) -> String {
            "faulty".into()
        }
    }

    #[test]
    fn a_failing_game_fails_the_stream_naming_the_game() {
        let g = game("lancashire", 2);
        let (bad_deal, _) = selfplay_seeds(6, 3);
        let faulty: Arc<dyn Agent> = Arc::new(Faulty { bad_deal });
        let schedule = Schedule::Run {
            seed: 6,
            first: 0,
            games: 40,
            rotate: true,
        };
        let config = StreamConfig {
            threads: 2,
            window: 4,
            sample_rate: None,
        };
        let stream = Stream::start(g, vec![faulty; 2], schedule, &config);
        let mut seen = Vec::new();
        let failure = loop {
            match stream.next_batch(Duration::from_secs(60)) {
                Batch::Ready(games) => seen.extend(games.into_iter().map(|f| f.index)),
                Batch::Pending => {}
                Batch::Done => panic!("the stream ended without its failure"),
                Batch::Failed(e) => break e,
            }
        };
        assert!(
            failure.starts_with("game 3 failed: a planted failure"),
            "{failure}"
        );
        assert!(seen.iter().all(|&i| i < 3), "{seen:?}");
        assert!(matches!(
            stream.next_batch(Duration::ZERO),
            Batch::Failed(_)
        ));
    }

    /// A gate the agents of a test wait at until the test opens it.
    type Gate = Arc<(Mutex<bool>, Condvar)>;

    fn wait_at(gate: &Gate) {
        let (lock, opened) = &**gate;
        let mut open = lock.lock().expect("lock");
        while !*open {
            open = opened.wait(open).expect("wait");
        }
    }

    fn open(gate: &Gate) {
        *gate.0.lock().expect("lock") = true;
        gate.1.notify_all();
    }

    /// A random agent that waits at every decision until the test opens its gate.
    struct Gated {
        open: Gate,
    }
    impl Agent for Gated {
        fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16 {
            wait_at(&self.open);
            RandomAgent::default().choose(game, state, rng)
        }
        fn name(&self) -> String {
            "gate".into()
        }
    }

    #[test]
    fn a_reader_waits_no_longer_than_its_timeout_and_then_gets_the_games() {
        let g = game("lancashire", 2);
        let gate_open: Gate = Arc::new((Mutex::new(false), Condvar::new()));
        let gate: Arc<dyn Agent> = Arc::new(Gated {
            open: gate_open.clone(),
        });
        let schedule = Schedule::Run {
            seed: 2,
            first: 0,
            games: 3,
            rotate: true,
        };
        let config = StreamConfig {
            threads: 1,
            window: 0,
            sample_rate: None,
        };
        let stream = Stream::start(g, vec![gate; 2], schedule, &config);
        // No game can finish while the gate is shut: the reader is told so after its timeout.
        assert!(matches!(
            stream.next_batch(Duration::from_millis(20)),
            Batch::Pending
        ));
        assert_eq!(stream.handed_out(), 0);
        open(&gate_open);
        let games = drain(&stream);
        assert_eq!(
            games.iter().map(|f| f.index).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert!(matches!(stream.next_batch(Duration::ZERO), Batch::Done));
    }

    /// A random agent that notes every game it starts (its first position is one of `firsts`) and holds the
    /// game that starts from `held` at its first decision until the test opens the gate.
    struct Holder {
        firsts: Vec<State>,
        held: State,
        open: Gate,
        started: Arc<(Mutex<Vec<State>>, Condvar)>,
    }
    impl Agent for Holder {
        fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16 {
            if self.firsts.contains(state) {
                let (list, changed) = &*self.started;
                let mut list = list.lock().expect("lock");
                if !list.contains(state) {
                    list.push(*state);
                    changed.notify_all();
                }
            }
            if *state == self.held {
                wait_at(&self.open);
            }
            RandomAgent::default().choose(game, state, rng)
        }
        fn name(&self) -> String {
            "holder".into()
        }
    }

    /// The window lets the workers run games ahead of the reader (by default 8 per thread, at least 16):
    /// while the first game is held, the others up to the window's end are all started.
    #[test]
    fn workers_run_a_window_of_games_ahead_of_the_reader() {
        let g = game("lancashire", 2);
        // (threads, the window asked for, the window: 0 asks for the default)
        for (threads, asked, window) in [(3usize, 0u64, 24usize), (2, 0, 16), (3, 5, 5)] {
            let schedule = Schedule::Run {
                seed: 12,
                first: 0,
                games: 200,
                rotate: true,
            };
            let gate_open: Gate = Arc::new((Mutex::new(false), Condvar::new()));
            let started = Arc::new((Mutex::new(Vec::new()), Condvar::new()));
            let firsts: Vec<State> = (0..schedule.len())
                .map(|k| crate::apply::new_state(&g, schedule.seating(k, 2).deal))
                .collect();
            let holder: Arc<dyn Agent> = Arc::new(Holder {
                held: firsts[0],
                firsts,
                open: gate_open.clone(),
                started: started.clone(),
            });
            let config = StreamConfig {
                threads,
                window: asked,
                sample_rate: None,
            };
            let stream = Stream::start(g.clone(), vec![holder; 2], schedule, &config);
            let (list, changed) = &*started;
            let mut seen = list.lock().expect("lock");
            while seen.len() < window {
                let (guard, waited) = changed
                    .wait_timeout(seen, Duration::from_secs(60))
                    .expect("wait");
                seen = guard;
                assert!(
                    !waited.timed_out(),
                    "{threads} threads: only {} games started",
                    seen.len()
                );
            }
            drop(seen);
            open(&gate_open);
            stream.cancel();
        }
    }

    #[test]
    fn the_decisions_kept_as_samples_are_drawn_from_the_deal_alone() {
        // The documented draw (docs/selfplay.md, "Samples"): SplitMix64 seeded with the deal XOR
        // 0x5A3B1E5D0B5E55ED, one 53-bit uniform per decision, the decision kept when it is below the rate.
        let g = game("birmingham", 2);
        let deal = 4242;
        let result = play_dealt(
            &g,
            &[&RandomAgent::default(), &RandomAgent::default()],
            deal,
            Rng(1),
            &AtomicBool::new(false),
            |_, _, _| {},
        )
        .expect("played");
        let mut draws = Rng(deal ^ 0x5A3B_1E5D_0B5E_55ED);
        let want: Vec<u32> = (0..result.actions.len() as u32)
            .filter(|_| ((draws.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < 0.3)
            .collect();
        let (samples, _) = samples_of_game(&g, deal, &result.actions, 0.3).expect("samples");
        assert_eq!(samples.decisions, want);
    }

    #[test]
    fn dropping_a_stream_stops_its_workers_and_an_empty_one_is_done_at_once() {
        let g = game("lancashire", 4);
        let schedule = Schedule::Run {
            seed: 1,
            first: 0,
            games: 100_000,
            rotate: true,
        };
        let config = StreamConfig {
            threads: 2,
            window: 0,
            sample_rate: None,
        };
        let stream = Stream::start(g.clone(), randoms(4), schedule, &config);
        let shared = stream.shared.clone();
        drop(stream);
        // Each worker ends at its next decision and says so.
        let mut progress = shared.lock();
        while progress.running > 0 {
            let (guard, waited) = shared
                .ready
                .wait_timeout(progress, Duration::from_secs(60))
                .expect("wait");
            progress = guard;
            assert!(
                !waited.timed_out(),
                "{} workers still running",
                progress.running
            );
        }
        drop(progress);
        let empty = Stream::start(g, randoms(4), Schedule::Games(Vec::new()), &config);
        assert!(empty.is_empty());
        assert_eq!(empty.len(), 0);
        assert!(matches!(empty.next_batch(Duration::ZERO), Batch::Done));
        assert_eq!(empty.handed_out(), 0);
    }

    #[test]
    fn placings_share_places_on_ties_and_put_the_winners_first() {
        let g = game("birmingham", 3);
        let owned = agents();
        for i in 0..20 {
            let seats: Vec<&dyn Agent> =
                vec![owned[0].as_ref(), owned[1].as_ref(), owned[1].as_ref()];
            let r = play_game(&g, &seats, 4, i);
            let firsts: Vec<u8> = (0..3u8).filter(|&p| r.placings[p as usize] == 0).collect();
            assert_eq!(firsts, r.winners);
            for p in 0..3 {
                let ahead = (0..3).filter(|&q| r.placings[q] < r.placings[p]).count();
                assert_eq!(r.placings[p] as usize, ahead);
            }
        }
    }
}
