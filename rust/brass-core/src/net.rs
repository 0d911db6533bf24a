//! A small policy-value network evaluated natively (docs/learning.md, "The network"): a multilayer
//! perceptron over the observation vector, read from a safetensors file, so a trained agent plays with no
//! machine-learning framework installed.
//!
//! The file (format `brass-net/1`) holds, all float32 and row-major, `x @ weight + bias` per layer:
//! `trunk.{i}.weight` `[inputs, width_i]` and `trunk.{i}.bias` `[width_i]` for i = 0, 1, … (ReLU after each),
//! then `policy.weight` `[width, num_actions]`, `policy.bias` (the logits) and `value.weight` `[width,
//! players]`, `value.bias` (tanh: one value per seat, relative to the observer: index 0 is the player whose
//! observation it is, then the next seats in turn). Its metadata names the game it was trained for.
use crate::error::{Error, Result};
use crate::game::Game;
use crate::observation;
use safetensors::{Dtype, SafeTensors};
use std::collections::HashMap;

/// The format name in the metadata of a network file.
pub const NET_FORMAT: &str = "brass-net/1";

/// One dense layer: `inputs × outputs` weights (row-major) and `outputs` biases.
#[derive(Clone, Debug, PartialEq)]
struct Dense {
    inputs: usize,
    outputs: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

/// How a layer's product is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Product {
    /// Row by row, skipping zero inputs: for the sparse observation, and for a row or two.
    RowByRow,
    /// The general matrix product: for batches.
    General,
}

impl Dense {
    /// `out[b] = x[b] @ weight + bias` for the `rows` rows of `x`, computed as `product` says.
    fn forward(&self, x: &[f32], rows: usize, product: Product, out: &mut Vec<f32>) {
        out.clear();
        // Only a capacity hint: its size changes allocations, not values (an equivalent mutant).
        out.reserve(rows * self.outputs);
        for _ in 0..rows {
            out.extend_from_slice(&self.bias);
        }
        if product == Product::RowByRow {
            // A row or two (a search's single leaf): stream the weights once, row by row. A general product
            // would first copy (pack) the whole weight matrix, which costs more than the product itself.
            // A sparse input skips the weight rows of its zeros, most of them.
            row_by_row(&self.weight, self.inputs, self.outputs, x, out);
        } else {
            matmul_add(x, rows, self.inputs, &self.weight, self.outputs, out);
        }
    }
}

/// `out[r] += x[r] @ weight` row by row, skipping the zeros of `x`: with AVX2 where the processor has it
/// (the same additions in the same order, eight lanes at a time, so the same results), else portably.
fn row_by_row(weight: &[f32], inputs: usize, outputs: usize, x: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2 (checked just above), the only feature the function is compiled for.
        unsafe { row_by_row_avx2(weight, inputs, outputs, x, out) };
        return;
    }
    row_by_row_portable(weight, inputs, outputs, x, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn row_by_row_avx2(
    weight: &[f32],
    inputs: usize,
    outputs: usize,
    x: &[f32],
    out: &mut [f32],
) {
    row_by_row_portable(weight, inputs, outputs, x, out);
}

#[inline(always)]
fn row_by_row_portable(weight: &[f32], inputs: usize, outputs: usize, x: &[f32], out: &mut [f32]) {
    for (row, xs) in out.chunks_exact_mut(outputs).zip(x.chunks_exact(inputs)) {
        for (i, &xi) in xs.iter().enumerate() {
            if xi != 0.0 {
                let w = &weight[i * outputs..(i + 1) * outputs];
                for (o, &wij) in row.iter_mut().zip(w) {
                    *o += xi * wij;
                }
            }
        }
    }
}

/// Up to this many rows (outside a search's batches), a dense layer is evaluated row by row rather than by a
/// general matrix product.
const FEW_ROWS: usize = 4;

/// From this many rows on, a batch is split between threads.
const SPLIT_ROWS: usize = 32;

/// `c += a @ b` with `a` `m × k`, `b` `k × n`, `c` `m × n`, all row-major.
fn matmul_add(a: &[f32], m: usize, k: usize, b: &[f32], n: usize, c: &mut [f32]) {
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
    // SAFETY: the slices hold the m × k, k × n and m × n row-major matrices the strides describe (asserted
    // above), and `c` does not alias `a` or `b` (it is borrowed mutably). The general matrix product of
    // `matrixmultiply` is an order of magnitude faster than a plain loop for the batches a search evaluates
    // (docs/learning.md, "Speed"), and its API takes raw pointers.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            k as isize,
            1,
            b.as_ptr(),
            n as isize,
            1,
            1.0,
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

/// A policy-value network for one game configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    trunk: Vec<Dense>,
    policy: Dense,
    value: Dense,
    /// The metadata of the file (format, game, sizes, …).
    pub metadata: HashMap<String, String>,
}

/// Scratch buffers for one evaluation at a time (reused: no allocation per leaf once warm).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
}

