//! Writing a state as canonical JSON (docs/state-format.md).
use super::fields::{counts, game_json, STATE_FORMAT};
use crate::game::{FirstBuild, Game, Resource, NONE};
use crate::state::{ActionKind, Player, State, Underway};
use serde_json::{json, Map, Value};

fn player_value(game: &Game, p: &Player) -> Value {
    let mut mat = Map::new();
    for (i, name) in game.industries.iter().enumerate() {
        mat.insert(
            name.clone(),
            json!(game.stacks[i].len() - p.taken[i] as usize),
        );
    }
    let mut player = json!({
        "money": p.money,
        "money_spent": p.money_spent,
        "income_space": p.income_space,
        "vp": p.vp,
        "hand": counts(game, &p.hand),
        "discards": counts(game, &p.discards),
        "mat": Value::Object(mat),
        "links_left": p.links_left,
    });
    if game.switches.first_build == FirstBuild::FirstOfGame {
        player["built_industry"] = json!(p.built_industry);
    }
    player
}

fn action_value(game: &Game, u: &Underway) -> Value {
    let target = if u.target == NONE {
        Value::Null
    } else if u.kind == ActionKind::Link {
        json!(game.lines[u.target as usize].name)
    } else {
        json!(game.spaces[u.target as usize].name)
    };
    let cards = match u.cards {
        None => Value::Null,
        Some(mask) => Value::Array(
            (0..game.card_kinds.len())
                .filter(|k| mask & (1 << k) != 0)
                .map(|k| json!(game.card_names[k]))
                .collect(),
        ),
    };
    let first_card = if u.first_card == NONE {
        Value::Null
    } else {
        json!(game.card_names[u.first_card as usize])
    };
    let mut v = json!({"kind": u.kind.name(), "double": u.double, "target": target, "coal": u.coal,
           "iron": u.iron, "count": u.count, "cards": cards, "first_card": first_card});
    crate::games::write_action(game, u, v.as_object_mut().expect("an object"));
    v
}

/// The canonical JSON value of a state: the shared sections, then the game's own (`games/`).
pub fn state_value(game: &Game, state: &State) -> Value {
    let n = game.players as usize;
    let players: Vec<Value> = state.players[..n]
        .iter()
        .map(|p| player_value(game, p))
        .collect();
    let mut board = Map::new();
    for (s, t) in state.board[..game.spaces.len()].iter().enumerate() {
        if !t.is_empty() {
            board.insert(
                game.spaces[s].name.clone(),
                json!({"owner": t.owner, "industry": game.industries[t.industry as usize],
                       "level": t.level, "flipped": t.flipped, "cubes": t.cubes}),
            );
        }
    }
    let mut links = Map::new();
    for (i, &owner) in state.links[..game.lines.len()].iter().enumerate() {
        if owner != NONE {
            links.insert(game.lines[i].name.clone(), json!(owner));
        }
    }
    let action = state.action.map_or(Value::Null, |u| action_value(game, &u));
    let mut v = json!({
        "format": STATE_FORMAT,
        "game": game_json(game),
        "rng": state.rng.0.to_string(),
        "era": state.era.name(),
        "round": state.round,
        "turn_order": &state.turn_order[..n],
        "turn": state.turn,
        "actions_left": state.actions_left,
        "decision": state.decision.name(),
        "action": action,
        "players": players,
        "board": Value::Object(board),
        "links": Value::Object(links),
        "coal_market": state.market(Resource::Coal),
        "iron_market": state.market(Resource::Iron),
        "deck": state.deck[state.deck_pos as usize..state.deck_len as usize]
            .iter().map(|&c| game.card_names[c as usize].clone()).collect::<Vec<_>>(),
        "removed": counts(game, &state.removed),
    });
    let obj = v.as_object_mut().expect("an object");
    crate::games::write_json(game, state, obj);
    v
}

/// Canonical JSON text: sorted keys (serde_json's map is ordered), no white space.
pub fn to_json(game: &Game, state: &State) -> String {
    state_value(game, state).to_string()
}
