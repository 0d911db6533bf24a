//! Agents that choose actions: uniform random, one-ply greedy on a documented evaluation, and
//! determinised Monte-Carlo tree search for imperfect information (docs/agents.md).
//!
//! Every agent is deterministic for a given random generator: the caller seeds it per decision.
use crate::actions::Action;
use crate::apply::{self, apply_unchecked, link_icons};
use crate::game::{Era, Game, SaleTarget, MAX_INDUSTRIES, MAX_LOCATIONS, MAX_SPACES, NONE};
use crate::games::birmingham::Config as BirminghamConfig;
use crate::games::Variant;
use crate::hidden::Redealer;
use crate::rng::Rng;
use crate::rules::{self, Ctx};
use crate::sample::Sampler;
use crate::state::{ActionKind, State};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Something that picks an action id at the current decision.
pub trait Agent: Send + Sync {
    /// A legal action id for `state`'s current player. `state` is not terminal.
    fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16;
    /// A short name for reports ("random", "greedy", "mcts(1000)").
    fn name(&self) -> String;
    /// [`Agent::choose`], given up (`None`) once `stop` is set; the same choice as `choose` for the same `rng`
    /// when it is not. An agent whose choice is quick never looks at `stop` (the default).
    fn choose_or_stop(
        &self,
        game: &Game,
        state: &State,
        rng: &mut Rng,
        stop: &AtomicBool,
    ) -> Option<u16> {
        let _ = stop;
        Some(self.choose(game, state, rng))
    }
    /// Whether one choice may take long enough (a large search) that a caller should be able to stop it:
    /// such an agent looks at `stop` in [`Agent::choose_or_stop`].
    fn may_take_long(&self) -> bool {
        false
    }
}

fn legal(game: &Game, state: &State) -> Vec<u16> {
    let mut ids = Vec::with_capacity(128);
    rules::legal_actions(game, state, &mut ids);
    ids
}

/// Uniformly random legal actions, drawn by `sampler` (the default, `Sampler::List`, plays the games of
/// earlier releases; `Sampler::Draw` other games, with fewer instructions).
#[derive(Clone, Debug, Default)]
pub struct RandomAgent {
    pub sampler: Sampler,
}

impl RandomAgent {
    /// A random agent drawing its moves with `sampler`.
    pub fn new(sampler: Sampler) -> RandomAgent {
        RandomAgent { sampler }
    }
}

impl Agent for RandomAgent {
    fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16 {
        let mut ids = Vec::with_capacity(128);
        self.sampler.pick(game, state, rng, &mut ids)
    }
    fn name(&self) -> String {
        match self.sampler {
            Sampler::List => "random".into(),
            Sampler::Draw => "random(draw)".into(),
        }
    }
}

/// Rounds still to be played in the game, the current one included (an introductory game has no Rail
/// Era, L-54, B-22).
pub fn rounds_left(game: &Game, state: &State) -> i32 {
    let r = game.rounds_per_era as i32;
    let this_era = r - state.round as i32 + 1;
    match (state.era, game.switches.last_era) {
        (Era::Canal, Era::Rail) => this_era + r,
        _ => this_era,
    }
}

/// VP-like value of one income level for one round still to play.
const INCOME_WEIGHT: f64 = 0.15;

/// Beer barrels on the player's own unflipped breweries (Birmingham, B-8): each is worth a little on its
/// own; most of a barrel's worth is the sales it makes possible, counted by [`sale_prospect`].
const BARREL_VALUE: f64 = 0.5;

/// Birmingham: the share of an unflipped tile that sells (its VP, the income it brings) counted while it
/// could be sold now: connected to a merchant whose tile buys it, with the beer it needs (B-15, B-25) …
const SELLABLE: f64 = 0.8;
/// … connected to such a merchant but short of beer …
const CONNECTED: f64 = 0.5;
/// … or connected to none, by the links of the era's kind still to build to such a merchant: one, two, three,
/// four or more (or none leads there). At 0.3 wherever they stood, tiles no merchant reached drew seats that never
/// sold into loans they could not repay: every all-Greedy seat that ended at 0 VP or under 20 had made no sale in
/// the Canal Era (docs/agents.md, 5 December 2026); at 0.15 half as many collapsed. By the links they need, a link
/// towards a merchant is worth something before the one that reaches it, and a tile far from every merchant is
/// worth less to build: one in seven of those collapses left (seeds 1–60), and Greedy a little stronger
/// (docs/agents.md, "Tiles by the links they still need").
const UNCONNECTED: [f64; 4] = [0.4, 0.25, 0.15, 0.1];

/// Birmingham, two players: the share of an unflipped brewery's VP counted (elsewhere a producer counts
/// half). A brewery flips only when its beer is drunk, mostly in other players' sales; with one opponent
/// that is rarer: in Greedy's 2-player games (against Random or Greedy) 36% of its breweries were flipped at
/// an era's end (against two or three Greedy players 62% and 73%), and valued at a half they made it open
/// with breweries nobody emptied, the start of its collapses (docs/agents.md).
const TWO_PLAYER_BREWERY: f64 = 0.36;

/// Birmingham: each further unflipped producer of one industry (coal mine, iron works, brewery) the player
/// owns counts this share of the one before: the more of its own the player has waiting, the less likely
/// each is to be emptied (it flips only when its last cube or barrel leaves, B-6, B-28).
/// Counted alike, a sixth brewery looked as good as the first: Greedy opened with four to six producers nobody
/// emptied, borrowed to −9 and ended at 0 VP (docs/agents.md, 4 December 2026).
const PRODUCER_REPEAT: f64 = 0.5;

/// Birmingham: while a player owns no tile of an industry that sells (cotton mill, manufacturer, pottery: B-15)
/// and has borrowed (income level [`DEBT_LEVEL`] or lower, B-16), each own unflipped producer after the first
/// (of any industry, in space order) counts this share more of its VP and income. Such a player earns only when
/// others empty its producers; the seats that ended all-Greedy games at 0 VP had borrowed three times for
/// breweries and coal mines nobody emptied. Measured: the 0-VP seats of fresh seeds four times fewer at 2 players
/// and twice at 3, the same strength head to head (docs/agents.md, 7 December 2026).
const NO_SELLER_IN_DEBT: f64 = 0.5;

