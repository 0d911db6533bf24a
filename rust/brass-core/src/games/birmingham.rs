//! Brass: Birmingham (Roxley 2018, docs/birmingham.md): what only this game has — merchant tiles, beer
//! barrels beside them and the merchant bonuses (B-3, B-15, B-26), where a barrel may come from (B-8, B-25),
//! and the state's `merchants` section. Breweries, Scout, wild cards, farm breweries, the first link
//! anywhere and the double rail's beer are shared mechanics switched on by the data and `Switches`.
use crate::context::Ctx;
use crate::error::{Error, Result, Why};
pub use crate::game::birmingham::{
    space_by_name, space_name, Bonus, Config, Extra, MerchantSpace, MAX_MERCHANT_SPACES, TILE_KINDS,
};
use crate::game::{Game, Resource, SaleTarget, NONE};
use crate::network::{adjacency, reachable};
use crate::state::{ActionKind, State};

// --- set-up and eras ---------------------------------------------------------------------------------------

/// B-3: the player count's tiles shuffled onto the merchant spaces in use, a barrel beside each that is
/// not blank.
pub fn place_merchant_tiles(config: &Config, state: &mut State) {
    let mut tiles = config.tiles.clone();
    state.rng.shuffle(&mut tiles);
    let extra = state.birmingham_mut();
    *extra = Extra::EMPTY;
    let mut next = tiles.into_iter();
    for (i, space) in config.spaces.iter().enumerate() {
        if space.in_use {
            extra.tile[i] = next.next().expect("a tile per space in use");
        }
    }
    refill_beer(config, state);
}

/// B-3, B-20: a barrel beside every merchant tile that is not blank.
pub fn refill_beer(config: &Config, state: &mut State) {
    let extra = state.birmingham_mut();
    for i in 0..config.spaces.len() {
        if extra.tile[i] != NONE && config.accepts[extra.tile[i] as usize] != 0 {
            extra.beer |= 1 << i;
        }
    }
}

// --- selling and beer ----------------------------------------------------------------------------------

/// Can the tile on `tile` be sold to `target` (B-15, B-25)? The tile is the player's own unflipped tile of
/// a sold industry (checked by the caller).
// Inlined into the loop over every merchant of a tile (`games::sale_target_mask`): 100 random 4-player games
// took 3 % fewer instructions (cachegrind).
#[inline(always)]
pub fn check_sale(
    game: &Game,
    config: &Config,
    state: &State,
    ctx: &Ctx,
    tile: u8,
    target: SaleTarget,
) -> std::result::Result<(), Why> {
    let SaleTarget::Merchant(m) = target else {
        return Err("Birmingham sells only to merchants (B-15)");
    };
    let kind = state.birmingham().tile[m as usize];
    if kind == NONE {
        return Err("that merchant space has no tile at this player count (B-3)");
    }
    let t = state.board[tile as usize];
    if config.accepts[kind as usize] & (1 << t.industry) == 0 {
        return Err("that merchant tile does not buy this industry (B-15)");
    }
    let loc = game.spaces[tile as usize].location;
    if !ctx.connected(loc, config.spaces[m as usize].location) {
        return Err("the tile is not connected to that merchant (B-15)");
    }
    let need = game.tile_spec(t.industry, t.level).map_or(0, |s| s.beer) as u32;
    // Only a shortcut: with no beer needed the count below always suffices (`>=` here is an equivalent mutant).
    if need > 0 {
        let merchant = (state.birmingham().beer >> m) & 1;
        let available =
            brewery_beer(game, state, ctx.player, |l| ctx.connected(l, loc)) + merchant as u32;
        if available < need {
            return Err("not enough beer for this sale (B-15, B-25)");
        }
    }
    Ok(())
}

/// Barrels on unflipped breweries the player may use: their own anywhere, another player's where
/// `connected` holds for the brewery's location (B-8).
fn brewery_beer(game: &Game, state: &State, player: u8, connected: impl Fn(u8) -> bool) -> u32 {
    let mut total = 0;
    let mut breweries = state.tiles_of_industry(game.producer(Resource::Beer));
    while breweries != 0 {
        let s = breweries.trailing_zeros() as usize;
        breweries &= breweries - 1;
        let t = state.board[s];
        if t.cubes > 0 && (t.owner == player || connected(game.spaces[s].location)) {
            total += t.cubes as u32;
        }
    }
    total
}

