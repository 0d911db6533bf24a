//! Arbitrary bytes as a network file (`Net::from_bytes`): never a panic; a network that loads has the shapes of
//! the game its metadata names and evaluates an observation of that game.
//!
//! The loader does not reject non-finite weights, so what an evaluation promises is checked exactly: logits and
//! values of the right lengths, every value a tanh (in [-1, 1], or NaN from a NaN or overflowing weight), the
//! same results evaluated twice; and all of them finite when every weight is finite and small enough that no
//! sum can overflow (a bound computed from the file's floats). The core has no writer of network files (they
//! are written by the Python trainer), so there is no re-write round trip to check here.
#![no_main]
use brass_core::net::{Net, Scratch};
use brass_core::{apply, observation};
use libfuzzer_sys::fuzz_target;
use safetensors::SafeTensors;

/// The float32 values of tensor `name` of `file`, or None if any is not finite.
fn floats(file: &SafeTensors<'_>, name: &str) -> Option<Vec<f64>> {
    let view = file.tensor(name).expect("a loaded network has its tensors");
    let values: Vec<f64> = view
        .data()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64)
        .collect();
    values.iter().all(|v| v.is_finite()).then_some(values)
}

/// A bound on every partial sum the evaluation of an observation bounded by `input` computes (the largest of
/// the trunk's, the policy's and the value's), or None if a weight is not finite.
fn bound(data: &[u8], layers: usize, inputs: usize, input: f64) -> Option<f64> {
    let file = SafeTensors::deserialize(data).expect("a loaded network deserialises");
    let largest = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let layer = |prefix: &str, n: usize, x: f64| -> Option<f64> {
        let w = floats(&file, &format!("{prefix}.weight"))?;
        let b = floats(&file, &format!("{prefix}.bias"))?;
        Some(largest(&b) + n as f64 * x * largest(&w))
    };
    let (mut x, mut n) = (input, inputs);
    for i in 0..layers {
        let prefix = format!("trunk.{i}");
        let outputs = file.tensor(&format!("{prefix}.bias")).ok()?.shape()[0];
        x = layer(&prefix, n, x)?;
        n = outputs;
    }
    Some(layer("policy", n, x)?.max(layer("value", n, x)?))
}

fuzz_target!(|data: &[u8]| {
    let Ok((net, game)) = Net::from_bytes(data) else { return };
    let n = observation::size(&game);
    assert_eq!(net.inputs(), n, "a loaded network takes its game's observation");
    assert_eq!(net.actions(), game.num_actions());
    assert_eq!(net.players(), game.players as usize);
    net.check_game(&game, &game).expect("a network suits the game it was trained for");
    let state = apply::new_state(&game, data.len() as u64);
    let player = state.current_player(&game).expect("a new game has a player to move");
    let mut obs = vec![0.0f32; n];
    observation::write(&game, &state, player, &mut obs);
    let (mut logits, mut values) = (Vec::new(), Vec::new());
    let mut scratch = Scratch::default();
    net.evaluate(&obs, 1, &mut scratch, &mut logits, &mut values);
    assert_eq!(logits.len(), game.num_actions());
    assert_eq!(values.len(), game.players as usize);
    for v in &values {
        assert!(v.is_nan() || (-1.0..=1.0).contains(v), "a value is a tanh: {v}");
    }
    let (mut logits2, mut values2) = (Vec::new(), Vec::new());
    net.evaluate(&obs, 1, &mut scratch, &mut logits2, &mut values2);
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&logits), bits(&logits2), "an evaluation is deterministic");
    assert_eq!(bits(&values), bits(&values2), "an evaluation is deterministic");
    let input = obs.iter().fold(0.0f64, |m, x| m.max(x.abs() as f64));
    if let Some(b) = bound(data, net.widths().len(), n, input) {
        if b < 1e30 {
            assert!(logits.iter().chain(&values).all(|x| x.is_finite()), "finite weights, bounded sums (≤ {b}): finite outputs");
        }
    }
});