/// Lancashire and classic Brass, in the Rail Era: each further own unflipped producer of one industry (coal mine,
/// iron works) counts this share of the one before. A coal mine flips only when its last cube is taken (L-20), and
/// one built with no connection to a market trade icon keeps its cubes (L-27); unflipped at the game's end it
/// scores nothing. Counted alike, a fifth coal mine looked as good as the first, and the seats that ended
/// all-Greedy games at 0 VP had borrowed three times in the Rail Era for four to six coal mines nobody emptied.
/// Measured: 0-VP seats on fresh seeds 13 → 2 of 1,920,000, the mean seat 1–2 VP higher, a little stronger head
/// to head (docs/agents.md, "Rail Era coal mines nobody empties").
const RAIL_PRODUCER_REPEAT: f64 = 0.5;

/// Birmingham: what an action is worth, taken from a pass (B-18: a pass spends an action on nothing). One ply
/// sees only the money a build costs and part of what it will bring; passing kept the money, so with £10–£25
/// and a debt to pay Greedy passed round after round while the debt ate the money it saved (docs/agents.md).
const PASS_COST: f64 = 3.0;

/// Birmingham: money at or below this is scarce (an action's worth: most tiles cost £5–£20) …
const SCARCE_MONEY: f64 = 20.0;
/// … and the first [`SCARCE_MONEY`] pounds the player will have at its next turn (its money after the
/// coming income, which a negative level takes first) are worth this much on top of money / 12: a player
/// with no money passes, so a one-ply search must see that being broke is worse than a loan (B-16).
const SCARCE_BONUS: f64 = 8.0;

/// An income level below this (in Birmingham one loan from level 0, B-16) is a debt paid every round …
const DEBT_LEVEL: i32 = -3;
/// … and in Birmingham each level below it costs this × (levels below)² × rounds left on top of the income
/// term: the payments outrun any money the player holds, and a shortfall then removes its tiles and VP (L-11).
/// Linear in the level, a second and third loan (down to −9 in the Canal Era) looked as cheap as the first.
const DEBT_WEIGHT: f64 = 0.03;
/// Lancashire and classic Brass: the same term, a sixth as heavy. A loan there is £10 a level (L-45), and a
/// player kept from borrowing stays broke: at Birmingham's weight seats that opened with mills no port reached
/// passed round after round until their debt took their VP (all-Greedy games, seats at 0 VP in Lancashire 3p and
/// 4p and classic 4p, seeds 1–300: 55); at this weight 2, as strong head to head (docs/agents.md, "A lighter
/// debt in Lancashire and classic Brass").
const LANCASHIRE_DEBT_WEIGHT: f64 = 0.005;
/// Birmingham scores no VP for money (B-21): in the last rounds money is worth less and less, over this
/// many rounds.
const MONEY_FADE_ROUNDS: f64 = 3.0;

/// Birmingham: the chance an own unflipped tile that sells is sold before it is too late (see
/// [`SELLABLE`]), judged by the rules' own sale check (`rules::check_sell`) against every merchant space.
///
/// `beer` is the beer not yet promised to the player's other tiles: a tile found sellable spends the barrels
/// its sale would take from it (B-25), so two tiles counting on one barrel do not both count as sellable.
/// Counted twice, a merchant's only barrel made each sale look like a loss (the other tile fell from sellable
/// to short of beer), and Greedy kept both tiles unsold.
fn sale_prospect(
    game: &Game,
    config: &BirminghamConfig,
    beer: &mut State,
    ctx: &Ctx,
    space: u8,
) -> f64 {
    let state = &*beer;
    let t = state.board[space as usize];
    let loc = game.spaces[space as usize].location;
    let mut connected = false;
    for (m, merchant) in config.spaces.iter().enumerate() {
        let kind = state.birmingham().tile[m];
        if kind == NONE
            || config.accepts[kind as usize] & (1 << t.industry) == 0
            || !ctx.connected(loc, merchant.location)
        {
            continue;
        }
        connected = true;
        if rules::check_sell(game, state, ctx, space, SaleTarget::Merchant(m as u8)).is_ok() {
            let need = game.tile_spec(t.industry, t.level).map_or(0, |x| x.beer);
            promise_beer(game, beer, ctx.player, m, need);
            return SELLABLE;
        }
    }
    if connected {
        CONNECTED
    } else {
        // Not connected: by the links still to build to a merchant whose tile buys it.
        let mut markets = 0u64;
        for (m, merchant) in config.spaces.iter().enumerate() {
            let kind = state.birmingham().tile[m];
            if kind != NONE && config.accepts[kind as usize] & (1 << t.industry) != 0 {
                markets |= 1 << merchant.location;
            }
        }
        let links = links_to(game, state, markets)[loc as usize] as usize;
        UNCONNECTED[links.clamp(1, UNCONNECTED.len()) - 1]
    }
}

/// Take `need` barrels off `beer` for a sale of `player`'s to merchant `m`: the merchant's barrel first (its
/// sale earns the bonus, B-26), then the player's own breweries, then others' (B-8), in space order.
/// Which breweries of others a sale may reach does not matter here: taking any of theirs only makes the
/// player's later tiles less likely to count as sellable.
fn promise_beer(game: &Game, beer: &mut State, player: u8, m: usize, need: u8) {
    let mut need = need;
    if need > 0 && (beer.birmingham().beer >> m) & 1 == 1 {
        beer.birmingham_mut().beer &= !(1 << m);
        need -= 1;
    }
    let brewery = game.producer(crate::game::Resource::Beer);
    for own in [true, false] {
        for s in 0..game.spaces.len() {
            if need == 0 {
                return;
            }
            let t = &mut beer.board[s];
            if t.is_empty() || t.industry != brewery || (t.owner == player) != own {
                continue;
            }
            let take = need.min(t.cubes);
            t.cubes -= take;
            need -= take;
        }
    }
}

