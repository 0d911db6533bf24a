//! Reading what Python hands the binding: every argument of every entry point, and what a Python evaluator
//! returns. A wrong type becomes `ArgumentTypeError` naming the argument (never a bare TypeError from argument
//! extraction), a value out of range the error the caller names (usually `ConfigError`), so the message a
//! user reads is written once. The only arguments PyO3 extracts itself are those typed in a signature: the
//! private helpers' (`_game_from_json`, `_state_from_pickle`, `_samples_of_game`'s actions, `_svg_to_png`),
//! `Net.pretrained`'s name, `Net.evaluate`'s array and `SearchGames`' `policy_target`.
use crate::errors::{
    config_error, detached, guard, passes_on, player_index_error, to_py, type_error, unread,
};
use crate::wrappers::{Agent, Game, Net, State};
use brass_core::net::{game_key, Net as CoreNet};
use brass_core::puct::GumbelConfig;
use brass_core::sample::Sampler;
use brass_core::search_games::PolicyTarget;
use brass_core::selfplay::Seating;
use brass_core::{catalog, Error, Game as CoreGame, State as CoreState};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyString};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The name of an object's type, for messages.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

// --- numbers ----------------------------------------------------------------------------------------------

/// The Python int behind an integer-like value (`__index__`), or None; an error that [`passes_on`] (a
/// KeyboardInterrupt while a Python `__index__` ran) is raised, not taken for "not an int".
fn index_object<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyString>() {
        return Ok(None);
    }
    let not_an_int = |e: PyErr| {
        if passes_on(obj.py(), &e) {
            Err(e)
        } else {
            Ok(None)
        }
    };
    if !obj.is_instance_of::<PyInt>() {
        match obj.hasattr("__index__") {
            Ok(true) => {}
            Ok(false) => return Ok(None),
            Err(e) => return not_an_int(e),
        }
    }
    match obj.call_method0("__index__") {
        Ok(index) => Ok(Some(index)),
        Err(e) => not_an_int(e),
    }
}

/// An integer argument: an int or anything with `__index__` (numpy integers), never a bool or a str.
/// Returns None for anything else. Magnitudes beyond i64 saturate to `i64::MIN` / `i64::MAX`, so they
/// fail every range check; messages print the Python value itself, never the saturated number.
fn as_index(obj: &Bound<'_, PyAny>) -> PyResult<Option<i64>> {
    let saturated = |index: &Bound<'_, PyAny>| {
        index.extract::<i64>().unwrap_or_else(|_| {
            if index.lt(0i64).unwrap_or(false) {
                i64::MIN
            } else {
                i64::MAX
            }
        })
    };
    // An exact int (never a bool, a subclass) is its own index: read it without calling `__index__`, which
    // costs more than the rest of a Python loop's `apply(id)` crossing.
    if obj.is_exact_instance_of::<PyInt>() {
        return Ok(Some(saturated(obj)));
    }
    Ok(index_object(obj)?.map(|index| saturated(&index)))
}

/// An integer argument in `lo..=hi`; out of range is an error of `kind` (usually Config).
pub(crate) fn int_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
    lo: i64,
    hi: i64,
    kind: fn(String) -> Error,
) -> PyResult<i64> {
    let v = as_index(obj)?
        .ok_or_else(|| type_error(py, format!("{what} must be an int, not {}", type_name(obj))))?;
    if v < lo || v > hi {
        return Err(to_py(
            py,
            kind(format!("{what} must be between {lo} and {hi}, not {obj}")),
        ));
    }
    Ok(v)
}

/// A finite float argument (ints accepted).
pub(crate) fn float_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(type_error(py, format!("{what} must be a number, not bool")));
    }
    let v: f64 = obj.extract().map_err(|e| {
        unread(py, e, || {
            type_error(
                py,
                format!("{what} must be a number, not {}", type_name(obj)),
            )
        })
    })?;
    if !v.is_finite() {
        return Err(config_error(py, format!("{what} must be finite, not {v}")));
    }
    Ok(v)
}

