//! The action-id layout of a configuration (docs/actions.md, "Action ids"): blocks of ids in a fixed order,
//! each sized from the data, so every configuration has a fixed, documented id space. A block a game does
//! not have is empty, so the ids of the other blocks do not move.
use crate::game::parts::{Space, MAX_INDUSTRIES, NONE};

/// Where a sale goes (L-41, L-42): the Sell block has one id per (tile space, target).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SaleTarget {
    /// A port tile on this space (Lancashire).
    Port(u8),
    /// The Distant Cotton Market (Lancashire).
    Distant,
    /// The merchant tile on this merchant space (Birmingham; spaces numbered in `games::birmingham`).
    Merchant(u8),
}

/// Where a beer barrel comes from (B-8, B-25): the Beer block has one id per source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BeerSource {
    /// A brewery tile on this space.
    Brewery(u8),
    /// The barrel beside the merchant tile on this merchant space.
    Merchant(u8),
}

/// The first id of each block, the block sizes, and the tables that decode ids.
#[derive(Clone, Debug)]
pub struct Layout {
    pub build: u16,
    pub build_double: u16,
    pub link: u16,
    pub develop: u16,
    pub sell: u16,
    pub loan: u16,
    pub scout: u16,
    pub pass: u16,
    pub coal: u16,
    pub iron: u16,
    pub beer: u16,
    pub stop: u16,
    pub card: u16,
    pub remove: u16,
    pub total: u16,
    /// (space, industry) of each BUILD id.
    pub build_pairs: Vec<(u8, u8)>,
    /// Per space and industry, the index into `build_pairs`, or u16::MAX.
    pub build_index: Vec<[u16; MAX_INDUSTRIES]>,
    /// Spaces showing an industry that is sold (the tiles of a sale), in space order.
    pub sell_spaces: Vec<u8>,
    /// The targets of a sale, in id order.
    pub sale_targets: Vec<SaleTarget>,
    pub coal_spaces: Vec<u8>,
    pub iron_spaces: Vec<u8>,
    /// The sources of a barrel, in id order.
    pub beer_sources: Vec<BeerSource>,
    /// Per space, its index in the lists above, or NONE.
    pub sell_index: Vec<u8>,
    pub coal_index: Vec<u8>,
    pub iron_index: Vec<u8>,
}

/// What the layout is built from.
pub(crate) struct LayoutSpec<'a> {
    pub spaces: &'a [Space],
    pub lines: usize,
    pub industries: usize,
    pub cards: usize,
    /// Bitmask of the industries that are sold.
    pub sold: u8,
    pub sale_targets: Vec<SaleTarget>,
    pub coal_producer: u8,
    pub iron_producer: u8,
    pub loans: usize,
    pub double_build: bool,
    pub scout: bool,
    pub beer_sources: Vec<BeerSource>,
}

/// The spaces showing any industry of `mask`, and per space its index in that list (or NONE).
fn spaces_showing(spaces: &[Space], mask: u8) -> (Vec<u8>, Vec<u8>) {
    let list: Vec<u8> = (0..spaces.len() as u8)
        .filter(|&s| spaces[s as usize].icons & mask != 0)
        .collect();
    let mut index = vec![NONE; spaces.len()];
    for (i, &s) in list.iter().enumerate() {
        index[s as usize] = i as u8;
    }
    (list, index)
}

fn bit(industry: u8) -> u8 {
    if industry == NONE {
        0
    } else {
        1 << industry
    }
}

impl Layout {
    pub(crate) fn new(spec: LayoutSpec<'_>) -> Layout {
        let spaces = spec.spaces;
        let mut build_pairs = Vec::new();
        let mut build_index = vec![[u16::MAX; MAX_INDUSTRIES]; spaces.len()];
        for (s, space) in spaces.iter().enumerate() {
            for i in 0..spec.industries {
                if space.icons & (1 << i) != 0 {
                    build_index[s][i] = build_pairs.len() as u16;
                    build_pairs.push((s as u8, i as u8));
                }
            }
        }
        // Legal-action generation keeps build pairs in two 64-bit words (`rules::BUILD_PAIR_WORDS`).
        assert!(
            build_pairs.len() <= 128,
            "more than 128 (space, industry) pairs"
        );
        let (sell_spaces, sell_index) = spaces_showing(spaces, spec.sold);
        let (coal_spaces, coal_index) = spaces_showing(spaces, bit(spec.coal_producer));
        let (iron_spaces, iron_index) = spaces_showing(spaces, bit(spec.iron_producer));
        let builds = build_pairs.len() as u16;
        let build = 0u16;
        let build_double = build + builds;
        let link = build_double + if spec.double_build { builds } else { 0 };
        let develop = link + spec.lines as u16;
        let sell = develop + spec.industries as u16;
        // Legal-action generation keeps a tile's sale targets in a u64 bitmask (`games::sale_target_mask`).
        assert!(spec.sale_targets.len() <= 64, "more than 64 sale targets");
        let loan = sell + (sell_spaces.len() * spec.sale_targets.len()) as u16;
        let scout = loan + spec.loans as u16;
        let pass = scout + spec.scout as u16;
        let coal = pass + 1;
        let iron = coal + coal_spaces.len() as u16;
        let beer = iron + iron_spaces.len() as u16;
        let stop = beer + spec.beer_sources.len() as u16;
        let card = stop + 1;
        let remove = card + spec.cards as u16;
        let total = remove + spaces.len() as u16;
        Layout {
            build,
            build_double,
            link,
            develop,
            sell,
            loan,
            scout,
            pass,
            coal,
            iron,
            beer,
            stop,
            card,
            remove,
            total,
            build_pairs,
            build_index,
            sell_spaces,
            sale_targets: spec.sale_targets,
            coal_spaces,
            iron_spaces,
            beer_sources: spec.beer_sources,
            sell_index,
            coal_index,
            iron_index,
        }
    }

    /// The index of a sale target in the Sell block, if the game has it.
    pub fn target_index(&self, target: SaleTarget) -> Option<usize> {
        self.sale_targets.iter().position(|&t| t == target)
    }

    /// The index of a beer source in the Beer block, if the game has it.
    pub fn beer_index(&self, source: BeerSource) -> Option<usize> {
        self.beer_sources.iter().position(|&t| t == source)
    }
}