/// Birmingham: the value of the player's money (see [`SCARCE_BONUS`], [`MONEY_FADE_ROUNDS`]).
fn birmingham_money(game: &Game, state: &State, player: u8) -> f64 {
    let m = state.players[player as usize].money.max(0) as f64;
    // Money at the player's next turn: this round's income comes first (L-11), but none after the last.
    let next = if rounds_left(game, state) > 1 {
        (m + state.income_level(game, player) as f64).max(0.0)
    } else {
        m
    };
    let value = m / 12.0 + SCARCE_BONUS * next.min(SCARCE_MONEY) / SCARCE_MONEY;
    if game.switches.intro {
        // The introductory game scores money at its end (1 VP per £4, B-22): it keeps its worth.
        return value;
    }
    value * (rounds_left(game, state) as f64 / MONEY_FADE_ROUNDS).min(1.0)
}

/// Lancashire and classic Brass: the share of an unflipped port's VP counted while an unflipped cotton mill (of
/// anyone) is connected to it, which can flip it by a sale (L-30) …
const PORT_CONNECTED: f64 = 0.5;
/// … and while none is. Valued at a half like every other tile, ports nobody could sell to drew Greedy into
/// building port after port on loans, none flipped: the seats that ended at 0 VP in all-Greedy games.
const PORT_ALONE: f64 = 0.15;

/// The chance counted for the own unflipped port on `space` (see [`PORT_CONNECTED`]).
fn port_prospect(game: &Game, state: &State, ctx: &Ctx, space: usize) -> f64 {
    let at = game.spaces[space].location;
    let mut mills = rules::selling_industry_spaces(game, state);
    while mills != 0 {
        let m = mills.trailing_zeros() as usize;
        mills &= mills - 1;
        if !state.board[m].flipped && ctx.connected(game.spaces[m].location, at) {
            return PORT_CONNECTED;
        }
    }
    PORT_ALONE
}

/// Lancashire and classic Brass: the share of an own unflipped cotton mill's VP counted, by the fewest links
/// still to build between it and a place it could sell to ([`links_to_market`]): 0 (the rules' sale check
/// passes for a port or the Distant Cotton Market, L-40 … L-42), 1, 2, 3, and 4 or more (or none of this era's
/// kind leads there). The same half for every mill that could not sell left Greedy nothing to gain from the
/// links that would sell one: it built mills no port reached, ran out of money and passed; all-Greedy
/// Lancashire averaged 19.5 VP a seat at 2 players, and two seats in three ended under 20 (docs/agents.md,
/// "Mills by the links they still need").
const MILL_PROSPECT: [f64; 5] = [0.8, 0.6, 0.45, 0.35, 0.3];

/// The chance counted for the own unflipped cotton mill on `space` (see [`MILL_PROSPECT`]).
fn mill_prospect(game: &Game, state: &State, ctx: &Ctx, space: u8) -> f64 {
    let sells = game
        .layout
        .sale_targets
        .iter()
        .any(|&target| rules::check_sell(game, state, ctx, space, target).is_ok());
    if sells {
        return MILL_PROSPECT[0];
    }
    let d = links_to_market(game, state)[game.spaces[space as usize].location as usize];
    // A mill that cannot sell needs at least one link, whatever the map says.
    MILL_PROSPECT[(d as usize).clamp(1, MILL_PROSPECT.len() - 1)]
}

/// Lancashire and classic Brass: for every location, the links still to build ([`links_to`]) to a place a cotton
/// mill sells to: a location with an unflipped port of anyone's (L-41) or, while the Distant Cotton Market buys
/// (its marker short of X and a tile left, L-42), a market trade icon — printed or a port's (L-15).
fn links_to_market(game: &Game, state: &State) -> [u8; MAX_LOCATIONS] {
    let Variant::Lancashire(config) = &game.variant else {
        return [u8::MAX; MAX_LOCATIONS];
    };
    let extra = state.lancashire();
    let distant = extra.dcm_marker < config.dcm_x && !extra.dcm_exhausted();
    let mut markets = if distant {
        game.printed_trade_locations()
    } else {
        0
    };
    let mut ports = state.tiles_of_industry(game.port_industry);
    while ports != 0 {
        let s = ports.trailing_zeros() as usize;
        ports &= ports - 1;
        if distant || !state.board[s].flipped {
            markets |= 1 << game.spaces[s].location;
        }
    }
    links_to(game, state, markets)
}

/// [`crate::network::links_to`], remembered: it is asked about the same board many times in a row.
fn links_to(game: &Game, state: &State, markets: u64) -> [u8; MAX_LOCATIONS] {
    let key = (
        game.uid,
        state.occupancy.placed_links(),
        markets,
        state.era == Era::Rail,
    );
    let known = LAST_LINKS_TO_MARKET.with_borrow(|last| {
        last.iter()
            .flatten()
            .find(|(k, _)| *k == key)
            .map(|&(_, links)| links)
    });
    known.unwrap_or_else(|| {
        let links = crate::network::links_to(game, state, markets);
        LAST_LINKS_TO_MARKET.with_borrow_mut(|last| {
            last.rotate_right(1);
            last[0] = Some((key, links));
        });
        links
    })
}

/// What decides [`crate::network::links_to`]: the game, the links placed, the market locations and the era.
type LinksKey = (u64, u64, u64, bool);

/// Distances [`links_to`] worked out, with what they were for.
type KnownLinks = Option<(LinksKey, [u8; MAX_LOCATIONS])>;

thread_local! {
    /// The last distances [`links_to`] worked out, and what they were for: it is asked about the same board
    /// many times in a row (each player's evaluation of one position, for each kind of tile a Birmingham
    /// merchant buys; most of Greedy's candidate actions place no link and no port), and working them out again
    /// made Greedy several times slower.
    static LAST_LINKS_TO_MARKET: std::cell::RefCell<[KnownLinks; 4]> =
        const { std::cell::RefCell::new([None; 4]) };
}