/// The float32 values of tensor `name` of a network file, checked: there, float32, of `shape`, finite.
fn tensor_values(tensors: &SafeTensors<'_>, name: &str, shape: &[usize]) -> Result<Vec<f32>> {
    let bad = |why: String| Error::Config(format!("not a usable network file: {why}"));
    let view = tensors
        .tensor(name)
        .map_err(|_| bad(format!("it has no tensor `{name}`")))?;
    if view.dtype() != Dtype::F32 {
        return Err(bad(format!("`{name}` is {:?}, not float32", view.dtype())));
    }
    if view.shape() != shape {
        return Err(bad(format!(
            "`{name}` has shape {:?}, not {shape:?}",
            view.shape()
        )));
    }
    let values: Vec<f32> = view
        .data()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    // A NaN or infinite weight gives NaN values and logits for every position: refused here, where the file
    // is named, not at the first search that meets it.
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(bad(format!("`{name}` holds {} at index {i}", values[i])));
    }
    Ok(values)
}

impl Net {
    /// Read a network file's bytes: a `brass-net/1` network, whose metadata names its game (`game`:
    /// `{"name", "players", "options"}` as JSON); its shapes are checked against that game. Returns the
    /// network and the game.
    pub fn from_bytes(bytes: &[u8]) -> Result<(Net, Game)> {
        let bad = |why: String| Error::Config(format!("not a usable network file: {why}"));
        let (_, meta) = SafeTensors::read_metadata(bytes).map_err(|e| bad(e.to_string()))?;
        let tensors = SafeTensors::deserialize(bytes).map_err(|e| bad(e.to_string()))?;
        let metadata: HashMap<String, String> = meta
            .metadata()
            .clone()
            .map(|m| m.into_iter().collect())
            .unwrap_or_default();
        match metadata.get("format").map(String::as_str) {
            Some(NET_FORMAT) => {}
            other => {
                return Err(bad(format!(
                    "its metadata format is {other:?}, not \"{NET_FORMAT}\""
                )))
            }
        }
        let about: serde_json::Value = metadata
            .get("game")
            .and_then(|g| serde_json::from_str(g).ok())
            .ok_or_else(|| bad("its metadata does not name its game as JSON".into()))?;
        let options = about
            .get("options")
            .and_then(|o| o.as_object())
            .map(|o| o.clone().into_iter().collect())
            .unwrap_or_default();
        let game = Game::new(
            about
                .get("name")
                .and_then(|n| n.as_str())
                .unwrap_or_default(),
            about
                .get("players")
                .and_then(|p| p.as_i64())
                .unwrap_or_default(),
            &options,
        )
        .map_err(|e| bad(format!("its game: {e}")))?;
        let load = |name: &str, shape: &[usize]| tensor_values(&tensors, name, shape);
        let dense = |prefix: &str, inputs: usize| -> Result<Dense> {
            let weight = tensors
                .tensor(&format!("{prefix}.weight"))
                .map_err(|_| bad(format!("it has no tensor `{prefix}.weight`")))?;
            let shape = weight.shape().to_vec();
            if shape.len() != 2 || shape[0] != inputs {
                return Err(bad(format!(
                    "`{prefix}.weight` has shape {shape:?}: it should take {inputs} inputs"
                )));
            }
            let outputs = shape[1];
            Ok(Dense {
                inputs,
                outputs,
                weight: load(&format!("{prefix}.weight"), &[inputs, outputs])?,
                bias: load(&format!("{prefix}.bias"), &[outputs])?,
            })
        };
        let mut trunk = Vec::new();
        let mut width = observation::size(&game);
        while tensors
            .tensor(&format!("trunk.{}.weight", trunk.len()))
            .is_ok()
        {
            let layer = dense(&format!("trunk.{}", trunk.len()), width)?;
            if layer.outputs == 0 {
                // A layer of no units passes nothing on: every evaluation would fail, so the file is refused here.
                return Err(bad(format!(
                    "`trunk.{}.weight` has no outputs (a hidden layer of width 0)",
                    trunk.len()
                )));
            }
            width = layer.outputs;
            trunk.push(layer);
        }
        let policy = dense("policy", width)?;
        if policy.outputs != game.num_actions() {
            return Err(bad(format!(
                "its policy has {} outputs, not the game's {} actions",
                policy.outputs,
                game.num_actions()
            )));
        }
        let value = dense("value", width)?;
        if value.outputs != game.players as usize {
            return Err(bad(format!(
                "its value has {} outputs, not one per player ({})",
                value.outputs, game.players
            )));
        }
        let expected_tensors = 2 * trunk.len() + 4;
        if tensors.len() != expected_tensors {
            return Err(bad(format!(
                "it has {} tensors, not the {expected_tensors} of a {}-layer trunk and two heads",
                tensors.len(),
                trunk.len()
            )));
        }
        Ok((
            Net {
                trunk,
                policy,
                value,
                metadata,
            },
            game,
        ))
    }

