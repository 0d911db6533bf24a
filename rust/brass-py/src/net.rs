//! Trained networks as agents (docs/learning.md): `brass.agents.Net`'s methods (its data is
//! `wrappers::Net`), playing its raw policy, and `brass.agents.NetMCTS`, the search it guides; the networks
//! shipped with the package (`PRETRAINED`).
use crate::args::{
    bool_arg, float_arg, net_or_network_arg, network_arg, non_negative_arg, observations_arg,
    search_rule_arg, simulations_arg, trained_search, type_name, GumbelArgs,
};
use crate::errors::{config_error, detached, type_error, unread};
use crate::wrappers::{Agent, Game, Net};
use brass_core::net::{game_key, Scratch};
use brass_core::net_agents::{NetAgent, NetMctsAgent};
use brass_core::puct::{GumbelConfig, PuctConfig};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyType};
use std::path::PathBuf;
use std::sync::Arc;

/// The networks shipped with the package (docs/learning.md, "Shipped networks"): name → file in
/// `brass/nets`. Python reads the table as `brass._brass.agents.PRETRAINED`.
const PRETRAINED: [(&str, &str); 8] = [
    ("birmingham-2p", "birmingham-2p.safetensors"),
    ("birmingham-3p", "birmingham-3p.safetensors"),
    ("birmingham-4p", "birmingham-4p.safetensors"),
    ("brass-3p", "brass-3p.safetensors"),
    ("brass-4p", "brass-4p.safetensors"),
    ("lancashire-2p", "lancashire-2p.safetensors"),
    ("lancashire-3p", "lancashire-3p.safetensors"),
    ("lancashire-4p", "lancashire-4p.safetensors"),
];

/// `PRETRAINED` as a Python dict.
pub(crate) fn pretrained_dict(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for (name, file) in PRETRAINED {
        d.set_item(name, file)?;
    }
    Ok(d)
}

/// The file of a shipped network: `nets/` beside the extension, in the installed package.
fn pretrained_path(py: Python<'_>, name: &str) -> PyResult<PathBuf> {
    let Some((_, file)) = PRETRAINED.iter().find(|(n, _)| *n == name) else {
        let mut names: Vec<&str> = PRETRAINED.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        return Err(config_error(
            py,
            format!(
                "no shipped network `{name}`: the shipped ones are {}",
                names.join(", ")
            ),
        ));
    };
    // The extension itself says where the package is (importing `brass` for it would run up the layers).
    let extension: PathBuf = py.import("brass._brass")?.getattr("__file__")?.extract()?;
    let path = extension.with_file_name("nets").join(file);
    if !path.is_file() {
        return Err(config_error(
            py,
            format!(
                "the shipped network `{name}` is missing from this installation ({})",
                path.display()
            ),
        ));
    }
    Ok(path)
}

/// Logits and values of a batch of observations.
type Outputs<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<f32>>);

#[pymethods]
impl Net {
    #[new]
    fn new(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Net>> {
        let (net, game, file) = network_arg(py, source)?;
        Ok(PyClassInitializer::from(Agent {
            inner: Arc::new(NetAgent {
                net: net.clone(),
                game: game.clone(),
            }),
            game: Some(game.clone()),
        })
        .add_subclass(Net { net, game, file }))
    }

    /// Pickled as the bytes of its file (a process given it reads them as `Net(bytes)`).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (Bound<'py, PyBytes>,)) {
        let bytes = PyBytes::new(slf.py(), &slf.get().file);
        (slf.get_type(), (bytes,))
    }

    /// A network shipped with the package (`docs/learning.md`, "Shipped networks").
    #[classmethod]
    fn pretrained(cls: &Bound<'_, PyType>, name: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = cls.py();
        let Ok(text) = name.cast::<PyString>() else {
            return Err(type_error(
                py,
                format!(
                    "a shipped network's name is a str such as 'birmingham-2p', not {}",
                    type_name(name)
                ),
            ));
        };
        let name = crate::args::unicode(py, text, brass_core::Error::Config)?.to_owned();
        let path = pretrained_path(py, &name)?;
        Ok(cls.call1((path,))?.unbind())
    }

    /// The game the network was trained for.
    #[getter]
    fn game(&self, py: Python<'_>) -> PyResult<Py<Game>> {
        Py::new(
            py,
            Game {
                inner: self.game.clone(),
            },
        )
    }

    /// The widths of its hidden layers.
    #[getter]
    fn widths(&self) -> Vec<usize> {
        self.net.widths()
    }

    /// The metadata of its file.
    #[getter]
    fn metadata(&self) -> std::collections::HashMap<String, String> {
        self.net.metadata.clone()
    }