/// Lancashire and classic Brass: money at the next turn (money + income) below this leaves a player broke:
/// nothing to build, link or develop with …
const BROKE_MONEY: f64 = 8.0;
/// … which costs this much. Without it a broke player valued a loan (£30 now, three income levels for every
/// round left) below passing, and passed round after round (all-Greedy games ended with a seat at 0 VP in 4 of
/// 400 seats of Lancashire 2p, 10 of 600 at 3p, 12 of 800 at 4p). A larger cushion (Birmingham's £20) made
/// Greedy hoard money instead of building.
const BROKE_COST: f64 = 5.0;

/// Lancashire and classic Brass: the value of the player's money: money / 8 (money left scores VP, L-52), less
/// [`BROKE_COST`] for being broke at the next turn while rounds are left.
fn money_value(game: &Game, state: &State, player: u8) -> f64 {
    let money = state.players[player as usize].money as f64;
    let left = rounds_left(game, state);
    let next = if left > 1 {
        (money.max(0.0) + state.income_level(game, player) as f64).max(0.0)
    } else {
        money.max(0.0)
    };
    let fade = (left as f64 / MONEY_FADE_ROUNDS).min(1.0);
    money / 8.0 + BROKE_COST * next.min(BROKE_MONEY) / BROKE_MONEY * fade
}

/// The evaluation of a position for one player, in VP-like units (docs/agents.md):
/// VP scored + VP of flipped tiles (level 2+ counted again in the Canal Era, they score twice) + half the
/// VP of unflipped tiles + current link VP + income level × rounds left × 0.15 + money / 8.
///
/// Lancashire and classic Brass count an own unflipped cotton mill by its sale prospect (`MILL_PROSPECT`:
/// 0.8 if it can sell now, less the more links it still needs to a market) and an own unflipped port by
/// whether a mill could flip it (`PORT_CONNECTED`), and add a cushion against being broke (`money_value`); in
/// the Rail Era each further own unflipped coal mine or iron works counts half the one before
/// ([`RAIL_PRODUCER_REPEAT`]).
///
/// Birmingham (where money scores no VP, B-21, and a tile pays only once sold, B-15) changes some terms:
/// - an unflipped tile that sells counts its VP and its income (income spaces / 2 × rounds left × 0.15)
///   times its *sale prospect*: 0.8 if the rules' sale check passes now for some merchant (connected, a
///   merchant tile that buys it, beer from own breweries, connected ones or the merchant's barrel), 0.5 if
///   only the beer is missing, 0.4 / 0.25 / 0.15 / 0.1 if no merchant that buys it is connected (one, two,
///   three, four or more links still to build to one); the tiles are judged in space
///   order, each sellable one taking the beer its sale would spend (so one barrel makes one tile sellable);
/// - each own link also counts the link icons of the player's own unflipped tiles that sell at its ends,
///   times their sale prospect (they show once the tile is sold, B-19);
/// - an unflipped coal mine, iron works or brewery counts half its VP (a brewery in a 2-player game 0.36)
///   and a quarter of its income (it flips only when others empty it), plus 0.5 per barrel on a brewery;
///   the player's second unflipped producer of the same industry counts half of that, the third a quarter
///   (in space order, [`PRODUCER_REPEAT`]); while the player owns no tile that sells and is at level −3 or
///   lower, every producer after its first counts half again ([`NO_SELLER_IN_DEBT`]);
/// - money is worth money / 12 + 8 × min(next, £20) / £20, where *next* is money + income level (the
///   money at the next turn; just money in the game's last round): being broke costs actions, so a loan
///   beats passing; all of it times min(1, rounds left / 3) (money left at the end is worth nothing);
/// - an income level below −3 (deeper than one loan) costs 0.03 × (levels below −3)² × rounds left more
///   (0.005 in Lancashire and classic Brass): the debt is paid every round and a shortfall takes tiles and VP
///   (L-11, B-16);
/// - a sale under way (waiting for its beer, B-25) is valued as made: the tile flipped.
pub fn evaluate(game: &Game, state: &State, player: u8) -> f64 {
    if let Variant::Birmingham(_) = &game.variant {
        if let Some(u) = state.action {
            if u.kind == ActionKind::Sell
                && u.target != NONE
                && !state.board[u.target as usize].flipped
            {
                // The sale is legal, so its beer is there: count it as made.
                let mut sold = *state;
                crate::income::flip(game, &mut sold, u.target);
                return evaluate_position(game, &sold, player);
            }
        }
    }
    evaluate_position(game, state, player)
}

/// The share of its VP (and in Birmingham its income) terms each own unflipped producer counts, met in space order:
/// Birmingham's in both eras, Lancashire's and classic Brass's in the Rail Era.
struct Waiting {
    /// Per industry, the producers met so far.
    per_industry: [i32; MAX_INDUSTRIES],
    /// Of any industry.
    producers: i32,
    /// The player owns no tile that sells and has borrowed ([`NO_SELLER_IN_DEBT`]).
    no_seller_in_debt: bool,
}

impl Waiting {
    fn new(game: &Game, state: &State, player: u8) -> Waiting {
        let own_sellers =
            rules::selling_industry_spaces(game, state) & state.occupancy.tiles_of[player as usize];
        Waiting {
            per_industry: [0; MAX_INDUSTRIES],
            producers: 0,
            no_seller_in_debt: own_sellers == 0 && state.income_level(game, player) <= DEBT_LEVEL,
        }
    }

    /// The share of the next producer, of `industry`: the n-th of an industry counts PRODUCER_REPEAT^(n-1), and
    /// every one after the first half again while the player has no tile that sells and is in debt.
    fn next(&mut self, industry: u8) -> f64 {
        let n = self.per_industry[industry as usize];
        self.per_industry[industry as usize] += 1;
        self.producers += 1;
        let alone = if self.no_seller_in_debt && self.producers > 1 {
            NO_SELLER_IN_DEBT
        } else {
            1.0
        };
        PRODUCER_REPEAT.powi(n) * alone
    }

    /// Lancashire and classic Brass, in the Rail Era: the share of the next producer, of `industry`
    /// ([`RAIL_PRODUCER_REPEAT`]).
    fn next_in_rail(&mut self, industry: u8) -> f64 {
        let n = self.per_industry[industry as usize];
        self.per_industry[industry as usize] += 1;
        RAIL_PRODUCER_REPEAT.powi(n)
    }
}