    /// An error unless the network was trained for `game` (its name, players and options).
    pub fn check_game(&self, trained_for: &Game, game: &Game) -> Result<()> {
        if game_key(trained_for) == game_key(game) && trained_for.data_id == game.data_id {
            Ok(())
        } else {
            Err(Error::Config(format!(
                "the network was trained for {}, not for {}",
                game_key(trained_for),
                game_key(game)
            )))
        }
    }

    /// The observation length the network takes.
    pub fn inputs(&self) -> usize {
        self.trunk.first().map_or(self.policy.inputs, |l| l.inputs)
    }

    /// The number of action logits it gives.
    pub fn actions(&self) -> usize {
        self.policy.outputs
    }

    /// The number of values it gives (one per player).
    pub fn players(&self) -> usize {
        self.value.outputs
    }

    /// The widths of its hidden layers.
    pub fn widths(&self) -> Vec<usize> {
        self.trunk.iter().map(|l| l.outputs).collect()
    }

    /// Evaluate `rows` observations (`rows × inputs`): the logits (`rows × actions`) and the values
    /// (`rows × players`, in [−1, 1], relative to each observer). A large batch is split between threads.
    pub fn evaluate(
        &self,
        observations: &[f32],
        rows: usize,
        scratch: &mut Scratch,
        logits: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) {
        self.evaluate_as(observations, rows, scratch, logits, values, false);
    }

    /// [`evaluate`](Net::evaluate) for a batch of a search's leaves: every row computed the same way however
    /// many rows the batch has (the general product for every layer but the first, even for a row or two), so
    /// a game of `SearchGames` does not depend on which other games share its batches — nor on how a run is
    /// split over processes or machines of the same kind.
    pub fn evaluate_batch(
        &self,
        observations: &[f32],
        rows: usize,
        scratch: &mut Scratch,
        logits: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) {
        self.evaluate_as(observations, rows, scratch, logits, values, true);
    }