    /// Logits `(rows, num_actions)` and values `(rows, players)` (each relative to its observer) for
    /// observations `(rows, observation_size)`: float32, or any array of numbers numpy converts to it.
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        observations: &Bound<'py, PyAny>,
    ) -> PyResult<Outputs<'py>> {
        // A float64 array (numpy's default) is read as the float32 the network computes in, as numpy converts it.
        let refuse = |what: String| type_error(py, format!("observations must be {what}"));
        let array = py
            .import("numpy")?
            .call_method1("ascontiguousarray", (observations, "float32"))
            .map_err(|e| {
                unread(py, e, || {
                    refuse(format!(
                        "an array of numbers, not {}",
                        type_name(observations)
                    ))
                })
            })?;
        let observations: PyReadonlyArray2<'py, f32> = array
            .cast_into::<PyArray2<f32>>()
            .map_err(|e| {
                let ndim = e
                    .into_inner()
                    .getattr("ndim")
                    .map_or(0, |n| n.extract().unwrap_or(0));
                refuse(format!(
                    "a 2-D array (rows, observation size), not {ndim}-D"
                ))
            })?
            .readonly();
        let (obs, rows) = observations_arg(py, &observations, self.net.inputs())?;
        let net = self.net.clone();
        let (logits, values) = detached(py, move || {
            let (mut l, mut v) = (Vec::new(), Vec::new());
            net.evaluate(&obs, rows, &mut Scratch::default(), &mut l, &mut v);
            Ok((l, v))
        })?;
        Ok((
            PyArray1::from_vec(py, logits).reshape([rows, self.net.actions()])?,
            PyArray1::from_vec(py, values).reshape([rows, self.net.players()])?,
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "<brass.agents.Net for {}, hidden layers {:?}>",
            game_key(&self.game),
            self.net.widths()
        )
    }
}

/// The search a trained network guides (`NetMCTS(path_or_net, simulations=64, c_puct=1.5, fpu_reduction=0.0,
/// search=None, considered=16, rescale=None, c_visit=None, c_scale=None)`): `search="puct"` plays the most
/// visited action, `"gumbel"` the Sequential Halving winner (no noise either way); None: the search the network
/// was trained with (its file's metadata `search`, and the Gumbel settings it names), else PUCT.
#[pyclass(module = "brass.agents", extends = Agent, frozen, name = "NetMCTS")]
pub(crate) struct NetMcts {
    /// The bytes of its network's file and its settings, for pickling.
    file: Arc<[u8]>,
    config: PuctConfig,
}

/// `NetMCTS`'s constructor arguments: the network (its file's bytes), simulations, c_puct, fpu_reduction,
/// search, and Gumbel's considered, rescale, c_visit, c_scale (None under PUCT).
type NetMctsArgs<'py> = (
    Bound<'py, PyBytes>,
    u32,
    f32,
    f32,
    &'static str,
    Option<u32>,
    Option<bool>,
    Option<f32>,
    Option<f32>,
);

#[pymethods]
impl NetMcts {
    #[new]
    #[pyo3(signature = (network, simulations = None, c_puct = None, fpu_reduction = None, search = None,
                        considered = None, rescale = None, c_visit = None, c_scale = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        network: &Bound<'_, PyAny>,
        simulations: Option<&Bound<'_, PyAny>>,
        c_puct: Option<&Bound<'_, PyAny>>,
        fpu_reduction: Option<&Bound<'_, PyAny>>,
        search: Option<&Bound<'_, PyAny>>,
        considered: Option<&Bound<'_, PyAny>>,
        rescale: Option<&Bound<'_, PyAny>>,
        c_visit: Option<&Bound<'_, PyAny>>,
        c_scale: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<NetMcts>> {
        let (net, game, file) = net_or_network_arg(py, network)?;
        let mut config = PuctConfig {
            // The agent plays its best move: no Gumbel noise at the root.
            gumbel: search_rule_arg(
                py,
                search,
                GumbelArgs {
                    considered,
                    scale: None,
                    rescale: rescale.map(|r| bool_arg(py, r, "rescale")).transpose()?,
                    c_visit,
                    c_scale,
                },
                trained_search(&net),
            )?
            .map(|g| GumbelConfig { scale: 0.0, ..g }),
            ..PuctConfig::default()
        };
        if let Some(s) = simulations {
            config.simulations = simulations_arg(py, s)?;
        }
        if let Some(c) = c_puct {
            config.c_puct = non_negative_arg(py, c, "c_puct")?;
        }
        if let Some(x) = fpu_reduction {
            config.fpu_reduction = float_arg(py, x, "fpu_reduction")? as f32;
        }
        Ok(PyClassInitializer::from(Agent {
            inner: Arc::new(NetMctsAgent {
                net,
                game: game.clone(),
                config: config.clone(),
            }),
            game: Some(game),
        })
        .add_subclass(NetMcts { file, config }))
    }

    /// Pickled as its network file's bytes and its settings, which make the same agent again.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, NetMctsArgs<'py>) {
        let NetMcts { file, config: c } = slf.get();
        let g = c.gumbel.as_ref();
        let args = (
            PyBytes::new(slf.py(), file),
            c.simulations,
            c.c_puct,
            c.fpu_reduction,
            if g.is_some() { "gumbel" } else { "puct" },
            g.map(|g| g.considered),
            g.map(|g| g.rescale),
            g.map(|g| g.c_visit),
            g.map(|g| g.c_scale),
        );
        (slf.get_type(), args)
    }
}