/// A finite number ≥ 0 (a search's constants).
pub(crate) fn non_negative_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<f32> {
    let v = float_arg(py, obj, what)?;
    if v < 0.0 {
        return Err(config_error(py, format!("{what} must be ≥ 0, not {v}")));
    }
    Ok(v as f32)
}

/// A share in [0, 1].
pub(crate) fn fraction_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f32> {
    let f = non_negative_arg(py, obj, what)?;
    if f > 1.0 {
        return Err(config_error(py, format!("{what} must be ≤ 1, not {f}")));
    }
    Ok(f)
}

/// A probability in (0, 1]: the share of decisions kept as training samples.
pub(crate) fn rate_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    let rate = float_arg(py, obj, what)?;
    if !(rate > 0.0 && rate <= 1.0) {
        return Err(config_error(
            py,
            format!("{what} must be in (0, 1], not {rate}"),
        ));
    }
    Ok(rate)
}

/// A bool argument.
pub(crate) fn bool_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    obj.extract::<bool>().map_err(|e| {
        unread(py, e, || {
            type_error(
                py,
                format!("{what} must be True or False, not {}", type_name(obj)),
            )
        })
    })
}

/// A seed: an int (or integer-like) with 0 ≤ seed < 2**64. ArgumentTypeError for another type,
/// ConfigError for a value out of range.
pub(crate) fn seed_arg(py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    // The index is read once: a Python `__index__` may be costly or give another value a second time.
    let Some(index) = index_object(seed)? else {
        return Err(type_error(
            py,
            format!(
                "seed must be an int with 0 <= seed < 2**64, not {}",
                type_name(seed)
            ),
        ));
    };
    index.extract::<u64>().map_err(|_| {
        config_error(
            py,
            format!("seed must be an int with 0 <= seed < 2**64, not {seed}"),
        )
    })
}

/// An optional seed, 0 when not given.
pub(crate) fn seed_or_zero(py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    seed.map_or(Ok(0), |s| seed_arg(py, s))
}

/// A number of games: below 2**32, the bound of every count of the API (`iterations`, `simulations`).
pub(crate) fn games_arg(py: Python<'_>, games: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(int_arg(py, games, "games", 0, u32::MAX as i64, Error::Config)? as u64)
}

/// The index of a run's first game (0 when not given).
pub(crate) fn first_arg(py: Python<'_>, first: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    first.map_or(Ok(0), |f| {
        Ok(int_arg(py, f, "first", 0, i64::MAX >> 1, Error::Config)? as u64)
    })
}

/// Worker threads, 0 (the default) for one per core.
pub(crate) fn threads_arg(py: Python<'_>, threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    threads.map_or(Ok(0), |t| {
        Ok(int_arg(py, t, "threads", 0, 4096, Error::Config)? as usize)
    })
}

/// Simulations per search of a network-guided search.
pub(crate) fn simulations_arg(py: Python<'_>, simulations: &Bound<'_, PyAny>) -> PyResult<u32> {
    simulations_named(py, simulations, "simulations")
}

