//! Observations for learning agents: a float32 vector per player showing exactly what that player may
//! know (docs/observation.md). Other players' hands, the draw pile order, the cards under the deck tile
//! and the DCM pile order are hidden; everything else is public.
//!
//! Players are seen **relative to the observer**: slot 0 is the observer, slot 1 the next seat, and so on,
//! so one policy can play every seat.
use crate::game::{Game, Resource, NONE};
use crate::state::{ActionKind, Decision, State};

/// The decisions of the one-hot block; the last two only in a game with beer (Birmingham).
const DECISIONS: [Decision; 11] = [
    Decision::Action,
    Decision::Coal,
    Decision::Iron,
    Decision::Link,
    Decision::Develop,
    Decision::Sell,
    Decision::Card,
    Decision::Remove,
    Decision::Over,
    Decision::Beer,
    Decision::Bonus,
];
/// The action kinds of the one-hot block; Scout only in a game with Scout (Birmingham).
const KINDS: [ActionKind; 7] = [
    ActionKind::Build,
    ActionKind::Link,
    ActionKind::Develop,
    ActionKind::Sell,
    ActionKind::Loan,
    ActionKind::Pass,
    ActionKind::Scout,
];

/// Does the game have beer (its own decisions and the action's beer)?
fn has_beer(game: &Game) -> bool {
    !game.layout.beer_sources.is_empty()
}

fn decisions(game: &Game) -> &'static [Decision] {
    if has_beer(game) {
        &DECISIONS
    } else {
        &DECISIONS[..9]
    }
}

fn kinds(game: &Game) -> &'static [ActionKind] {
    if game.layout.pass > game.layout.scout {
        &KINDS
    } else {
        &KINDS[..6]
    }
}
/// Slots for players (the largest player count).
const SEATS: usize = 4;

/// One named block of the observation vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub offset: usize,
    pub len: usize,
    pub meaning: &'static str,
}

/// Collects fields in order, each at the offset after the previous one.
struct Fields(Vec<Field>, usize);

impl Fields {
    fn add(&mut self, name: impl Into<String>, len: usize, meaning: &'static str) {
        self.0.push(Field {
            name: name.into(),
            offset: self.1,
            len,
            meaning,
        });
        self.1 += len;
    }
}

/// The layout of a configuration's observation vector (the same for every player count of a game).
pub fn layout(game: &Game) -> Vec<Field> {
    let mut f = Fields(Vec::new(), 0);
    header_fields(&mut f, game);
    for seat in 0..SEATS {
        seat_fields(&mut f, game, seat);
    }
    board_fields(&mut f, game);
    action_fields(&mut f, game);
    f.0
}

fn header_fields(f: &mut Fields, game: &Game) {
    f.add("era_rail", 1, "1 in the Rail Era, 0 in the Canal Era");
    f.add("round", 1, "round / rounds per era");
    f.add("actions_left", 1, "actions left in the turn / 2");
    f.add(
        "decision",
        decisions(game).len(),
        "one-hot: action coal iron link develop sell card remove over (beer bonus: Birmingham)",
    );
    f.add(
        "to_act",
        SEATS,
        "one-hot seat (relative) of the player who decides now",
    );
    f.add(
        "players_in_game",
        SEATS,
        "1 for each relative seat that is in the game",
    );
    f.add(
        "turn_position",
        SEATS * SEATS,
        "per relative seat, one-hot position in this round's turn order",
    );
}

fn seat_fields(f: &mut Fields, game: &Game, seat: usize) {
    let (inds, cards) = (game.industries.len(), game.card_kinds.len());
    let p = format!("seat{seat}.");
    f.add(p.clone() + "money", 1, "money / 100");
    f.add(p.clone() + "money_spent", 1, "money spent this round / 100");
    f.add(p.clone() + "income_level", 1, "income level / 30");
    f.add(p.clone() + "income_space", 1, "income track space / 99");
    f.add(p.clone() + "vp", 1, "VP / 100");
    f.add(p.clone() + "links_left", 1, "link tiles left / 14");
    f.add(p.clone() + "hand_size", 1, "cards in hand / 8");
    f.add(
        p.clone() + "mat_left",
        inds,
        "per industry, tiles left on the mat / stack size",
    );
    f.add(
        p.clone() + "next_level",
        inds,
        "per industry, level of the lowest tile left / the highest level (0 if none)",
    );
    f.add(
        p + "discards",
        cards,
        "per card kind, cards discarded this era / 4",
    );
}