/// [`evaluate`] with no action under way taken into account.
fn evaluate_position(game: &Game, state: &State, player: u8) -> f64 {
    let birmingham = match &game.variant {
        Variant::Birmingham(config) => Some((config, Ctx::new(game, state, player))),
        Variant::Lancashire(_) => None,
    };
    // Lancashire's connections, made only when an own unflipped port or mill needs them.
    let mut lancashire_ctx: Option<Ctx> = None;
    // Per space, the sale prospect of an own unflipped tile that sells (Birmingham).
    let mut prospect = [0.0f64; MAX_SPACES];
    // Birmingham: the own unflipped producers counted so far.
    let mut waiting = Waiting::new(game, state, player);
    // Birmingham: the beer the player's tiles found sellable so far have not promised (see `sale_prospect`).
    let mut beer = birmingham.as_ref().map(|_| *state);
    let pl = &state.players[player as usize];
    let mut value = pl.vp as f64;
    // The player's tiles and links from the occupancy bitmasks, in ascending order as a scan of every space and
    // line would meet them (so the sums, and the searches, are the same).
    let mut own_tiles = state.occupancy.tiles_of[player as usize];
    while own_tiles != 0 {
        let s = own_tiles.trailing_zeros() as usize;
        own_tiles &= own_tiles - 1;
        let t = state.board[s];
        let vp = game.tile_spec(t.industry, t.level).map_or(0, |x| x.vp) as f64;
        if t.flipped {
            let twice = state.era == Era::Canal && t.level >= 2;
            value += if twice { 2.0 * vp } else { vp };
        } else {
            let sold = game.roles[t.industry as usize].sold;
            let chance = match &birmingham {
                Some((config, ctx)) if sold => {
                    let beer = beer.as_mut().expect("Birmingham's beer");
                    sale_prospect(game, config, beer, ctx, s as u8)
                }
                Some(_)
                    if game.players == 2
                        && game.produces(t.industry) == Some(crate::game::Resource::Beer) =>
                {
                    TWO_PLAYER_BREWERY
                }
                None if game.roles[t.industry as usize].port => {
                    let ctx = lancashire_ctx.get_or_insert_with(|| Ctx::new(game, state, player));
                    port_prospect(game, state, ctx, s)
                }
                None if sold => {
                    let ctx = lancashire_ctx.get_or_insert_with(|| Ctx::new(game, state, player));
                    mill_prospect(game, state, ctx, s as u8)
                }
                _ => 0.5,
            };
            let repeat = if birmingham.is_some() && !sold && game.produces(t.industry).is_some() {
                waiting.next(t.industry)
            } else if birmingham.is_none()
                && state.era == Era::Rail
                && game.produces(t.industry).is_some()
            {
                waiting.next_in_rail(t.industry)
            } else {
                1.0
            };
            let chance = chance * repeat;
            prospect[s] = chance;
            value += chance * vp;
            if !game.switches.money_vp {
                // Birmingham: part of the income the tile brings once flipped, for the rounds left (levels
                // are about half the track spaces). Without it a one-ply search passes rather than spend its
                // scarce money (£17 at the start) on tiles that pay only later. A producer flips only when
                // its last cube leaves, which the owner does not control: it counts a quarter.
                let income = game.tile_spec(t.industry, t.level).map_or(0, |x| x.income) as f64;
                let chance = if sold { chance } else { 0.25 * repeat };
                value += chance * INCOME_WEIGHT * (income / 2.0) * rounds_left(game, state) as f64;
            }
            if game.produces(t.industry) == Some(crate::game::Resource::Beer) {
                value += BARREL_VALUE * t.cubes as f64;
            }
        }
    }
    let mut own_links = state.occupancy.links_of[player as usize];
    while own_links != 0 {
        let line = &game.lines[own_links.trailing_zeros() as usize];
        own_links &= own_links - 1;
        let icons: i32 = line.ends.iter().map(|&e| link_icons(game, state, e)).sum();
        value += icons as f64;
        if birmingham.is_some() {
            // The icons own tiles will show once sold (B-19), as likely as their sale.
            for &e in line.ends.iter() {
                for s in game.locations[e as usize].spaces() {
                    let t = state.board[s as usize];
                    if prospect[s as usize] > 0.0 && game.roles[t.industry as usize].sold {
                        let icons = game
                            .tile_spec(t.industry, t.level)
                            .map_or(0, |x| x.link_icons);
                        value += prospect[s as usize] * icons as f64;
                    }
                }
            }
        }
    }
    if !state.is_terminal() {
        let level = state.income_level(game, player) as f64;
        value += INCOME_WEIGHT * level * rounds_left(game, state) as f64;
        if game.switches.intro {
            // The introductory game's end scores the income level as VP (L-54, B-22).
            value += level;
        }
        let below = (level - DEBT_LEVEL as f64).min(0.0);
        let weight = match birmingham {
            Some(_) => DEBT_WEIGHT,
            None => LANCASHIRE_DEBT_WEIGHT,
        };
        value -= weight * below * below * rounds_left(game, state) as f64;
        value += match birmingham {
            Some(_) => birmingham_money(game, state, player),
            None => money_value(game, state, player),
        };
    }
    value
}

/// Own evaluation minus the best opponent's.
fn advantage(game: &Game, state: &State, player: u8) -> f64 {
    let mine = evaluate(game, state, player);
    let best_other = (0..game.players)
        .filter(|&q| q != player)
        .map(|q| evaluate(game, state, q))
        .fold(f64::NEG_INFINITY, f64::max);
    mine - best_other
}

/// The deals of what the player cannot see over which Greedy averages an action that draws from a face-down
/// pile (the Distant Cotton Market's, L-42).
const HIDDEN_DEALS: usize = 8;

/// One-ply greedy: the action whose result has the best [`evaluate`] advantage over the best opponent
/// (in Birmingham a pass less [`PASS_COST`]; an action that draws a hidden tile averaged over
/// [`HIDDEN_DEALS`] deals of what the player cannot see); ties broken at random.
#[derive(Clone, Debug, Default)]
pub struct GreedyAgent;

