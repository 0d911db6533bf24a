//! `brass.State`'s methods (its data is `wrappers::State`), `brass.PlayerView`, `brass.replay`.
use crate::args::{action_arg, bool_arg, headers_arg, json_text_arg, player_arg, seed_arg};
use crate::errors::{guard, to_py};
use crate::wrappers::{Game, State};
use brass_core::game::Resource;
use brass_core::games::{birmingham, Extra};
use brass_core::{apply, hidden, invariants, json, observation, rules, Error, Game as CoreGame};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One player's holdings, as a snapshot.
#[pyclass(module = "brass", frozen, get_all)]
pub(crate) struct PlayerView {
    money: i32,
    money_spent: i32,
    income_level: i32,
    income_space: u8,
    vp: i32,
    hand: Vec<String>,
    discards: Vec<String>,
    mat: BTreeMap<String, usize>,
    links_left: u8,
}

#[pymethods]
impl PlayerView {
    fn __repr__(&self) -> String {
        format!(
            "PlayerView(money={}, income_level={}, vp={}, hand={:?}, links_left={})",
            self.money, self.income_level, self.vp, self.hand, self.links_left
        )
    }
}

fn card_list(game: &CoreGame, counts: &[u8]) -> Vec<String> {
    let mut v = Vec::new();
    for (k, &c) in counts[..game.card_kinds.len()].iter().enumerate() {
        for _ in 0..c {
            v.push(game.card_names[k].clone());
        }
    }
    v
}

/// Python ints for the action ids below 1,024 (every game has fewer), made once: a list of legal actions
/// then holds shared int objects instead of allocating one per id (ids above 256 are not interned by
/// CPython). A Python loop calling `legal_actions()` at every decision spends much of its time there.
static ACTION_IDS: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();

/// The ids as a Python list of ints.
fn id_list<'py>(py: Python<'py>, ids: &[u16]) -> PyResult<Bound<'py, PyList>> {
    let cache = ACTION_IDS.get_or_init(py, || {
        (0..1024u16)
            .map(|i| i.into_pyobject(py).expect("an int").into_any().unbind())
            .collect()
    });
    PyList::new(
        py,
        ids.iter().map(|&id| match cache.get(id as usize) {
            Some(int) => int.bind(py).clone(),
            None => id.into_pyobject(py).expect("an int").into_any(),
        }),
    )
}

/// The display seam, the one place the binding calls up into the Python package: `str(state)` and the
/// picture Jupyter shows are drawn by `board` of `module` (`brass.text`, `brass.svg`), which reads the state
/// through its public API, as python-chess's `Board._repr_svg_` calls `chess.svg`. Nothing else of the
/// binding needs the package; `tests/test_layers.py` allows these two modules here and nowhere else.
fn drawn_by(state: &Bound<'_, State>, module: &str) -> PyResult<String> {
    state
        .py()
        .import(module)?
        .getattr("board")?
        .call1((state,))?
        .extract()
}

/// The legal ids of a position, ascending.
fn legal(state: &State) -> Vec<u16> {
    let mut ids = Vec::new();
    rules::legal_actions(&state.game, &state.inner, &mut ids);
    ids
}