fn board_fields(f: &mut Fields, game: &Game) {
    let (inds, spaces, lines) = (game.industries.len(), game.spaces.len(), game.lines.len());
    f.add(
        "hand",
        game.card_kinds.len(),
        "the observer's hand: per card kind, count / 4",
    );
    f.add(
        "board.owner",
        spaces * SEATS,
        "per space, one-hot relative seat of the tile's owner",
    );
    f.add(
        "board.industry",
        spaces * inds,
        "per space, one-hot industry of the tile",
    );
    f.add(
        "board.level",
        spaces,
        "per space, tile level / the highest level of any tile",
    );
    f.add(
        "board.flipped",
        spaces,
        "per space, 1 if the tile is flipped",
    );
    f.add("board.cubes", spaces, "per space, cubes on the tile / 6");
    f.add(
        "links.owner",
        lines * SEATS,
        "per line, one-hot relative seat of the link's owner",
    );
    f.add("coal_market", 1, "cubes / market spaces");
    f.add("iron_market", 1, "cubes / market spaces");
    for (name, len, meaning) in crate::games::observation_fields(game) {
        f.add(name, len, meaning);
    }
    f.add("deck_size", 1, "cards in the draw pile / deck size");
    f.add(
        "deck_tile_size",
        1,
        "cards set aside unseen (under the deck tile) / players",
    );
}

fn action_fields(f: &mut Fields, game: &Game) {
    let (cards, spaces, lines) = (game.card_kinds.len(), game.spaces.len(), game.lines.len());
    f.add(
        "action.kind",
        kinds(game).len(),
        "one-hot kind of the action under way (all 0 if none)",
    );
    f.add("action.double", 1, "1 for a double build");
    f.add(
        "action.target_space",
        spaces,
        "one-hot space of the build under way",
    );
    f.add(
        "action.target_line",
        lines,
        "one-hot line of the link placed last",
    );
    f.add("action.coal", 1, "coal still to take");
    f.add("action.iron", 1, "iron still to take");
    f.add(
        "action.count",
        1,
        "links placed / tiles developed / sales made, / 2",
    );
    f.add(
        "action.cards",
        cards,
        "card kinds that may pay for the single build under way",
    );
    f.add(
        "action.first_card",
        cards,
        "one-hot first card of a double build (Scout: the last card discarded)",
    );
    if has_beer(game) {
        f.add("action.beer", 1, "beer still to take");
    }
}

/// Length of the observation vector.
pub fn size(game: &Game) -> usize {
    // The layout names every field (thousands of instructions and allocations); batch loops ask for the
    // size at every call, so the last configuration's size is remembered on each thread.
    thread_local! {
        static LAST_SIZE: std::cell::Cell<(u64, usize)> = const { std::cell::Cell::new((0, 0)) };
    }
    LAST_SIZE.with(|last| {
        let (uid, size) = last.get();
        if uid == game.uid {
            return size;
        }
        let size = layout(game).last().map_or(0, |f| f.offset + f.len);
        last.set((game.uid, size));
        size
    })
}

/// Write `player`'s observation into `out` (length [`size`]). Everything not set is 0.
pub fn write(game: &Game, state: &State, player: u8, out: &mut [f32]) {
    out.fill(0.0);
    let n = game.players as usize;
    let rel = |p: u8| (p as usize + n - player as usize) % n;
    let mut at = write_header(game, state, &rel, out);
    let per_seat = 7 + 2 * game.industries.len() + game.card_kinds.len();
    // Levels are scaled by the highest level of any tile (a scan of every stack: once per observation).
    let highest = game.highest_level() as f32;
    for seat in 0..n {
        let p = ((seat + player as usize) % n) as u8;
        write_seat(game, state, p, highest, &mut out[at + seat * per_seat..]);
    }
    at += SEATS * per_seat;
    at += write_board(game, state, player, &rel, highest, &mut out[at..]);
    if let Some(u) = state.action {
        write_action(game, &u, &mut out[at..]);
    }
}

/// The header blocks; returns their length.
fn write_header(game: &Game, state: &State, rel: &dyn Fn(u8) -> usize, out: &mut [f32]) -> usize {
    let n = game.players as usize;
    out[0] = if state.era == crate::game::Era::Rail {
        1.0
    } else {
        0.0
    };
    out[1] = state.round as f32 / game.rounds_per_era as f32;
    out[2] = state.actions_left as f32 / 2.0;
    let mut at = 3;
    let ds = decisions(game);
    let d = ds.iter().position(|&x| x == state.decision).unwrap_or(0);
    out[at + d] = 1.0;
    at += ds.len();
    if let Some(p) = state.current_player(game) {
        out[at + rel(p)] = 1.0;
    }
    at += SEATS;
    for seat in 0..n {
        out[at + seat] = 1.0;
    }
    at += SEATS;
    for (pos, &p) in state.turn_order[..n].iter().enumerate() {
        out[at + rel(p) * SEATS + pos] = 1.0;
    }
    at + SEATS * SEATS
}