/// A number of simulations given under another name (`fast_simulations`).
pub(crate) fn simulations_named(
    py: Python<'_>,
    simulations: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<u32> {
    Ok(int_arg(py, simulations, what, 2, 1 << 24, Error::Config)? as u32)
}

// --- games, states, players --------------------------------------------------------------------------------

/// The name of a game (`Game(name, ...)`).
pub(crate) fn game_name_arg(py: Python<'_>, name: &Bound<'_, PyAny>) -> PyResult<String> {
    let Ok(text) = name.cast::<PyString>() else {
        return Err(type_error(
            py,
            format!("the game name must be a str, not {}", type_name(name)),
        ));
    };
    Ok(unicode(py, text, Error::Config)?.to_owned())
}

/// The player count of game `name`: an int (or an integer-like value such as a numpy integer);
/// ArgumentTypeError for any other type, and for a missing count (worded like a wrong count, naming the
/// counts the game has). The game checks the value (ConfigError).
pub(crate) fn players_arg(
    py: Python<'_>,
    name: &str,
    players: Option<&Bound<'_, PyAny>>,
) -> PyResult<i64> {
    if let Some(players) = players {
        let count = as_index(players)?.ok_or_else(|| {
            type_error(
                py,
                format!("players must be an int, not {}", type_name(players)),
            )
        })?;
        // A count past i64 reaches the engine saturated: the message names the value as given.
        if let (i64::MIN | i64::MAX, Some(entry)) = (count, catalog::entry(name)) {
            let given = players.call_method0("__index__")?.str()?;
            return Err(config_error(
                py,
                format!(
                    "{name} is played by {} players, not {given}",
                    catalog::spoken_list(&entry.players)
                ),
            ));
        }
        return Ok(count);
    }
    match catalog::entry(name) {
        Some(entry) => Err(type_error(
            py,
            format!(
                "players is needed: {name} is played by {} players, e.g. brass.Game({name:?}, players={})",
                catalog::spoken_list(&entry.players),
                entry.players.last().copied().unwrap_or(2)
            ),
        )),
        None => Ok(0), // the engine reports the unknown game
    }
}

/// A game's options (`**options`): each a JSON value, as they are recorded in states and records.
pub(crate) fn options_arg(
    py: Python<'_>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<BTreeMap<String, serde_json::Value>> {
    let mut out = BTreeMap::new();
    if let Some(d) = options {
        let json_mod = py.import("json")?;
        for (k, v) in d.iter() {
            let key = unicode(py, k.cast::<PyString>()?, Error::Config)?.to_owned();
            let bad = |why: String| config_error(py, format!("option `{key}`: {why}"));
            let text: String = json_mod
                .call_method1("dumps", (&v,))
                .and_then(|t| t.extract())
                .map_err(|e| {
                    unread(py, e, || {
                        bad(format!("{} is not a JSON value", type_name(&v)))
                    })
                })?;
            let value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
            out.insert(key, value);
        }
    }
    Ok(out)
}

/// A `brass.Game` argument.
pub(crate) fn game_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<Arc<CoreGame>> {
    obj.cast::<Game>()
        .map(|g| g.get().inner.clone())
        .map_err(|_| {
            type_error(
                py,
                format!("{what} must be a brass.Game, not {}", type_name(obj)),
            )
        })
}

/// A snapshot of a `brass.State` argument (the borrow ends before any long work).
pub(crate) fn state_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<(Arc<CoreGame>, CoreState)> {
    let s = obj.cast::<State>().map_err(|_| {
        type_error(
            py,
            format!("{what} must be a brass.State, not {}", type_name(obj)),
        )
    })?;
    let s = s.try_borrow().map_err(|_| {
        to_py(
            py,
            Error::InvalidState(format!("{what} is being changed by another thread")),
        )
    })?;
    Ok((s.game.clone(), s.inner))
}

/// `brass.rollouts`' first argument: a `Game` (games dealt from their seeds) or a snapshot of a `State`
/// (games continued from it).
pub(crate) fn game_or_state_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
) -> PyResult<(Arc<CoreGame>, Option<CoreState>)> {
    if let Ok(g) = obj.cast::<Game>() {
        return Ok((g.get().inner.clone(), None));
    }
    if obj.cast::<State>().is_ok() {
        let (g, s) = state_arg(py, obj, "the state")?;
        return Ok((g, Some(s)));
    }
    Err(type_error(
        py,
        format!(
            "rollouts needs a brass.Game or a brass.State, not {}",
            type_name(obj)
        ),
    ))
}

/// The message for a player index outside the game (the same words in both engines).
fn no_such_player(index: &Bound<'_, PyAny>, players: u8) -> String {
    format!(
        "player {index} does not exist: players go from 0 to {}",
        players - 1
    )
}

/// A player index of a game of `players`: ArgumentTypeError for another type than an int,
/// PlayerIndexError for no such player.
pub(crate) fn player_arg(py: Python<'_>, index: &Bound<'_, PyAny>, players: u8) -> PyResult<u8> {
    let i = as_index(index)?.ok_or_else(|| {
        type_error(
            py,
            format!("a player index is an int, not {}", type_name(index)),
        )
    })?;
    if i < 0 || i >= i64::from(players) {
        return Err(player_index_error(py, no_such_player(index, players)));
    }
    Ok(i as u8)
}