#[pymethods]
impl State {
    /// The configuration this state belongs to.
    #[getter]
    fn game(&self) -> Game {
        Game {
            inner: self.game.clone(),
        }
    }
    /// The player who decides now, or None when the game is over.
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.inner.current_player(&self.game)
    }
    /// Round within the era, from 1.
    #[getter]
    fn round(&self) -> u8 {
        self.inner.round
    }
    /// "canal" or "rail".
    #[getter]
    fn era(&self) -> &'static str {
        self.inner.era.name()
    }
    /// The kind of decision pending (docs/actions.md): action, coal, iron, link, develop, sell, card, remove, over.
    #[getter]
    fn decision(&self) -> &'static str {
        self.inner.decision.name()
    }
    #[getter]
    fn turn_order(&self) -> Vec<u32> {
        self.inner.turn_order[..self.game.players as usize]
            .iter()
            .map(|&p| p as u32)
            .collect()
    }
    #[getter]
    fn actions_left(&self) -> u8 {
        self.inner.actions_left
    }
    /// Cards left in the draw pile.
    #[getter]
    fn deck_size(&self) -> u8 {
        self.inner.deck_size()
    }
    /// The tiles on the board: space name → `{"owner", "industry", "level", "flipped", "cubes"}`, in space
    /// order (a fresh snapshot, as in the state JSON).
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let g = &self.game;
        let out = PyDict::new(py);
        for (s, t) in self.inner.board[..g.spaces.len()].iter().enumerate() {
            if t.is_empty() {
                continue;
            }
            let tile = PyDict::new(py);
            tile.set_item("owner", t.owner)?;
            tile.set_item("industry", &g.industries[t.industry as usize])?;
            tile.set_item("level", t.level)?;
            tile.set_item("flipped", t.flipped)?;
            tile.set_item("cubes", t.cubes)?;
            out.set_item(&g.spaces[s].name, tile)?;
        }
        Ok(out)
    }
    /// The links on the board: line name → owner, in line order.
    #[getter]
    fn links<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let g = &self.game;
        let out = PyDict::new(py);
        for (i, &owner) in self.inner.links[..g.lines.len()].iter().enumerate() {
            if owner != brass_core::game::NONE {
                out.set_item(&g.lines[i].name, owner)?;
            }
        }
        Ok(out)
    }
    /// Brass: Birmingham's merchant tiles: merchant space (`"oxford/2"`) → `{"tile", "beer"}` for the spaces in
    /// use at this player count (B-3), as in the state JSON; empty in a game without merchants.
    #[getter]
    fn merchants<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        if let Extra::Birmingham(e) = &self.inner.extra {
            let config = self.game.birmingham();
            for (m, space) in config.spaces.iter().enumerate() {
                if e.tile[m] == brass_core::game::NONE {
                    continue;
                }
                let tile = PyDict::new(py);
                tile.set_item("tile", birmingham::TILE_KINDS[e.tile[m] as usize])?;
                tile.set_item("beer", e.beer & (1 << m) != 0)?;
                out.set_item(&space.name, tile)?;
            }
        }
        Ok(out)
    }
    /// Coal cubes in the coal market (they sit on the most expensive spaces, L-5).
    #[getter]
    fn coal_market(&self) -> u8 {
        self.inner.market(Resource::Coal)
    }
    /// Iron cubes in the iron market.
    #[getter]
    fn iron_market(&self) -> u8 {
        self.inner.market(Resource::Iron)
    }
    /// The Distant Cotton Market marker: 0 (top) … 8 (X, L-42); None in a game without it.
    #[getter]
    fn dcm_marker(&self) -> Option<u8> {
        match &self.inner.extra {
            Extra::Lancashire(e) => Some(e.dcm_marker),
            Extra::Birmingham(_) => None,
        }
    }
    /// DCM tiles left face down in the pile; None in a game without them.
    #[getter]
    fn dcm_tiles_left(&self) -> Option<usize> {
        match &self.inner.extra {
            Extra::Lancashire(e) => Some(e.dcm_pile().len()),
            Extra::Birmingham(_) => None,
        }
    }
    /// Cards under the deck tile (Canal Era; L-3, L-56); 0 in a game without a deck tile.
    #[getter]
    fn deck_tile_size(&self) -> u32 {
        brass_core::games::set_aside_cards(&self.inner)
            .iter()
            .map(|&c| c as u32)
            .sum()
    }
    /// The position as an SVG picture (`brass.svg.board`), shown by Jupyter.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        drawn_by(slf, "brass.svg")
    }
    /// True once the game is over (decision "over").
    #[getter]
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }
    /// Legal action ids, ascending, without duplicates; empty when the game is over.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let ids = guard(py, || Ok(legal(self)))?;
        id_list(py, &ids)
    }
    /// A numpy bool array of length `game.num_actions`, True at the legal ids.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let ids = guard(py, || Ok(legal(self)))?;
        let mut mask = vec![false; self.game.num_actions()];
        for id in ids {
            mask[id as usize] = true;
        }
        Ok(PyArray1::from_vec(py, mask))
    }
    /// Apply an action id or notation. Raises IllegalActionError / NotationError and leaves the state
    /// unchanged when it is not legal.
    fn apply(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = action_arg(py, &self.game, action)?;
        let mut next = self.inner;
        let game = &self.game;
        guard(py, || apply::apply(game, &mut next, id))?;
        self.inner = next;
        self.history.push(id as u16);
        Ok(())
    }
    /// A new state: this one with `action` applied (an id or a notation); this one is unchanged.
    /// Raises like `apply`.
    fn child(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<State> {
        let mut next = self.clone();
        next.apply(py, action)?;
        Ok(next)
    }
    /// Take back the last decision and return its action id (python-chess's `pop`, OpenSpiel's
    /// `undo_action`). The position before it is rebuilt from the game's start (its deal seed or saved
    /// position) and the earlier decisions, so the state is exactly as it was. Raises IllegalActionError,
    /// and changes nothing, at the start of the record.
    fn undo(&mut self, py: Python<'_>) -> PyResult<u16> {
        let Some((&last, earlier)) = self.history.split_last() else {
            return Err(to_py(
                py,
                Error::IllegalAction(
                    "nothing to undo: the state is at the start of its record".into(),
                ),
            ));
        };
        let game = &self.game;
        let (seed, start) = (self.seed, self.start.as_deref());
        let before = guard(py, || {
            let mut state = match (start, seed) {
                (Some(start), _) => *start,
                (None, Some(seed)) => apply::new_state(game, seed),
                (None, None) => {
                    return Err(Error::InvalidState(
                        "the state has no start to undo from".into(),
                    ))
                }
            };
            for &id in earlier {
                apply::apply(game, &mut state, id as i64)?;
            }
            Ok(state)
        })?;
        self.inner = before;
        self.history.pop();
        Ok(last)
    }
    /// The deal seed of the game (`game.new_state(seed)`), the one drawn from the operating system when
    /// none was given; None for a game set up from a saved position.
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }
    /// An independent copy (history included).
    fn clone(&self) -> State {
        State {
            game: self.game.clone(),
            inner: self.inner,
            history: self.history.clone(),
            seed: self.seed,
            start: self.start.clone(),
        }
    }
    fn __copy__(&self) -> State {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }
    /// Each player's VP so far (final VP once the game is over).
    #[getter]
    fn scores(&self) -> Vec<i32> {
        self.inner.players[..self.game.players as usize]
            .iter()
            .map(|p| p.vp)
            .collect()
    }
    /// The winners after tie-breaks (L-53); empty until the game is over.
    #[getter]
    fn winners(&self, py: Python<'_>) -> PyResult<Vec<u32>> {
        let winners = guard(py, || Ok(apply::winners(&self.game, &self.inner)))?;
        Ok(winners.into_iter().map(u32::from).collect())
    }
    /// Each player's zero-sum result (docs/api.md): a sole winner +1, the others −1/(n−1); k winners
    /// (n/k − 1)/(n − 1) each. All 0.0 before the game is over.
    #[getter]
    fn returns(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        let returns = guard(py, || Ok(apply::returns(&self.game, &self.inner)))?;
        Ok(returns[..self.game.players as usize].to_vec())
    }
    /// Canonical JSON (docs/state-format.md).
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(json::to_json(&self.game, &self.inner)))
    }
    /// Load a state from JSON text (str or bytes) or its parsed object (a dict), validating it; raises
    /// InvalidStateError naming the first problem.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<State> {
        let text = json_text_arg(py, text, "state JSON")?;
        let (game, inner) = guard(py, || json::from_json(&text))?;
        Ok(State {
            game: Arc::new(game),
            inner,
            history: Vec::new(),
            seed: None,
            start: Some(Arc::new(inner)),
        })
    }
    /// What `player` may know, as a float32 vector (layout: `game.observation_layout()`,
    /// docs/observation.md).
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = player_arg(py, player, self.game.players)?;
        let mut out = vec![0f32; observation::size(&self.game)];
        guard(py, || {
            observation::write(&self.game, &self.inner, p, &mut out);
            Ok(())
        })?;
        Ok(PyArray1::from_vec(py, out))
    }
    /// A state consistent with what `player` knows, with everything they cannot see (other hands, the
    /// draw pile, the deck-tile cards, the DCM pile order, the RNG) redrawn from `seed`.
    fn resample_hidden(
        &self,
        py: Python<'_>,
        player: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
    ) -> PyResult<State> {
        let p = player_arg(py, player, self.game.players)?;
        let seed = seed_arg(py, seed)?;
        let inner = guard(py, || {
            Ok(hidden::resample_hidden(&self.game, &self.inner, p, seed))
        })?;
        Ok(State::from_core(self.game.clone(), inner))
    }
    /// Check every invariant of the position (docs/state-format.md, "Validation"); raises
    /// InvalidStateError naming the first one broken.
    fn validate(&self, py: Python<'_>) -> PyResult<()> {
        guard(py, || invariants::validate(&self.game, &self.inner))
    }
    /// The action ids applied so far.
    #[getter]
    fn history(&self) -> Vec<u16> {
        self.history.clone()
    }
    /// The game record (configuration + seed or start state + decisions) as JSON; the decisions as action
    /// ids (`"actions"`), or as notation (`"moves"`) with `notation=True`. `headers`, a dict of strings
    /// like PGN's tags (players, date, event), go in the record's `"headers"`.
    #[pyo3(signature = (notation = None, headers = None))]
    fn record(
        &self,
        py: Python<'_>,
        notation: Option<&Bound<'_, PyAny>>,
        headers: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let notation = notation.map_or(Ok(false), |v| bool_arg(py, v, "notation"))?;
        let headers = headers_arg(py, headers)?;
        let moves = if notation {
            json::RecordMoves::Notation
        } else {
            json::RecordMoves::Ids
        };
        let text = guard(py, || {
            Ok(json::record_json(
                &self.game,
                self.seed,
                self.start.as_deref(),
                &self.history,
                moves,
            ))
        })?;
        match headers {
            Some(h) => guard(py, || json::with_headers(&text, &h)),
            None => Ok(text),
        }
    }
    /// A snapshot of one player's holdings.
    fn player(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<PlayerView> {
        let i = player_arg(py, index, self.game.players)?;
        let g = &self.game;
        let p = &self.inner.players[i as usize];
        Ok(PlayerView {
            money: p.money,
            money_spent: p.money_spent,
            income_level: g.income_level(p.income_space),
            income_space: p.income_space,
            vp: p.vp,
            hand: card_list(g, &p.hand),
            discards: card_list(g, &p.discards),
            mat: g
                .industries
                .iter()
                .enumerate()
                .map(|(k, n)| (n.clone(), g.stacks[k].len() - p.taken[k] as usize))
                .collect(),
            links_left: p.links_left,
        })
    }
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<State>() {
            Ok(o) => {
                let o = o.borrow();
                guard(py, || {
                    Ok(json::to_json(&self.game, &self.inner) == json::to_json(&o.game, &o.inner))
                })
            }
            Err(_) => Ok(false),
        }
    }
    /// A compact text picture of the position (`brass.text.board`), as `print(state)` shows.
    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        drawn_by(slf, "brass.text")
    }
    fn __repr__(&self) -> String {
        match self.inner.current_player(&self.game) {
            Some(p) => format!(
                "<brass.State {} {}p, {} era round {}, player {p} to decide ({})>",
                self.game.name,
                self.game.players,
                self.inner.era.name(),
                self.inner.round,
                self.inner.decision.name()
            ),
            None => format!(
                "<brass.State {} {}p, game over, scores {:?}>",
                self.game.name,
                self.game.players,
                self.scores()
            ),
        }
    }
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let f = py.import("brass._brass")?.getattr("_state_from_pickle")?;
        let (text, start) = guard(py, || {
            let start = self.start.as_deref().map(|s| json::to_json(&self.game, s));
            Ok((json::to_json(&self.game, &self.inner), start))
        })?;
        let args = PyTuple::new(
            py,
            [
                text.into_pyobject(py)?.into_any(),
                self.history.clone().into_pyobject(py)?.into_any(),
                self.seed.into_pyobject(py)?.into_any(),
                start.into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok((f, args))
    }
}