/// Is a barrel available for the second rail on `line` once placed (B-13): an own brewery anywhere, or
/// another player's connected to one of the line's ends?
pub fn rail_beer_available(game: &Game, state: &State, ctx: &Ctx, line: u8) -> bool {
    let ends = &game.lines[line as usize].ends;
    brewery_beer(game, state, ctx.player, |l| {
        ends.iter().any(|&e| ctx.connected(l, e))
    }) > 0
}

/// The sources the next barrel of the action under way may come from: brewery spaces and merchant spaces
/// (B-25). A sale: own breweries, other breweries connected to the tile, the merchant's barrel; a second
/// rail: own breweries, other breweries connected to the rail.
pub fn beer_choices(game: &Game, state: &State) -> (u64, u16) {
    let Some(u) = state.action else { return (0, 0) };
    let p = state.current_player(game).expect("a player");
    let consumers = match u.kind {
        ActionKind::Link => game.lines[u.target as usize].ends(),
        _ => 1u64 << game.spaces[u.target as usize].location,
    };
    let adj = adjacency(game, state);
    let connected = reachable(&adj, consumers);
    let brewery = game.producer(Resource::Beer);
    let mut breweries = 0u64;
    for (s, t) in state.board[..game.spaces.len()].iter().enumerate() {
        if t.is_empty() || t.industry != brewery || t.cubes == 0 {
            continue;
        }
        if t.owner == p || connected & (1 << game.spaces[s].location) != 0 {
            breweries |= 1 << s;
        }
    }
    let mut merchants = 0u16;
    // A sale's beer is asked only once its merchant is chosen, and no other action has a merchant: either
    // test alone would do (`||` here is an equivalent mutant).
    if u.kind == ActionKind::Sell && u.sale != NONE {
        if let SaleTarget::Merchant(m) = game.layout.sale_targets[u.sale as usize] {
            merchants = state.birmingham().beer & (1 << m);
        }
    }
    (breweries, merchants)
}

/// Take the barrel beside the merchant tile on space `m` (B-25); the sale earns its bonus (B-26).
pub fn take_merchant_beer(state: &mut State, m: u8) {
    state.birmingham_mut().beer &= !(1 << m);
    if let Some(u) = state.action.as_mut() {
        u.merchant_beer = true;
    }
}

/// The bonus of a sale that took the merchant's barrel (B-26): VP, money and income at once. Returns
/// true when Gloucester's free develop must be asked (decision `bonus`): some industry qualifies.
pub fn merchant_bonus(game: &Game, config: &Config, state: &mut State, p: u8, m: u8) -> bool {
    match config.bonus[m as usize] {
        Bonus::Vp(n) => state.players[p as usize].vp += n as i32,
        Bonus::Money(n) => state.players[p as usize].money += n as i32,
        Bonus::Income(n) => crate::income::gain_income(game, state, p, n),
        Bonus::Develop => return bonus_industries(game, state, p) != 0,
    }
    false
}

/// The industries whose lowest tile the Gloucester bonus may remove: a tile left that can be developed
/// (B-26: never a lightbulb pottery), as a bitmask.
pub fn bonus_industries(game: &Game, state: &State, p: u8) -> u8 {
    (0..game.industries.len() as u8)
        .filter(|&i| state.next_tile(game, p, i).is_some_and(|t| t.developable))
        .fold(0, |m, i| m | 1 << i) // each bit once: `^` would do the same (an equivalent mutant)
}

// --- the state JSON and its invariants ------------------------------------------------------------------

/// The state keys only Birmingham has.
pub const JSON_KEYS: [&str; 1] = ["merchants"];
/// The keys Birmingham adds to the `action` object.
pub const ACTION_KEYS: [&str; 3] = ["beer", "merchant", "merchant_beer"];