// --- actions and text -------------------------------------------------------------------------------------

/// The UTF-8 text of a Python str; a str that has none (a lone surrogate) is bad input of the given kind.
pub(crate) fn unicode<'a>(
    py: Python<'_>,
    text: &'a Bound<'_, PyString>,
    kind: fn(String) -> Error,
) -> PyResult<&'a str> {
    text.to_str().map_err(|_| {
        to_py(
            py,
            kind("the text is not valid Unicode (it contains a lone surrogate)".into()),
        )
    })
}

/// An action id from a Python object: an integer in `0 ≤ id < num_actions`; ArgumentTypeError for
/// another type, IllegalActionError for an integer out of range, naming the value as given.
pub(crate) fn action_id_arg(
    py: Python<'_>,
    game: &CoreGame,
    action: &Bound<'_, PyAny>,
) -> PyResult<i64> {
    let id = as_index(action)?.ok_or_else(|| {
        let msg = format!(
            "an action is an int id or a notation str, not {}",
            type_name(action)
        );
        type_error(py, msg)
    })?;
    if id < 0 || id >= game.num_actions() as i64 {
        return Err(to_py(
            py,
            Error::IllegalAction(format!(
                "action id {action} is out of range: ids go from 0 to {}",
                game.num_actions() - 1
            )),
        ));
    }
    Ok(id)
}

/// An action given as an id or as notation (NotationError for text that names no action).
pub(crate) fn action_arg(
    py: Python<'_>,
    game: &CoreGame,
    action: &Bound<'_, PyAny>,
) -> PyResult<i64> {
    if let Ok(text) = action.cast::<PyString>() {
        let text = unicode(py, text, Error::Notation)?;
        return Ok(guard(py, || game.parse_action(text))?.into());
    }
    action_id_arg(py, game, action)
}

/// The text of a notation argument (ArgumentTypeError if it is not a str).
pub(crate) fn notation_arg<'a>(py: Python<'_>, text: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    let Ok(text) = text.cast::<PyString>() else {
        return Err(type_error(
            py,
            format!("notation must be a str, not {}", type_name(text)),
        ));
    };
    unicode(py, text, Error::Notation)
}

/// The action ids of `VecEnv.step`: a numpy array or sequence of integers. Floats and bools are refused
/// (a float id is a bug in the caller, never something to round).
pub(crate) fn action_ids_arg(py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if let Ok(array) = actions.cast::<PyArray1<i64>>() {
        if let Ok(ids) = array.readonly().as_slice() {
            return Ok(ids.to_vec());
        }
    }
    let refuse =
        |what: String| type_error(py, format!("actions must be integer action ids, {what}"));
    let array = py
        .import("numpy")?
        .call_method1("asarray", (actions,))
        .map_err(|e| unread(py, e, || refuse(format!("not {}", type_name(actions)))))?;
    let ndim: usize = array.getattr("ndim")?.extract()?;
    if ndim != 1 {
        let shape = array.getattr("shape")?.str()?;
        return Err(refuse(format!(
            "one per game in a 1-D sequence, not an array of shape {shape}"
        )));
    }
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    let size: usize = array.getattr("size")?.extract()?;
    if size > 0 && kind != "i" && kind != "u" {
        return Err(refuse(format!("not an array of {}", dtype.str()?)));
    }
    if size > 0 && kind == "u" {
        // Cast to int64, an id past its range would wrap round to a negative one and be named so.
        let max: u64 = array.call_method0("max")?.extract()?;
        if max > i64::MAX as u64 {
            return Err(to_py(
                py,
                Error::IllegalAction(format!("action id {max} is out of range")),
            ));
        }
    }
    array
        .call_method1("astype", ("int64",))?
        .call_method0("tolist")?
        .extract::<Vec<i64>>()
        .map_err(|e| unread(py, e, || refuse(format!("not {}", type_name(actions)))))
}