#[pyfunction]
pub(crate) fn _state_from_pickle(
    py: Python<'_>,
    text: &str,
    history: Vec<u16>,
    seed: Option<u64>,
    start: Option<String>,
) -> PyResult<State> {
    let (game, inner) = guard(py, || json::from_json(text))?;
    let start = match start {
        Some(s) => Some(Arc::new(guard(py, || json::from_json(&s))?.1)),
        None => None,
    };
    Ok(State {
        game: Arc::new(game),
        inner,
        history,
        seed,
        start,
    })
}

/// Replay a game record (JSON text, bytes or a dict), checking every action; returns the final state.
#[pyfunction]
pub(crate) fn replay(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<State> {
    let text = json_text_arg(py, text, "a game record")?;
    let (game, inner, history, seed, start) = guard(py, || {
        let rec = json::parse_record(&text)?;
        let mut state = rec.start;
        let mut history = Vec::with_capacity(rec.actions.len());
        for (i, &id) in rec.actions.iter().enumerate() {
            apply::apply(&rec.game, &mut state, id).map_err(|e| match e {
                Error::IllegalAction(m) => Error::IllegalAction(format!("record action {i}: {m}")),
                other => other,
            })?;
            history.push(id as u16);
        }
        let start = if rec.seed.is_some() {
            None
        } else {
            Some(Arc::new(rec.start))
        };
        Ok((rec.game, state, history, rec.seed, start))
    })?;
    Ok(State {
        game: Arc::new(game),
        inner,
        history,
        seed,
        start,
    })
}