    fn evaluate_as(
        &self,
        observations: &[f32],
        rows: usize,
        scratch: &mut Scratch,
        logits: &mut Vec<f32>,
        values: &mut Vec<f32>,
        batch: bool,
    ) {
        let threads = rayon::current_num_threads();
        // On one thread a split would be one part: the same rows. (cargo-mutants: `threads < 2` changed to
        // `== 2` or `<= 2` splits or not a batch of two parts of 16 rows or more, each by the general product
        // either way: the same values, so those mutants are equivalent.)
        if rows < SPLIT_ROWS || threads < 2 {
            self.evaluate_rows(observations, rows, scratch, logits, values, batch);
            return;
        }
        use rayon::prelude::*;
        let chunk = rows.div_ceil(threads);
        let parts: Vec<(Vec<f32>, Vec<f32>)> = observations[..rows * self.inputs()]
            .par_chunks(chunk * self.inputs())
            .map(|obs| {
                let n = obs.len() / self.inputs();
                let (mut l, mut v) = (Vec::new(), Vec::new());
                self.evaluate_rows(obs, n, &mut Scratch::default(), &mut l, &mut v, batch);
                (l, v)
            })
            .collect();
        logits.clear();
        values.clear();
        for (l, v) in parts {
            logits.extend_from_slice(&l);
            values.extend_from_slice(&v);
        }
    }

    /// [`evaluate`](Net::evaluate) (or with `batch`, [`evaluate_batch`](Net::evaluate_batch)) on the calling
    /// thread alone, never split between threads: also for a lane of
    /// [`Lanes`](crate::search_games::Lanes), which has a thread to itself (the same values).
    pub(crate) fn evaluate_rows(
        &self,
        observations: &[f32],
        rows: usize,
        scratch: &mut Scratch,
        logits: &mut Vec<f32>,
        values: &mut Vec<f32>,
        batch: bool,
    ) {
        let dense = if batch || rows > FEW_ROWS {
            Product::General
        } else {
            Product::RowByRow
        };
        // The observation is sparse (about one value in fifteen is not 0): its layer skips the zeros. It is
        // read where it is (a search's batch is some 240 KB: not worth a copy).
        let Scratch { a, b } = scratch;
        let observations = &observations[..rows * self.inputs()];
        let (hidden, product) = match self.trunk.split_first() {
            // (A file with no hidden layer: the heads read the observation.)
            None => (observations, Product::RowByRow),
            Some((first, rest)) => {
                first.forward(observations, rows, Product::RowByRow, a);
                for x in a.iter_mut() {
                    *x = x.max(0.0);
                }
                for layer in rest {
                    layer.forward(a, rows, dense, b);
                    for x in b.iter_mut() {
                        *x = x.max(0.0);
                    }
                    std::mem::swap(a, b);
                }
                (&a[..], dense)
            }
        };
        self.policy.forward(hidden, rows, product, logits);
        self.value.forward(hidden, rows, product, values);
        for v in values.iter_mut() {
            *v = v.tanh();
        }
    }
}

