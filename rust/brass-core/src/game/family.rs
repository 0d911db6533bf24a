//! Which game a configuration plays: the catalog's family, the per-game configuration block ([`Variant`]) and
//! the per-game block of a position ([`Extra`]), with the few facts of the configuration that depend on the
//! game (its sale targets and beer sources, whether it has a double build or Scout). Types and set-up only;
//! the games' rules are dispatched in `games/` (docs/architecture.md, "Layers").
use crate::catalog::GameEntry;
use crate::data::DataFile;
use crate::error::{Error, Result};
use crate::game::layout::{BeerSource, SaleTarget};
use crate::game::parts::{Location, Options, Role, Space};
use crate::game::{birmingham, lancashire};

/// The rules family of a catalog entry (`games.json` `family`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Brass: Lancashire (Roxley 2018).
    Lancashire,
    /// The original Brass (Warfrog 2007): the Lancashire module with the classic switches.
    Classic,
    /// Brass: Birmingham (Roxley 2018).
    Birmingham,
}

impl Family {
    pub fn from_name(name: &str) -> Option<Family> {
        match name {
            "lancashire" => Some(Family::Lancashire),
            "classic" => Some(Family::Classic),
            "birmingham" => Some(Family::Birmingham),
            _ => None,
        }
    }
}

/// The per-game configuration block of a [`Game`].
#[derive(Clone, Debug)]
pub enum Variant {
    Lancashire(lancashire::Config),
    Birmingham(birmingham::Config),
}

/// The per-game block of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extra {
    Lancashire(lancashire::Extra),
    Birmingham(birmingham::Extra),
}

/// The configuration block of a family.
pub(crate) fn configure(
    family: Family,
    data: &DataFile,
    players: u8,
    flags: Options,
    locations: &[Location],
) -> Result<Variant> {
    Ok(match family {
        Family::Lancashire | Family::Classic => Variant::Lancashire(lancashire::configure(
            data,
            family == Family::Classic,
            players,
            flags.classic_deck,
            flags.virtual_link,
            locations,
        )?),
        Family::Birmingham => Variant::Birmingham(birmingham::configure(data, players, locations)?),
    })
}

/// The targets of the Sell block, in id order.
pub(crate) fn sale_targets(variant: &Variant, spaces: &[Space], roles: &[Role]) -> Vec<SaleTarget> {
    match variant {
        Variant::Lancashire(c) => lancashire::sale_targets(c, spaces, roles),
        Variant::Birmingham(c) => birmingham::sale_targets(c),
    }
}

/// The sources of the Beer block, in id order (none in a game without beer).
pub(crate) fn beer_sources(variant: &Variant, spaces: &[Space], brewery: u8) -> Vec<BeerSource> {
    match variant {
        Variant::Lancashire(_) => Vec::new(),
        Variant::Birmingham(c) => birmingham::beer_sources(c, spaces, brewery),
    }
}

/// Does the family have the double-action build (L-21; not in Birmingham, B-23)?
pub(crate) fn has_double_build(family: Family) -> bool {
    family != Family::Birmingham
}

/// Does the family have Scout (B-17)?
pub(crate) fn has_scout(family: Family) -> bool {
    family == Family::Birmingham
}

/// The error for an option value of a type the generic reader does not take (a `str` option).
pub(crate) fn refuse_option(entry: &GameEntry, key: &str, value: &serde_json::Value) -> Error {
    match Family::from_name(&entry.family) {
        Some(Family::Lancashire | Family::Classic) => lancashire::refuse_option(key, value),
        _ => Error::Config(format!("option `{key}` is not supported, not {value}")),
    }
}