/// One seat's public counters (and its discards).
fn write_seat(game: &Game, state: &State, p: u8, highest: f32, out: &mut [f32]) {
    let pl = &state.players[p as usize];
    let mut i = 0;
    let mut set = |v: f32| {
        out[i] = v;
        i += 1;
    };
    set(pl.money as f32 / 100.0);
    set(pl.money_spent as f32 / 100.0);
    set(game.income_level(pl.income_space) as f32 / 30.0);
    set(pl.income_space as f32 / 99.0);
    set(pl.vp as f32 / 100.0);
    set(pl.links_left as f32 / game.links_per_player as f32);
    set(pl.hand_size() as f32 / game.hand_size as f32);
    for k in 0..game.industries.len() {
        let stack = game.stacks[k].len();
        set((stack - pl.taken[k] as usize) as f32 / stack as f32);
    }
    for k in 0..game.industries.len() {
        set(state
            .next_tile(game, p, k as u8)
            .map_or(0.0, |t| t.level as f32 / highest));
    }
    let cards = game.card_kinds.len();
    for (o, &d) in out[i..i + cards].iter_mut().zip(&pl.discards[..cards]) {
        *o = d as f32 / 4.0;
    }
}

/// The observer's hand, the board, the links, the markets, the game's own blocks and the decks; returns
/// their length.
fn write_board(
    game: &Game,
    state: &State,
    player: u8,
    rel: &dyn Fn(u8) -> usize,
    highest: f32,
    out: &mut [f32],
) -> usize {
    let (inds, spaces, lines) = (game.industries.len(), game.spaces.len(), game.lines.len());
    let cards = game.card_kinds.len();
    let hand = &state.players[player as usize].hand[..cards];
    for (o, &c) in out[..cards].iter_mut().zip(hand) {
        *o = c as f32 / 4.0;
    }
    let at = cards;
    let (owner_at, ind_at, level_at, flip_at, cube_at) = (
        at,
        at + spaces * SEATS,
        at + spaces * (SEATS + inds),
        at + spaces * (SEATS + inds + 1),
        at + spaces * (SEATS + inds + 2),
    );
    // Only the spaces holding a tile (the occupancy), in space order as before.
    let mut occupied = state.occupancy.occupied();
    while occupied != 0 {
        let s = occupied.trailing_zeros() as usize;
        occupied &= occupied - 1;
        let t = &state.board[s];
        out[owner_at + s * SEATS + rel(t.owner)] = 1.0;
        out[ind_at + s * inds + t.industry as usize] = 1.0;
        out[level_at + s] = t.level as f32 / highest;
        out[flip_at + s] = t.flipped as u8 as f32;
        out[cube_at + s] = t.cubes as f32 / 6.0;
    }
    let mut at = cube_at + spaces;
    let mut placed = state.occupancy.placed_links();
    while placed != 0 {
        let l = placed.trailing_zeros() as usize;
        placed &= placed - 1;
        out[at + l * SEATS + rel(state.links[l])] = 1.0;
    }
    at += lines * SEATS;
    for (i, resource) in Resource::MARKETS.into_iter().enumerate() {
        out[at + i] = state.market(resource) as f32 / game.market(resource).prices.len() as f32;
    }
    at += 2;
    at += crate::games::write_observation(game, state, &mut out[at..]);
    out[at] = state.deck_size() as f32 / game.deck_size as f32;
    let aside = crate::games::set_aside_cards(state);
    out[at + 1] = aside.iter().map(|&c| c as f32).sum::<f32>() / game.players as f32;
    at + 2
}

/// The action under way.
fn write_action(game: &Game, u: &crate::state::Underway, out: &mut [f32]) {
    let (cards, spaces, lines) = (game.card_kinds.len(), game.spaces.len(), game.lines.len());
    let ks = kinds(game);
    out[ks.iter().position(|&k| k == u.kind).unwrap_or(0)] = 1.0;
    out[ks.len()] = u.double as u8 as f32;
    let t = ks.len() + 1;
    if u.target != NONE {
        if u.kind == ActionKind::Link {
            out[t + spaces + u.target as usize] = 1.0;
        } else {
            out[t + u.target as usize] = 1.0;
        }
    }
    let c = t + spaces + lines;
    out[c] = u.coal as f32;
    out[c + 1] = u.iron as f32;
    out[c + 2] = u.count as f32 / 2.0;
    if let Some(mask) = u.cards {
        for k in 0..cards {
            if mask & (1 << k) != 0 {
                out[c + 3 + k] = 1.0;
            }
        }
    }
    if u.first_card != NONE {
        out[c + 3 + cards + u.first_card as usize] = 1.0;
    }
    if has_beer(game) {
        out[c + 3 + 2 * cards] = u.beer as f32;
    }
}