/// JSON text from a str, bytes (UTF-8) or an already parsed dict (written back with `json.dumps`);
/// ArgumentTypeError for any other type, InvalidStateError for text that is not UTF-8 / Unicode.
pub(crate) fn json_text_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<String> {
    if let Ok(text) = obj.cast::<PyString>() {
        return Ok(unicode(py, text, Error::InvalidState)?.to_string());
    }
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        return String::from_utf8(bytes.as_bytes().to_vec()).map_err(|_| {
            to_py(
                py,
                Error::InvalidState(format!("{what}: the bytes are not UTF-8")),
            )
        });
    }
    if obj.cast::<PyDict>().is_ok() {
        return py
            .import("json")?
            .call_method1("dumps", (obj,))
            .and_then(|t| t.extract())
            .map_err(|e| {
                unread(py, e, || {
                    to_py(
                        py,
                        Error::InvalidState(format!("{what}: the dict is not a JSON object")),
                    )
                })
            });
    }
    Err(type_error(
        py,
        format!(
            "{what} must be a str, bytes or dict, not {}",
            type_name(obj)
        ),
    ))
}

/// Record headers: None, or a dict of str -> str (ArgumentTypeError naming the first entry that is not).
pub(crate) fn headers_arg(
    py: Python<'_>,
    headers: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<serde_json::Map<String, serde_json::Value>>> {
    let Some(headers) = headers.filter(|h| !h.is_none()) else {
        return Ok(None);
    };
    let dict = headers.cast::<PyDict>().map_err(|_| {
        type_error(
            py,
            format!("headers must be a dict of str, not {}", type_name(headers)),
        )
    })?;
    let mut out = serde_json::Map::new();
    for (k, v) in dict.iter() {
        let (Ok(key), Ok(value)) = (k.cast::<PyString>(), v.cast::<PyString>()) else {
            return Err(type_error(
                py,
                format!(
                    "headers must be a dict of str: {} -> {}",
                    k.repr()?,
                    type_name(&v)
                ),
            ));
        };
        // A str with a lone surrogate has no UTF-8: the header is named, not called "not a str".
        let text = |t: &Bound<'_, PyString>| -> PyResult<String> {
            t.to_str().map(str::to_owned).map_err(|_| {
                config_error(
                    py,
                    format!(
                        "header {}: the text is not valid Unicode (it contains a lone surrogate)",
                        k.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                    ),
                )
            })
        };
        out.insert(text(key)?, serde_json::Value::String(text(value)?));
    }
    Ok(Some(out))
}

// --- agents, networks, evaluators --------------------------------------------------------------------------

/// A `sampler` argument: `None` (the default, `"list"`), `"list"` or `"draw"` (`brass_core::sample::Sampler`).
pub(crate) fn sampler_arg(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Sampler> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Sampler::List);
    };
    let Ok(text) = obj.cast::<PyString>() else {
        return Err(type_error(
            py,
            format!("sampler must be 'list' or 'draw', not {}", type_name(obj)),
        ));
    };
    let name = unicode(py, text, Error::Config)?;
    Sampler::from_name(name).ok_or_else(|| {
        config_error(
            py,
            format!(
                "sampler is 'list' (the legal actions listed, one picked) or 'draw' (candidates drawn \
                 until one is legal), not {name:?}"
            ),
        )
    })
}

/// `agents` as native agents, or an ArgumentTypeError that names the first entry that is not one (a Python
/// function is played by `agents.play_game`, which calls it).
pub(crate) fn native_agents_arg<'py>(
    py: Python<'py>,
    agents: &Bound<'py, PyAny>,
) -> PyResult<Vec<PyRef<'py, Agent>>> {
    let Ok(items) = agents.extract::<Vec<Bound<'py, PyAny>>>() else {
        return Err(type_error(
            py,
            format!(
                "agents must be a list of native agents (brass.agents.Random(), Greedy(), MCTS(...), Net(...), \
                 NetMCTS(...)), not {}",
                type_name(agents)
            ),
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.extract::<PyRef<'py, Agent>>().map_err(|_| {
                type_error(
                    py,
                    format!(
                        "agents[{i}] is a {}, not a native agent: these games run on native threads; \
                         play a Python policy with brass.agents.play_game",
                        type_name(item)
                    ),
                )
            })
        })
        .collect()
}