/// `merchants`: every merchant space in use → its tile and whether its barrel is there.
pub fn write_json(
    config: &Config,
    state: &State,
    obj: &mut serde_json::Map<String, serde_json::Value>,
) {
    let extra = state.birmingham();
    let mut m = serde_json::Map::new();
    for (i, space) in config.spaces.iter().enumerate() {
        if extra.tile[i] != NONE {
            m.insert(
                space.name.clone(),
                serde_json::json!({"tile": TILE_KINDS[extra.tile[i] as usize],
                                   "beer": extra.beer & (1 << i) != 0}),
            );
        }
    }
    obj.insert("merchants".into(), serde_json::Value::Object(m));
}

/// The action object's Birmingham keys.
pub fn write_action(
    game: &Game,
    u: &crate::state::Underway,
    obj: &mut serde_json::Map<String, serde_json::Value>,
) {
    let merchant = match (u.sale != NONE).then(|| game.layout.sale_targets[u.sale as usize]) {
        Some(SaleTarget::Merchant(m)) => serde_json::json!(space_name(game.birmingham(), m)),
        _ => serde_json::Value::Null,
    };
    obj.insert("beer".into(), serde_json::json!(u.beer));
    obj.insert("merchant".into(), merchant);
    obj.insert("merchant_beer".into(), serde_json::json!(u.merchant_beer));
}

/// Read `merchants`.
pub(crate) fn read_json(
    config: &Config,
    r: &crate::json::fields::Reader,
    state: &mut State,
) -> Result<()> {
    use crate::json::fields::{invalid, Reader};
    let in_use: Vec<&str> = config
        .spaces
        .iter()
        .filter(|s| s.in_use)
        .map(|s| s.name.as_str())
        .collect();
    let mr = Reader::new("merchants", r.value("merchants"), &in_use)?;
    let extra = state.birmingham_mut();
    *extra = Extra::EMPTY;
    for (i, space) in config.spaces.iter().enumerate() {
        if !space.in_use {
            continue;
        }
        let path = mr.at(&space.name);
        let sr = Reader::new(&path, mr.value(&space.name), &["tile", "beer"])?;
        let name = sr.str("tile")?;
        extra.tile[i] = TILE_KINDS
            .iter()
            .position(|k| *k == name)
            .ok_or_else(|| invalid(format!("{path}.tile: unknown merchant tile `{name}`")))?
            as u8;
        if sr.bool("beer")? {
            extra.beer |= 1 << i;
        }
    }
    Ok(())
}

/// Read the action object's Birmingham keys.
pub(crate) fn read_action(
    game: &Game,
    ar: &crate::json::fields::Reader,
    u: &mut crate::state::Underway,
) -> Result<()> {
    use crate::json::fields::invalid;
    u.beer = ar.int("beer", 0, 9)? as u8;
    u.merchant_beer = ar.bool("merchant_beer")?;
    let mv = ar.value("merchant");
    if !mv.is_null() {
        let name = mv
            .as_str()
            .ok_or_else(|| invalid("action.merchant: expected a merchant space or null".into()))?;
        let m = space_by_name(game.birmingham(), name)
            .ok_or_else(|| invalid(format!("action.merchant: unknown merchant space `{name}`")))?;
        let index = game
            .layout
            .target_index(SaleTarget::Merchant(m))
            .expect("every merchant space is a target");
        u.sale = index as u8;
    }
    Ok(())
}

/// A sale at its `beer` or `bonus` decision: the merchant space holds a tile buying the tile's industry
/// (B-15), and a barrel the sale took is no longer beside it (B-25).
pub fn check_sale_under_way(
    game: &Game,
    config: &Config,
    state: &State,
    u: crate::state::Underway,
) -> Result<()> {
    let invalid = |m: &str| Err(Error::InvalidState(m.to_string()));
    let SaleTarget::Merchant(m) = game.layout.sale_targets[u.sale as usize] else {
        return invalid("action.merchant: a Birmingham sale is to a merchant space");
    };
    let kind = state.birmingham().tile[m as usize];
    let industry = state.board[u.target as usize].industry;
    if kind == NONE || config.accepts[kind as usize] & (1 << industry) == 0 {
        return invalid(
            "action.merchant: the merchant tile there does not buy the tile being sold (B-15)",
        );
    }
    if u.merchant_beer && state.birmingham().beer & (1 << m) != 0 {
        return invalid(
            "action.merchant_beer: the sale took the merchant's barrel, so it is no longer beside the tile (B-25)",
        );
    }
    Ok(())
}