/// A game as messages name it: `birmingham, 2 players` with its options (`(intro)`).
pub fn game_key(game: &Game) -> String {
    let options: Vec<String> = game
        .options
        .iter()
        .filter(|(_, v)| !matches!(v, serde_json::Value::Bool(false)))
        .map(|(k, v)| match v {
            serde_json::Value::Bool(true) => k.clone(),
            other => format!("{k}={other}"),
        })
        .collect();
    let mut key = format!("{}, {} players", game.name, game.players);
    if !options.is_empty() {
        key.push_str(&format!(" ({})", options.join(", ")));
    }
    key
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use safetensors::tensor::TensorView;
    use std::collections::BTreeMap;

    fn game() -> Game {
        Game::new("lancashire", 2, &BTreeMap::new()).expect("game")
    }

    /// A network file with deterministic weights: `widths` hidden layers.
    pub(crate) fn file(game: &Game, widths: &[usize], meta_game: &Game) -> Vec<u8> {
        let mut shapes = Vec::new();
        let mut inputs = observation::size(game);
        for (i, &w) in widths.iter().enumerate() {
            shapes.push((format!("trunk.{i}.weight"), vec![inputs, w]));
            shapes.push((format!("trunk.{i}.bias"), vec![w]));
            inputs = w;
        }
        shapes.push(("policy.weight".into(), vec![inputs, game.num_actions()]));
        shapes.push(("policy.bias".into(), vec![game.num_actions()]));
        shapes.push(("value.weight".into(), vec![inputs, game.players as usize]));
        shapes.push(("value.bias".into(), vec![game.players as usize]));
        let data: Vec<(String, Vec<usize>, Vec<u8>)> = shapes
            .into_iter()
            .enumerate()
            .map(|(t, (name, shape))| {
                let n: usize = shape.iter().product();
                let bytes = (0..n)
                    .flat_map(|i| (((i * 7 + t * 13) % 17) as f32 / 17.0 - 0.5).to_le_bytes())
                    .collect();
                (name, shape, bytes)
            })
            .collect();
        let views: Vec<(String, TensorView<'_>)> = data
            .iter()
            .map(|(name, shape, bytes)| {
                (
                    name.clone(),
                    TensorView::new(Dtype::F32, shape.clone(), bytes).expect("view"),
                )
            })
            .collect();
        let meta = HashMap::from([
            ("format".to_string(), NET_FORMAT.to_string()),
            (
                "game".to_string(),
                serde_json::json!({"name": meta_game.name, "players": meta_game.players, "options": {}})
                    .to_string(),
            ),
        ]);
        safetensors::serialize(views, Some(meta)).expect("serialize")
    }

    #[test]
    fn a_network_evaluates_like_a_plain_forward_pass() {
        let g = game();
        let (net, trained) = Net::from_bytes(&file(&g, &[8, 5], &g)).expect("net");
        assert_eq!(game_key(&trained), "lancashire, 2 players");
        // Options that are off are not named; those that are on are.
        let options = |on: bool| BTreeMap::from([("intro".to_string(), serde_json::json!(on))]);
        let off = Game::new("birmingham", 3, &options(false)).expect("game");
        let on = Game::new("birmingham", 3, &options(true)).expect("game");
        assert_eq!(game_key(&off), "birmingham, 3 players");
        assert_eq!(game_key(&on), "birmingham, 3 players (intro)");
        net.check_game(&trained, &g).expect("the same game");
        assert_eq!(net.widths(), vec![8, 5]);
        assert_eq!(
            (net.inputs(), net.actions(), net.players()),
            (observation::size(&g), g.num_actions(), 2)
        );
        let n = net.inputs();
        let obs: Vec<f32> = (0..2 * n).map(|i| (i % 5) as f32 * 0.25).collect();
        let (mut logits, mut values) = (Vec::new(), Vec::new());
        net.evaluate(&obs, 2, &mut Scratch::default(), &mut logits, &mut values);
        // The general product (many rows, split between threads) gives the same rows.
        let many: Vec<f32> = obs.iter().copied().cycle().take(40 * n).collect();
        let (mut many_logits, mut many_values) = (Vec::new(), Vec::new());
        net.evaluate(
            &many,
            40,
            &mut Scratch::default(),
            &mut many_logits,
            &mut many_values,
        );
        for row in 0..40 {
            let a = net.actions();
            for j in 0..a {
                let want = logits[(row % 2) * a + j];
                assert!((many_logits[row * a + j] - want).abs() < 1e-4);
            }
        }
        // The same product, written out.
        let plain = |layer: &Dense, x: &[f32]| -> Vec<f32> {
            (0..layer.outputs)
                .map(|j| {
                    layer.bias[j]
                        + (0..layer.inputs)
                            .map(|i| x[i] * layer.weight[i * layer.outputs + j])
                            .sum::<f32>()
                })
                .collect()
        };
        for row in 0..2 {
            let mut x = obs[row * n..(row + 1) * n].to_vec();
            for layer in &net.trunk {
                x = plain(layer, &x).into_iter().map(|v| v.max(0.0)).collect();
            }
            let l = plain(&net.policy, &x);
            let v: Vec<f32> = plain(&net.value, &x).into_iter().map(f32::tanh).collect();
            let a = net.actions();
            for j in 0..a {
                assert!((logits[row * a + j] - l[j]).abs() < 1e-4);
            }
            for j in 0..2 {
                assert!((values[row * 2 + j] - v[j]).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn the_row_by_row_product_skips_the_weights_of_zero_inputs() {
        // An infinite weight on the row of an input that is 0: the row-by-row product never reads it (the
        // sparse observation's shortcut), the general product gives 0 × ∞ = NaN. Which one a layer uses is
        // what `Dense::forward` decides.
        let layer = Dense {
            inputs: 2,
            outputs: 2,
            weight: vec![1.0, 2.0, f32::INFINITY, 3.0],
            bias: vec![0.5, 0.5],
        };
        let x = [2.0, 0.0];
        let mut out = Vec::new();
        layer.forward(&x, 1, Product::RowByRow, &mut out);
        assert_eq!(out, vec![2.5, 4.5]);
        layer.forward(&x, 1, Product::General, &mut out);
        assert!(out[0].is_nan() && out[1] == 4.5, "{out:?}");
    }

    #[test]
    fn a_hidden_layer_of_width_zero_is_refused_when_the_file_is_read() {
        let g = game();
        for widths in [&[0][..], &[8, 0]] {
            match Net::from_bytes(&file(&g, widths, &g)) {
                Err(Error::Config(why)) => assert!(why.contains("width 0"), "{why}"),
                Err(e) => panic!("{widths:?}: {e}"),
                Ok(_) => panic!("{widths:?}: a network with a layer of width 0 was read"),
            }
        }
    }

    #[test]
    fn a_network_with_no_hidden_layer_reads_the_observation_in_its_heads() {
        let g = game();
        let (net, _) = Net::from_bytes(&file(&g, &[], &g)).expect("net");
        assert!(net.widths().is_empty());
        let n = net.inputs();
        let rows = 6;
        let obs: Vec<f32> = (0..rows * n)
            .map(|i| {
                if i % 7 == 0 {
                    (i % 5) as f32 * 0.25
                } else {
                    0.0
                }
            })
            .collect();
        let (mut logits, mut values) = (Vec::new(), Vec::new());
        let mut scratch = Scratch::default();
        net.evaluate_batch(&obs, rows, &mut scratch, &mut logits, &mut values);
        let a = net.actions();
        assert_eq!((logits.len(), values.len()), (rows * a, rows * 2));
        for row in 0..rows {
            let x = &obs[row * n..(row + 1) * n];
            for j in (0..a).step_by(37) {
                let want: f32 = net.policy.bias[j]
                    + (0..n)
                        .map(|i| x[i] * net.policy.weight[i * a + j])
                        .sum::<f32>();
                assert!((logits[row * a + j] - want).abs() < 1e-4);
            }
        }
        // One row alone: the same values.
        let (mut one, mut one_values) = (Vec::new(), Vec::new());
        net.evaluate_batch(&obs[n..2 * n], 1, &mut scratch, &mut one, &mut one_values);
        assert_eq!(&one[..], &logits[a..2 * a]);
        assert_eq!(&one_values[..], &values[2..4]);
    }

    /// A network whose second hidden unit is always 0 (after ReLU) and whose policy weight on that unit is
    /// infinite: a row evaluated row by row skips it (finite logits), one evaluated by the general product
    /// gives NaN. It shows which product each row of an evaluation gets.
    fn probe() -> Net {
        let trunk = vec![Dense {
            inputs: 1,
            outputs: 2,
            weight: vec![1.0, 0.0],
            bias: vec![0.0, -1.0],
        }];
        let policy = Dense {
            inputs: 2,
            outputs: 1,
            weight: vec![1.0, f32::INFINITY],
            bias: vec![0.0],
        };
        let value = Dense {
            inputs: 2,
            outputs: 1,
            weight: vec![0.5, 0.0],
            bias: vec![0.0],
        };
        Net {
            trunk,
            policy,
            value,
            metadata: HashMap::new(),
        }
    }

    /// For each row of an evaluation of `rows` rows on a pool of `threads`: was it computed row by row?
    fn row_by_row_rows(rows: usize, threads: usize, batch: bool) -> Vec<bool> {
        let net = probe();
        let obs = vec![1.0f32; rows];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        let (mut logits, mut values) = (Vec::new(), Vec::new());
        pool.install(|| {
            let mut scratch = Scratch::default();
            if batch {
                net.evaluate_batch(&obs, rows, &mut scratch, &mut logits, &mut values);
            } else {
                net.evaluate(&obs, rows, &mut scratch, &mut logits, &mut values);
            }
        });
        assert_eq!((logits.len(), values.len()), (rows, rows));
        assert!(values.iter().all(|&v| (v - 0.5f32.tanh()).abs() < 1e-6));
        logits.iter().map(|l| l.is_finite()).collect()
    }

    #[test]
    fn each_row_gets_the_product_its_batch_size_and_threads_call_for() {
        let all = |rows: usize, threads: usize, batch: bool, by_row: bool| {
            assert_eq!(
                row_by_row_rows(rows, threads, batch),
                vec![by_row; rows],
                "{rows} rows, {threads} threads, batch {batch}"
            );
        };
        // Up to FEW_ROWS rows row by row, more by the general product; a search's batches always by the
        // general product (after the first layer).
        all(FEW_ROWS, 1, false, true);
        all(FEW_ROWS + 1, 1, false, false);
        all(1, 1, true, false);
        // Below SPLIT_ROWS, or on one thread, no split: eight rows are one general product even on two
        // threads. From SPLIT_ROWS rows on several threads the batch is split: 36 rows on nine threads are
        // nine parts of four rows, each row by row.
        all(8, 2, false, false);
        all(40, 1, false, false);
        all(SPLIT_ROWS, 9, false, true);
        all(SPLIT_ROWS + 4, 9, false, true);
        all(SPLIT_ROWS + 4, 9, true, false);
    }

    #[test]
    fn bad_network_files_are_config_errors_naming_the_problem() {
        let g = game();
        let good = file(&g, &[4], &g);
        let message = |bytes: &[u8]| Net::from_bytes(bytes).unwrap_err().to_string();
        assert!(message(&good[..good.len() - 9]).contains("not a usable network file"));
        assert!(message(b"nonsense").contains("not a usable network file"));
        // The last four bytes are the last float of the last tensor.
        for planted in [f32::NAN, f32::INFINITY] {
            let mut broken = good.clone();
            let at = broken.len() - 4;
            broken[at..].copy_from_slice(&planted.to_le_bytes());
            let text = message(&broken);
            assert!(
                text.contains("not a usable network file")
                    && text.contains(&format!("holds {planted}")),
                "{text}"
            );
        }
        let other = Game::new("birmingham", 2, &BTreeMap::new()).expect("game");
        let (net, trained) = Net::from_bytes(&good).expect("net");
        let wrong_game = net.check_game(&trained, &other).unwrap_err().to_string();
        assert!(
            wrong_game.contains("trained for lancashire, 2 players, not for birmingham, 2 players")
        );
        // The same rules and data with another player count is another game.
        let three = Game::new("lancashire", 3, &BTreeMap::new()).expect("game");
        assert_eq!(three.data_id, g.data_id);
        let wrong_count = net.check_game(&trained, &three).unwrap_err().to_string();
        assert!(
            wrong_count.contains("not for lancashire, 3 players"),
            "{wrong_count}"
        );
        // Tensors of one game labelled as another.
        let three = Game::new("lancashire", 3, &BTreeMap::new()).expect("game");
        let mislabelled = file(&three, &[4], &g);
        assert!(message(&mislabelled).contains("its value has 3 outputs, not one per player (2)"));
        let other_size = file(&other, &[4], &g);
        assert!(message(&other_size).contains("should take 1040 inputs"));
    }
}