impl GreedyAgent {
    /// [`choose`](Agent::choose), with every legal action and its value (the advantage Greedy compares, a
    /// pass's cost included) written to `scores` in the order of the legal actions: for tools that explain
    /// Greedy's choice or build on it (the `rescue` example). The choice and the draws from `rng` are
    /// those of `choose`.
    pub fn choose_scored(
        &self,
        game: &Game,
        state: &State,
        rng: &mut Rng,
        scores: &mut Vec<(u16, f64)>,
    ) -> u16 {
        scores.clear();
        let ids = legal(game, state);
        scores.reserve(ids.len());
        let me = state.current_player(game).expect("a player to move");
        let birmingham = matches!(game.variant, Variant::Birmingham(_));
        let pass = game.encode(Action::Pass);
        let mut best = f64::NEG_INFINITY;
        let mut choice = ids[0];
        let mut ties = 0u64;
        // What the player cannot see, dealt again for actions that draw from a face-down pile.
        let mut redealer: Option<Redealer> = None;
        for &id in &ids {
            let action = game.decode(id as i64).expect("legal id");
            let mut next = *state;
            apply_unchecked(game, &mut next, action);
            let mut v = if crate::games::hidden_order_differs(state, &next) {
                // The action drew the top tile of a face-down pile (a sale to the Distant Cotton Market,
                // L-42): it is worth the mean over deals of what the player cannot see. Played on the state
                // itself, one ply read the hidden tile, and a tile that would end the sale kept Greedy from
                // ever trying it (docs/agents.md).
                let r = redealer.get_or_insert_with(|| Redealer::new(game, state, me));
                let mut sum = 0.0;
                for _ in 0..HIDDEN_DEALS {
                    let mut dealt = r.deal(game, rng.next_u64());
                    apply_unchecked(game, &mut dealt, action);
                    sum += advantage(game, &dealt, me);
                }
                sum / HIDDEN_DEALS as f64
            } else {
                advantage(game, &next, me)
            };
            if birmingham && id == pass {
                v -= PASS_COST;
            }
            scores.push((id, v));
            if v > best + 1e-9 {
                best = v;
                choice = id;
                ties = 1;
            } else if (v - best).abs() <= 1e-9 {
                ties += 1;
                if rng.below(ties) == 0 {
                    choice = id;
                }
            }
        }
        choice
    }
}

impl Agent for GreedyAgent {
    fn choose(&self, game: &Game, state: &State, rng: &mut Rng) -> u16 {
        self.choose_scored(game, state, rng, &mut Vec::new())
    }
    fn name(&self) -> String {
        "greedy".into()
    }
}

/// Budget and parameters of [`MctsAgent`].
#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// Iterations per decision (each: one determinisation, one tree descent, one playout).
    pub iterations: u32,
    /// Optional wall-clock limit per decision; results then depend on the machine's speed.
    pub time_limit: Option<Duration>,
    /// UCB exploration constant (rewards are in [0, 1]).
    pub exploration: f64,
    /// Random playout length before the position is scored with [`evaluate`]; 0 plays to the end.
    pub rollout_depth: u32,
    /// How the playouts draw their random moves (the default `List` searches as earlier releases did).
    pub sampler: Sampler,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 1000,
            time_limit: None,
            exploration: 0.7,
            rollout_depth: 40,
            sampler: Sampler::List,
        }
    }
}

/// Single-observer information-set MCTS: each iteration redraws what the searching player cannot see
/// (`resample_hidden`), descends one shared tree of action ids by UCB among the actions legal in that
/// determinisation (counting availability), expands one action, plays random moves for `rollout_depth`
/// decisions, and backs up each player's reward (1 shared among winners at the end, otherwise the rank of
/// [`evaluate`] scaled to [0, 1]).
#[derive(Clone, Debug, Default)]
pub struct MctsAgent {
    pub config: MctsConfig,
}

/// One root action of an MCTS search: how often the search tried it and its mean reward for the player to move
/// (1 a sure win, 0 a sure loss; shared wins and the evaluation's ranks in between).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootVisit {
    pub action: u16,
    pub visits: u32,
    pub mean: f64,
}

struct Node {
    action: u16,
    /// The player who chose `action` (whose reward this node accumulates).
    player: u8,
    visits: u32,
    available: u32,
    reward: f64,
    children: Vec<u32>,
}

impl MctsAgent {
    pub fn new(config: MctsConfig) -> MctsAgent {
        MctsAgent { config }
    }

    fn rewards(game: &Game, state: &State) -> [f64; 4] {
        let n = game.players as usize;
        let mut r = [0.0; 4];
        if state.is_terminal() {
            let winners = apply::winners(game, state);
            for &w in &winners {
                r[w as usize] = 1.0 / winners.len() as f64;
            }
            return r;
        }
        let mut values = [0.0; 4];
        for (p, v) in values.iter_mut().enumerate().take(n) {
            *v = evaluate(game, state, p as u8);
        }
        let values = &values[..n];
        for p in 0..n {
            let below = values.iter().filter(|&&v| v < values[p]).count() as f64;
            let equal = values.iter().filter(|&&v| v == values[p]).count() as f64 - 1.0;
            r[p] = (below + 0.5 * equal) / (n as f64 - 1.0);
        }
        r
    }
}

/// The legal `ids` of a tree step that no child of `node` holds yet (into `untried`); each child holding one of
/// the others counts the step as one more time it was available. `child_of` (per action id, u32::MAX for none)
/// is set for the node's children and cleared again, so a step costs its children plus its ids, not their
/// product.
fn untried_ids(
    nodes: &mut [Node],
    node: usize,
    ids: &[u16],
    child_of: &mut [u32],
    untried: &mut Vec<u16>,
) {
    for &c in &nodes[node].children {
        child_of[nodes[c as usize].action as usize] = c;
    }
    untried.clear();
    for &id in ids {
        match child_of[id as usize] {
            u32::MAX => untried.push(id),
            c => nodes[c as usize].available += 1,
        }
    }
    for &c in &nodes[node].children {
        child_of[nodes[c as usize].action as usize] = u32::MAX;
    }
}