/// The in-memory layout of the block: tiles only on merchant spaces, of known kinds.
pub fn check_layout(config: &Config, state: &State) -> Result<()> {
    let extra = state.birmingham();
    let bad = extra.tile[config.spaces.len()..].iter().any(|&t| t != NONE)
        || extra
            .tile
            .iter()
            .any(|&t| t != NONE && t as usize >= TILE_KINDS.len())
        || extra.beer >> config.spaces.len() != 0;
    if bad {
        return Err(Error::InvalidState("corrupt state: merchant tiles".into()));
    }
    Ok(())
}

/// The block's invariants (docs/birmingham.md, "The state"): the spaces in use hold exactly the player
/// count's tiles; barrels only beside tiles that buy something; wild cards at most one of each kind per
/// player and no more than exist.
pub fn check_state(game: &Game, config: &Config, state: &State) -> Result<()> {
    let invalid = |m: String| Err(Error::InvalidState(m));
    let extra = state.birmingham();
    let mut held: Vec<u8> = Vec::new();
    for (i, space) in config.spaces.iter().enumerate() {
        let t = extra.tile[i];
        if space.in_use != (t != NONE) {
            return invalid(format!(
                "merchants.{}: in use exactly at the player counts it shows (B-3)",
                space.name
            ));
        }
        if t != NONE {
            held.push(t);
            if extra.beer & (1 << i) != 0 && config.accepts[t as usize] == 0 {
                return invalid(format!(
                    "merchants.{}: no barrel beside a blank tile (B-3)",
                    space.name
                ));
            }
        } else if extra.beer & (1 << i) != 0 {
            return invalid(format!("merchants.{}: a barrel beside no tile", space.name));
        }
    }
    held.sort_unstable();
    let mut want = config.tiles.clone();
    want.sort_unstable();
    if held != want {
        return invalid(
            "merchants: the tiles are not this player count's merchant tiles (B-3)".into(),
        );
    }
    for (k, &count) in game.wild_count.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let n = game.players as usize;
        // With 4 of each wild card and at most one per player, `total` cannot exceed the count at 2 to 4
        // players: this guards the data, and its mutants (`+=` as `*=`) are equivalent with today's.
        let mut total = 0;
        for p in 0..n {
            let h = state.players[p].hand[k];
            if h > 1 {
                return invalid(format!(
                    "players[{p}].hand: two `{}` cards (Scout is refused while holding a wild card, B-31)",
                    game.card_names[k]
                ));
            }
            if state.players[p].discards[k] > 0 {
                return invalid(format!(
                    "players[{p}].discards: a wild card goes back to its pile (B-17)"
                ));
            }
            total += h;
        }
        let in_pile = state.deck[state.deck_pos as usize..state.deck_len as usize]
            .iter()
            .any(|&c| c as usize == k);
        if in_pile || state.removed[k] > 0 {
            return invalid(format!(
                "deck, removed: `{}` cards are never in the deck (B-2)",
                game.card_names[k]
            ));
        }
        if total > count {
            return invalid(format!(
                "players: more `{}` cards than exist",
                game.card_names[k]
            ));
        }
    }
    Ok(())
}

// --- observations ---------------------------------------------------------------------------------------

/// The merchant blocks of the observation (public: tiles and barrels).
pub fn observation_fields(config: &Config) -> Vec<(String, usize, &'static str)> {
    let n = config.spaces.len();
    vec![
        (
            "merchants.tile".into(),
            n * TILE_KINDS.len(),
            "per merchant space, one-hot tile: blank any cotton_mill manufacturer pottery (0 if not in use)",
        ),
        ("merchants.beer".into(), n, "per merchant space, 1 if its barrel is there"),
    ]
}

/// Write the blocks of [`observation_fields`]; returns their length.
pub fn write_observation(config: &Config, state: &State, out: &mut [f32]) -> usize {
    let n = config.spaces.len();
    let extra = state.birmingham();
    for i in 0..n {
        if extra.tile[i] != NONE {
            out[i * TILE_KINDS.len() + extra.tile[i] as usize] = 1.0;
        }
        if extra.beer & (1 << i) != 0 {
            out[n * TILE_KINDS.len() + i] = 1.0;
        }
    }
    n * (TILE_KINDS.len() + 1)
}