/// A network and the game it plays, with the bytes of its file.
pub(crate) type Network = (Arc<CoreNet>, Arc<CoreGame>, Arc<[u8]>);

/// A network file: a path (str or os.PathLike) or the bytes of a file, read and parsed (GIL released).
pub(crate) fn network_arg(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Network> {
    let bytes: Arc<[u8]> = if let Ok(b) = source.cast::<PyBytes>() {
        b.as_bytes().into()
    } else {
        // A PathBuf, not a String: a file name that is not UTF-8 (a str with surrogate escapes) is read too.
        let path: std::path::PathBuf = source.extract().map_err(|e| {
            unread(py, e, || {
                type_error(
                    py,
                    format!(
                        "a network is a path or the bytes of a file, not {}",
                        type_name(source)
                    ),
                )
            })
        })?;
        std::fs::read(&path)
            .map_err(|e| {
                config_error(
                    py,
                    format!("cannot read the network {}: {e}", path.display()),
                )
            })?
            .into()
    };
    let (net, game) = detached(py, || CoreNet::from_bytes(&bytes))?;
    Ok((Arc::new(net), Arc::new(game), bytes))
}

/// A loaded `agents.Net`, or a network file as for [`network_arg`].
pub(crate) fn net_or_network_arg(py: Python<'_>, network: &Bound<'_, PyAny>) -> PyResult<Network> {
    match network.cast::<Net>() {
        Ok(n) => {
            let n = n.get();
            Ok((n.net.clone(), n.game.clone(), n.file.clone()))
        }
        Err(_) => network_arg(py, network),
    }
}

/// `Net.evaluate`'s observations, `(rows, columns)` float32 (PyO3 checks the type): their values and rows.
pub(crate) fn observations_arg(
    py: Python<'_>,
    observations: &PyReadonlyArray2<'_, f32>,
    columns: usize,
) -> PyResult<(Vec<f32>, usize)> {
    let shape = observations.shape();
    if shape[1] != columns {
        return Err(config_error(
            py,
            format!(
                "observations have {} columns; the network takes {columns}",
                shape[1]
            ),
        ));
    }
    Ok((observations.as_array().iter().copied().collect(), shape[0]))
}

/// What evaluates a search's leaves.
pub(crate) enum EvaluatorArg<'a, 'py> {
    /// An `agents.Net` trained for the game: evaluated natively, the GIL released.
    Native(Arc<CoreNet>),
    /// A Python callable, called with each batch of leaves.
    Python(&'a Bound<'py, PyAny>),
}

/// An `evaluator` argument for a search of `game`: an `agents.Net` trained for it, or a callable.
pub(crate) fn evaluator_arg<'a, 'py>(
    py: Python<'py>,
    evaluator: &'a Bound<'py, PyAny>,
    game: &CoreGame,
) -> PyResult<EvaluatorArg<'a, 'py>> {
    match evaluator.cast::<Net>() {
        Ok(n) => {
            let n = n.get();
            if game_key(&n.game) != game_key(game) {
                return Err(config_error(
                    py,
                    format!(
                        "the network was trained for {}, not for {}",
                        game_key(&n.game),
                        game_key(game)
                    ),
                ));
            }
            Ok(EvaluatorArg::Native(n.net.clone()))
        }
        Err(_) if evaluator.is_callable() => Ok(EvaluatorArg::Python(evaluator)),
        Err(_) => Err(type_error(
            py,
            format!(
                "evaluator must be a brass.agents.Net or a callable, not {}",
                type_name(evaluator)
            ),
        )),
    }
}

/// What a Python evaluator returned for `rows` leaves: `(logits [rows, actions], values [rows, players])`,
/// any array-likes numpy can make float32 of.
pub(crate) fn evaluator_output(
    py: Python<'_>,
    out: &Bound<'_, PyAny>,
    rows: usize,
    actions: usize,
    players: usize,
) -> PyResult<(Vec<f32>, Vec<f32>)> {
    let (l, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = out.extract().map_err(|e| {
        unread(py, e, || {
            type_error(
                py,
                "the evaluator must return (logits, values) arrays".to_string(),
            )
        })
    })?;
    let numpy = py.import("numpy")?;
    let as_f32 = |x: &Bound<'_, PyAny>, shape: [usize; 2], what: &str| -> PyResult<Vec<f32>> {
        let a = numpy.call_method1("ascontiguousarray", (x, "float32"))?;
        let a: PyReadonlyArray2<'_, f32> = a.extract().map_err(|_| {
            config_error(
                py,
                format!("the evaluator's {what} are not a 2-dimensional array"),
            )
        })?;
        if a.shape() != shape {
            return Err(config_error(
                py,
                format!(
                    "the evaluator's {what} have shape {:?}, not {shape:?}",
                    a.shape()
                ),
            ));
        }
        Ok(a.as_slice()?.to_vec())
    };
    Ok((
        as_f32(&l, [rows, actions], "logits")?,
        as_f32(&v, [rows, players], "values")?,
    ))
}

