//! The network-guided search (`puct`) on recorded positions where it once failed.
use brass_core::puct::{search, Evaluator, GumbelConfig, PuctConfig};
use brass_core::{apply, json, Game, State};

/// Uniform priors and zero values: the search's shape without a network.
struct Uniform;
impl Evaluator for Uniform {
    fn evaluate(
        &mut self,
        _: &[f32],
        masks: &[bool],
        rows: usize,
        logits: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) -> brass_core::Result<()> {
        logits.clear();
        logits.resize(masks.len(), 0.0);
        values.clear();
        values.resize(rows * 4, 0.0);
        Ok(())
    }
}

fn position(file: &str) -> (Game, State) {
    let path = format!("{}/tests/positions/{file}", env!("CARGO_MANIFEST_DIR"));
    json::from_json(&std::fs::read_to_string(path).expect("the position file")).expect("a position")
}

/// Lancashire, 3 players, the game's last action (round 9 of the Rail Era, player 2's last card, taken in
/// game 227 of a `brass learn` run's second iteration): a sale to the Distant Cotton Market draws a hidden
/// tile (L-42), so after `sell oldham/2 distant` the game is over in some deals (the market closes, the
/// action ends) and goes on in others (another mill may be sold). A dealt node the search had found over was
/// kept as evaluated without its priors; a later deal where it went on read them and panicked (index
/// u32::MAX). Its result is now backed up without marking the node evaluated, as the plain search does.
#[test]
fn l42_a_dealt_node_over_in_one_deal_and_not_in_another_is_searched() {
    let (game, root) = position("lancashire-3p-last-action.json");
    let over = |seed: u64| {
        let mut s = brass_core::hidden::resample_hidden(&game, &root, 2, seed);
        for a in ["card barrow_in_furness", "sell oldham/2 distant"] {
            let id = game.parse_action(a).expect("notation");
            apply::apply(&game, &mut s, id as i64).expect("legal");
        }
        s.is_terminal()
    };
    let ends: Vec<bool> = (0..64).map(over).collect();
    assert!(ends.contains(&true) && ends.contains(&false), "{ends:?}");
    let gumbel = PuctConfig {
        simulations: 32,
        gumbel: Some(GumbelConfig {
            considered: 16,
            rescale: false,
            ..GumbelConfig::default()
        }),
        ..PuctConfig::default()
    };
    let puct = PuctConfig {
        simulations: 64,
        ..PuctConfig::default()
    };
    for config in [gumbel, puct] {
        for seed in 0..20 {
            let s = search(&game, &root, &config, seed, &mut Uniform).expect("search");
            let visits: u32 = s.visits().iter().map(|&(_, v)| v).sum();
            assert_eq!(visits, config.simulations, "seed {seed}");
        }
    }
}