impl MctsAgent {
    /// One search from `root_state` (not over): each root action it tried, with its visits and its mean reward
    /// for the player to move, in the order they were first tried. `choose` picks the most visited (then the
    /// best mean); `brass serve` shows them all.
    pub fn search(&self, game: &Game, root_state: &State, rng: &mut Rng) -> Vec<RootVisit> {
        self.search_or_stop(game, root_state, rng, &AtomicBool::new(false))
            .expect("nothing stops it")
    }

    /// [`MctsAgent::search`], given up (`None`) once `stop` is set (looked at every
    /// [`STOP_CHECK_ITERATIONS`] iterations, without touching `rng`: a search not stopped is the same).
    pub fn search_or_stop(
        &self,
        game: &Game,
        root_state: &State,
        rng: &mut Rng,
        stop: &AtomicBool,
    ) -> Option<Vec<RootVisit>> {
        let root_ids = legal(game, root_state);
        let me = root_state.current_player(game).expect("a player to move");
        let cfg = &self.config;
        let started = Instant::now();
        let mut nodes = vec![Node {
            action: u16::MAX,
            player: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
            children: Vec::new(),
        }];
        let mut ids = Vec::with_capacity(128);
        let mut path = Vec::with_capacity(64);
        // Per action id, the current node's child holding it (`untried_ids`) and whether the id is legal here:
        // set for one tree step and cleared after it.
        let mut child_of = vec![u32::MAX; game.num_actions()];
        let mut is_legal = vec![false; game.num_actions()];
        let mut redealer = Redealer::new(game, root_state, me);
        let mut untried = Vec::with_capacity(128);
        for it in 0..cfg.iterations {
            if it % STOP_CHECK_ITERATIONS == 0 && stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(limit) = cfg.time_limit {
                if it > 0 && started.elapsed() >= limit {
                    break;
                }
            }
            let mut state = redealer.deal(game, rng.next_u64());
            let mut node = 0usize;
            path.clear();
            path.push(0usize);
            // Selection and expansion.
            while !state.is_terminal() {
                ids.clear();
                rules::legal_actions(game, &state, &mut ids);
                let mover = state.current_player(game).expect("player");
                untried_ids(&mut nodes, node, &ids, &mut child_of, &mut untried);
                if !untried.is_empty() {
                    let id = untried[rng.below(untried.len() as u64) as usize];
                    let child = nodes.len();
                    nodes.push(Node {
                        action: id,
                        player: mover,
                        visits: 0,
                        available: 1,
                        reward: 0.0,
                        children: Vec::new(),
                    });
                    nodes[node].children.push(child as u32);
                    apply_unchecked(game, &mut state, game.decode(id as i64).expect("legal"));
                    path.push(child);
                    break;
                }
                let mut best = f64::NEG_INFINITY;
                let mut pick = 0usize;
                for &id in &ids {
                    is_legal[id as usize] = true;
                }
                for &c in &nodes[node].children {
                    let ch = &nodes[c as usize];
                    if !is_legal[ch.action as usize] {
                        continue;
                    }
                    let mean = ch.reward / ch.visits.max(1) as f64;
                    let ucb = mean
                        + cfg.exploration
                            * ((ch.available.max(1) as f64).ln() / ch.visits.max(1) as f64).sqrt();
                    if ucb > best {
                        best = ucb;
                        pick = c as usize;
                    }
                }
                for &id in &ids {
                    is_legal[id as usize] = false;
                }
                node = pick;
                apply_unchecked(
                    game,
                    &mut state,
                    game.decode(nodes[node].action as i64).expect("legal"),
                );
                path.push(node);
            }
            // Playout.
            let mut depth = 0;
            while !state.is_terminal() && (cfg.rollout_depth == 0 || depth < cfg.rollout_depth) {
                let id = cfg.sampler.pick(game, &state, rng, &mut ids);
                apply_unchecked(game, &mut state, game.decode(id as i64).expect("legal"));
                depth += 1;
            }
            let reward = Self::rewards(game, &state);
            for &n in &path {
                let nd = &mut nodes[n];
                nd.visits += 1;
                if nd.player != NONE {
                    nd.reward += reward[nd.player as usize];
                }
            }
        }
        Some(root_visits(&nodes, &root_ids))
    }
}

/// The root's children that hold an action legal at the root, as [`RootVisit`]s in the order they were made.
fn root_visits(nodes: &[Node], root_ids: &[u16]) -> Vec<RootVisit> {
    nodes[0]
        .children
        .iter()
        .map(|&c| &nodes[c as usize])
        .filter(|ch| root_ids.contains(&ch.action))
        .map(|ch| RootVisit {
            action: ch.action,
            visits: ch.visits,
            mean: ch.reward / ch.visits.max(1) as f64,
        })
        .collect()
}

/// A choice that may take this long or longer is made where a caller can stop it ([`Agent::may_take_long`]):
/// watching for a stop costs the binding a thread of its own a call — tens of µs, by a rough check (40 alternating
/// calls of 3 ms and 12 ms searches, watched and not, medians within 0.98–1.03×; not a `brass bench` figure) —
/// nothing beside a search this long.
pub const LONG_CHOICE: Duration = Duration::from_millis(10);

/// MCTS iterations that take about [`LONG_CHOICE`] (some 12 µs each in a Birmingham 2p middle game): the
/// default search of 1,000 is watched.
const LONG_MCTS_ITERATIONS: u32 = 1000;

/// How often (in iterations) a random-rollout search looks at its stop flag: a few milliseconds of search at
/// most, an atomic load that costs nothing beside them.
pub const STOP_CHECK_ITERATIONS: u32 = 16;