/// A setting named by a str (`search`, `policy_target`): None when not given; ArgumentTypeError for another
/// type, ConfigError for a str with no UTF-8.
fn word_arg(
    py: Python<'_>,
    obj: Option<&Bound<'_, PyAny>>,
    what: &str,
) -> PyResult<Option<String>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let Ok(text) = obj.cast::<PyString>() else {
        return Err(type_error(
            py,
            format!("{what} must be a str, not {}", type_name(obj)),
        ));
    };
    Ok(Some(unicode(py, text, Error::Config)?.to_owned()))
}

/// `SearchGames`' `policy_target`: `"visits"` (the default) or `"completed_q"`.
pub(crate) fn policy_target_arg(
    py: Python<'_>,
    target: Option<&Bound<'_, PyAny>>,
) -> PyResult<PolicyTarget> {
    match word_arg(py, target, "policy_target")?.as_deref() {
        None | Some("visits") => Ok(PolicyTarget::Visits),
        Some("completed_q") => Ok(PolicyTarget::CompletedQ),
        Some(other) => Err(config_error(
            py,
            format!("policy_target is \"visits\" or \"completed_q\", not {other:?}"),
        )),
    }
}

/// The Gumbel settings given with a search rule: root actions Sequential Halving starts from, the scale of the
/// root's Gumbel draws, whether completed Q-values are rescaled per node, and σ's `c_visit` and `c_scale`.
pub(crate) struct GumbelArgs<'a, 'py> {
    pub considered: Option<&'a Bound<'py, PyAny>>,
    pub scale: Option<&'a Bound<'py, PyAny>>,
    pub rescale: Option<bool>,
    pub c_visit: Option<&'a Bound<'py, PyAny>>,
    pub c_scale: Option<&'a Bound<'py, PyAny>>,
}

/// The search rule of `SearchGames`, `NetMCTS` and `analyse`: `search` is `"puct"` or `"gumbel"` (None:
/// `defaults` decides, and gives the rescaling when not given); the Gumbel settings only with Gumbel. None for
/// PUCT.
pub(crate) fn search_rule_arg(
    py: Python<'_>,
    search: Option<&Bound<'_, PyAny>>,
    given: GumbelArgs<'_, '_>,
    defaults: Option<GumbelConfig>,
) -> PyResult<Option<GumbelConfig>> {
    let (considered, gumbel_scale) = (given.considered, given.scale);
    let default_gumbel = defaults.is_some();
    let gumbel = match word_arg(py, search, "search")?.as_deref() {
        None => default_gumbel,
        Some("puct") => false,
        Some("gumbel") => true,
        Some(other) => {
            return Err(config_error(
                py,
                format!("search is \"puct\" or \"gumbel\", not {other:?}"),
            ))
        }
    };
    if !gumbel {
        if considered.is_some()
            || gumbel_scale.is_some()
            || given.rescale.is_some()
            || given.c_visit.is_some()
            || given.c_scale.is_some()
        {
            return Err(config_error(
                py,
                "considered, gumbel_scale, rescale, c_visit and c_scale are settings of search=\"gumbel\""
                    .to_string(),
            ));
        }
        return Ok(None);
    }
    let mut g = defaults.unwrap_or_default();
    if let Some(r) = given.rescale {
        g.rescale = r;
    }
    if let Some(x) = considered {
        g.considered = int_arg(py, x, "considered", 1, 1 << 16, Error::Config)? as u32;
    }
    if let Some(x) = gumbel_scale {
        g.scale = non_negative_arg(py, x, "gumbel_scale")?;
    }
    if let Some(x) = given.c_visit {
        g.c_visit = non_negative_arg(py, x, "c_visit")?;
    }
    if let Some(x) = given.c_scale {
        g.c_scale = non_negative_arg(py, x, "c_scale")?;
    }
    Ok(Some(g))
}

/// The Gumbel search a network's file names as the one it was trained with (metadata `search`, and
/// `gumbel_rescale`, `gumbel_c_visit`, `gumbel_c_scale` when given), which its `NetMCTS` then uses unless told
/// otherwise; None for PUCT.
pub(crate) fn trained_search(net: &CoreNet) -> Option<GumbelConfig> {
    let meta = |key: &str| {
        net.metadata
            .get(key)
            .map(|s| s.trim_matches('"').to_string())
    };
    let default = GumbelConfig::default();
    // A value the file gives that is not a finite non-negative number keeps the default (files written before
    // these settings had none).
    let number = |key: &str, otherwise: f32| {
        meta(key)
            .and_then(|s| s.parse::<f32>().ok())
            .filter(|x| x.is_finite() && *x >= 0.0)
            .unwrap_or(otherwise)
    };
    (meta("search").as_deref() == Some("gumbel")).then(|| GumbelConfig {
        rescale: meta("gumbel_rescale").as_deref() != Some("false"),
        c_visit: number("gumbel_c_visit", default.c_visit),
        c_scale: number("gumbel_c_scale", default.c_scale),
        ..default
    })
}

// --- runs of games -----------------------------------------------------------------------------------------

/// One seating as Python gives it: (deal seed, agents seed, [agent index per player]).
type SeatingArg<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>, Vec<Bound<'py, PyAny>>);

/// `seatings`: `[(deal, agents_seed, [agent index per player]), ...]` for a game of `players` between
/// `agents` agents.
pub(crate) fn seatings_arg(
    py: Python<'_>,
    list: &Bound<'_, PyAny>,
    players: usize,
    agents: usize,
) -> PyResult<Vec<Seating>> {
    let items: Vec<SeatingArg<'_>> = list.extract().map_err(|e| {
        unread(py, e, || {
            type_error(
                py,
                "seatings must be a list of (deal seed, agents seed, [agent index per player])"
                    .into(),
            )
        })
    })?;
    let mut out = Vec::with_capacity(items.len());
    for (deal, agents_seed, seats) in items {
        if seats.len() != players {
            return Err(config_error(
                py,
                format!(
                    "a seating lists {} agents for a {players}-player game",
                    seats.len()
                ),
            ));
        }
        let seats = seats
            .iter()
            .map(|a| int_arg(py, a, "an agent index", 0, agents as i64 - 1, Error::Config))
            .map(|r| r.map(|a| a as usize))
            .collect::<PyResult<Vec<usize>>>()?;
        out.push(Seating {
            deal: seed_arg(py, &deal)?,
            agents_seed: seed_arg(py, &agents_seed)?,
            seats,
        });
    }
    Ok(out)
}

/// A picture's width in pixels, 16 to 8192 (None: the picture's own).
pub(crate) fn width_arg(py: Python<'_>, width: Option<u32>) -> PyResult<Option<u32>> {
    match width {
        Some(w) if !(16..=8192).contains(&w) => Err(config_error(
            py,
            format!("width must be between 16 and 8192 pixels, not {w}"),
        )),
        other => Ok(other),
    }
}