impl Agent for MctsAgent {
    fn choose(&self, game: &Game, root_state: &State, rng: &mut Rng) -> u16 {
        self.choose_or_stop(game, root_state, rng, &AtomicBool::new(false))
            .expect("nothing stops it")
    }
    fn choose_or_stop(
        &self,
        game: &Game,
        root_state: &State,
        rng: &mut Rng,
        stop: &AtomicBool,
    ) -> Option<u16> {
        let root_ids = legal(game, root_state);
        if root_ids.len() == 1 {
            return Some(root_ids[0]);
        }
        let mut best = (0u32, f64::NEG_INFINITY, root_ids[0]);
        for visit in self.search_or_stop(game, root_state, rng, stop)? {
            if (visit.visits, visit.mean) > (best.0, best.1) {
                best = (visit.visits, visit.mean, visit.action);
            }
        }
        Some(best.2)
    }
    fn may_take_long(&self) -> bool {
        match self.config.time_limit {
            Some(limit) => limit >= LONG_CHOICE,
            None => self.config.iterations >= LONG_MCTS_ITERATIONS,
        }
    }
    fn name(&self) -> String {
        match self.config.time_limit {
            Some(t) => format!(
                "mcts({}ms{})",
                t.as_millis(),
                sampler_suffix(self.config.sampler)
            ),
            None => format!(
                "mcts({}{})",
                self.config.iterations,
                sampler_suffix(self.config.sampler)
            ),
        }
    }
}

/// ", draw" in an agent's name when it does not use the default sampler.
fn sampler_suffix(sampler: Sampler) -> String {
    match sampler {
        Sampler::List => String::new(),
        Sampler::Draw => ", draw".into(),
    }
}

/// The result of one game played by agents.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The deal seed (the game record's seed).
    pub seed: u64,
    pub actions: Vec<u16>,
    /// Final VP per player.
    pub scores: Vec<i32>,
    /// The winners after tie-breaks (several share a win).
    pub winners: Vec<u8>,
    /// Each player's place after tie-breaks, 0 first (`apply::placings`).
    pub placings: Vec<u8>,
    /// Each player's zero-sum result (`apply::returns`).
    pub returns: Vec<f64>,
}

/// The deal seed and agents' RNG of game `index` of a self-play run seeded with `seed`.
pub fn selfplay_seeds(seed: u64, index: u64) -> (u64, Rng) {
    let mut r = Rng(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407) ^ 0x5EED);
    let deal = r.next_u64();
    (deal, Rng(r.next_u64()))
}

/// Play games `first .. first + games` in parallel (0 threads: all cores). With `rotate`, game `i` seats
/// agent `(p + i) mod players` as player `p`, so every agent plays every seat equally often.
pub fn play_games(
    game: &Game,
    agents: &[&dyn Agent],
    seed: u64,
    first: u64,
    games: u64,
    rotate: bool,
    threads: usize,
) -> Vec<GameResult> {
    let stop = AtomicBool::new(false);
    let indices = first..first + games;
    play_games_or_stop(game, agents, seed, indices, rotate, threads, &stop)
        .expect("nothing stops it")
}

/// [`play_games`] of the games `indices`, given up (`None`) once `stop` is set: every game looks at it between
/// decisions, and a search that may take long (MCTS) within its iterations, so a caller's Ctrl-C is answered in
/// milliseconds.
pub fn play_games_or_stop(
    game: &Game,
    agents: &[&dyn Agent],
    seed: u64,
    indices: std::ops::Range<u64>,
    rotate: bool,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<GameResult>> {
    use rayon::prelude::*;
    let n = game.players as usize;
    let run = || {
        indices
            .into_par_iter()
            .map(|i| {
                let seats: Vec<&dyn Agent> = (0..n)
                    .map(|p| {
                        if rotate {
                            agents[(p + i as usize) % n]
                        } else {
                            agents[p]
                        }
                    })
                    .collect();
                let (deal, rng) = selfplay_seeds(seed, i);
                play_dealt(game, &seats, deal, rng, stop, |_, _, _| {})
            })
            .collect()
    };
    if threads == 0 {
        run()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        }
    }
}

/// Play one game with `seats[p]` choosing for player `p`. Each decision's agent RNG is drawn from the
/// game's RNG, so the game is reproducible from (seed, index).
pub fn play_game(game: &Game, seats: &[&dyn Agent], seed: u64, index: u64) -> GameResult {
    let (deal, rng) = selfplay_seeds(seed, index);
    play_dealt(
        game,
        seats,
        deal,
        rng,
        &AtomicBool::new(false),
        |_, _, _| {},
    )
    .expect("nothing stops it")
}

/// Play the game dealt from `deal`, each decision's agent RNG drawn from `rng`. `observe(state, player,
/// action)` sees every decision before it is applied. Returns `None` if `stop` is set: it is checked
/// between decisions, so a long run can be cancelled without waiting for its games to end.
pub fn play_dealt(
    game: &Game,
    seats: &[&dyn Agent],
    deal: u64,
    mut rng: Rng,
    stop: &AtomicBool,
    mut observe: impl FnMut(&State, u8, u16),
) -> Option<GameResult> {
    let mut state = apply::new_state(game, deal);
    let mut actions = Vec::with_capacity(256);
    while !state.is_terminal() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let p = state.current_player(game).expect("player");
        let mut decision_rng = Rng(rng.next_u64());
        let id = seats[p as usize].choose_or_stop(game, &state, &mut decision_rng, stop)?;
        observe(&state, p, id);
        // Native agents choose from the legal actions; checking it again costs a tenth of a random game, so
        // only debug builds (every test) check it, and the state's invariants with it.
        if cfg!(debug_assertions) {
            apply::apply(game, &mut state, id as i64).expect("agents choose legal actions");
        } else {
            apply_unchecked(
                game,
                &mut state,
                game.decode(id as i64).expect("an action id"),
            );
        }
        actions.push(id);
    }
    Some(GameResult {
        seed: deal,
        actions,
        scores: state.players[..game.players as usize]
            .iter()
            .map(|p| p.vp)
            .collect(),
        winners: apply::winners(game, &state),
        placings: apply::placings(game, &state),
        returns: apply::returns(game, &state)[..game.players as usize].to_vec(),
    })
}

impl GameResult {
    /// The game record JSON (docs/state-format.md).
    pub fn record(&self, game: &Game) -> String {
        crate::json::record_json(
            game,
            Some(self.seed),
            None,
            &self.actions,
            crate::json::RecordMoves::Ids,
        )
    }
}
