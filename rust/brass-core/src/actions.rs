//! Action ids and their notation (docs/actions.md): a fixed id space per configuration.
use crate::error::{Error, Result};
use crate::game::{BeerSource, Game, SaleTarget, NONE};

/// Cards a Scout discards (B-17).
pub const SCOUT_CARDS: u8 = 3;

/// A decoded action id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Build {
        space: u8,
        industry: u8,
        double: bool,
    },
    Link {
        line: u8,
    },
    Develop {
        industry: u8,
    },
    /// Sell the tile on space `tile` to `target` (L-41, L-42).
    Sell {
        tile: u8,
        target: SaleTarget,
    },
    Loan {
        amount: u8,
    },
    /// Discard 3 cards for a wild location and a wild industry card (B-17).
    Scout,
    Pass,
    Coal {
        space: u8,
    },
    Iron {
        space: u8,
    },
    /// Where the next beer barrel comes from (B-8, B-25).
    Beer {
        source: BeerSource,
    },
    Stop,
    Card {
        kind: u8,
    },
    Remove {
        space: u8,
    },
}

impl Game {
    /// The id of an action. Panics only on an action that cannot exist in this configuration (a bug).
    pub fn encode(&self, action: Action) -> u16 {
        let l = &self.layout;
        match action {
            Action::Build {
                space,
                industry,
                double,
            } => {
                let i = l.build_index[space as usize][industry as usize];
                debug_assert!(i != u16::MAX);
                if double {
                    l.build_double + i
                } else {
                    l.build + i
                }
            }
            Action::Link { line } => l.link + line as u16,
            Action::Develop { industry } => l.develop + industry as u16,
            Action::Sell { tile, target } => {
                let m = l.sell_index[tile as usize] as u16;
                let t = l.target_index(target).expect("a target of this game") as u16;
                l.sell + m * l.sale_targets.len() as u16 + t
            }
            Action::Loan { amount } => {
                let i = self.loan_amounts.iter().position(|&a| a == amount);
                l.loan + i.expect("a loan amount of this game") as u16
            }
            Action::Scout => l.scout,
            Action::Pass => l.pass,
            Action::Coal { space } => l.coal + l.coal_index[space as usize] as u16,
            Action::Iron { space } => l.iron + l.iron_index[space as usize] as u16,
            Action::Beer { source } => {
                l.beer + l.beer_index(source).expect("a beer source of this game") as u16
            }
            Action::Stop => l.stop,
            Action::Card { kind } => l.card + kind as u16,
            Action::Remove { space } => l.remove + space as u16,
        }
    }

    /// The action of an id, or an IllegalAction error for an id outside `0..num_actions`.
    pub fn decode(&self, id: i64) -> Result<Action> {
        let l = &self.layout;
        if id < 0 || id >= l.total as i64 {
            return Err(Error::IllegalAction(format!(
                "action id {id} is out of range: ids go from 0 to {}",
                l.total - 1
            )));
        }
        let id = id as u16;
        Ok(if id < l.build_double {
            let (space, industry) = l.build_pairs[(id - l.build) as usize];
            Action::Build {
                space,
                industry,
                double: false,
            }
        } else if id < l.link {
            let (space, industry) = l.build_pairs[(id - l.build_double) as usize];
            Action::Build {
                space,
                industry,
                double: true,
            }
        } else if id < l.develop {
            Action::Link {
                line: (id - l.link) as u8,
            }
        } else if id < l.sell {
            Action::Develop {
                industry: (id - l.develop) as u8,
            }
        } else if id < l.loan {
            let per = l.sale_targets.len() as u16;
            let (m, t) = ((id - l.sell) / per, (id - l.sell) % per);
            Action::Sell {
                tile: l.sell_spaces[m as usize],
                target: l.sale_targets[t as usize],
            }
        } else if id < l.scout {
            Action::Loan {
                amount: self.loan_amounts[(id - l.loan) as usize],
            }
        } else if id < l.pass {
            Action::Scout
        } else if id < l.coal {
            Action::Pass
        } else if id < l.iron {
            Action::Coal {
                space: l.coal_spaces[(id - l.coal) as usize],
            }
        } else if id < l.beer {
            Action::Iron {
                space: l.iron_spaces[(id - l.iron) as usize],
            }
        } else if id < l.stop {
            Action::Beer {
                source: l.beer_sources[(id - l.beer) as usize],
            }
        } else if id < l.card {
            Action::Stop
        } else if id < l.remove {
            Action::Card {
                kind: (id - l.card) as u8,
            }
        } else {
            Action::Remove {
                space: (id - l.remove) as u8,
            }
        })
    }

    /// The notation of an id (docs/actions.md).
    pub fn action_name(&self, id: i64) -> Result<String> {
        Ok(self.notation(self.decode(id)?))
    }

    /// The notation of an action.
    pub fn notation(&self, action: Action) -> String {
        let space = |s: u8| self.spaces[s as usize].name.as_str();
        match action {
            Action::Build {
                space: s,
                industry,
                double,
            } => format!(
                "build {} {}{}",
                self.industries[industry as usize],
                space(s),
                if double { " double" } else { "" }
            ),
            Action::Link { line } => format!("link {}", self.lines[line as usize].name),
            Action::Develop { industry } => {
                format!("develop {}", self.industries[industry as usize])
            }
            Action::Sell { tile, target } => {
                let target = match target {
                    SaleTarget::Port(port) => space(port),
                    SaleTarget::Distant => "distant",
                    SaleTarget::Merchant(m) => self.merchant_space_name(m),
                };
                format!("sell {} {}", space(tile), target)
            }
            Action::Loan { amount } => format!("loan {amount}"),
            Action::Scout => "scout".into(),
            Action::Pass => "pass".into(),
            Action::Coal { space: s } => format!("coal {}", space(s)),
            Action::Iron { space: s } => format!("iron {}", space(s)),
            Action::Beer { source } => match source {
                BeerSource::Brewery(s) => format!("beer {}", space(s)),
                BeerSource::Merchant(m) => {
                    format!("beer {}", self.merchant_space_name(m))
                }
            },
            Action::Stop => "stop".into(),
            Action::Card { kind } => format!("card {}", self.card_names[kind as usize]),
            Action::Remove { space: s } => format!("remove {}", space(s)),
        }
    }

    /// Parse a notation into an id. Case and runs of white space are normalised; anything else that is
    /// not exactly a notation of this configuration is a Notation error.
    pub fn parse_action(&self, text: &str) -> Result<u16> {
        const MAX_LEN: usize = 200;
        let shown: String = text.chars().take(60).collect();
        let err = |why: &str| Error::Notation(format!("`{shown}` is not an action: {why}"));
        if text.len() > MAX_LEN {
            return Err(Error::Notation(format!(
                "notation too long ({} bytes; the longest is well under {MAX_LEN})",
                text.len()
            )));
        }
        let lower = text.to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let space = |w: &str| -> Result<u8> {
            self.space_by_name(w).ok_or_else(|| {
                err(&format!(
                    "`{w}` is not a space (spaces look like `{}`)",
                    self.spaces[0].name
                ))
            })
        };
        let industry = |w: &str| -> Result<u8> {
            self.industry_by_name(w).ok_or_else(|| {
                err(&format!(
                    "`{w}` is not an industry ({})",
                    self.industries.join(", ")
                ))
            })
        };
        let action = match words.as_slice() {
            ["build", i, s] | ["build", i, s, "double"] => {
                let (industry, s) = (industry(i)?, space(s)?);
                if self.layout.build_index[s as usize][industry as usize] == u16::MAX {
                    return Err(err(&format!(
                        "space {} does not show {}",
                        self.spaces[s as usize].name, self.industries[industry as usize]
                    )));
                }
                let double = words.len() == 4;
                // B-23: a game without the double build has no such ids.
                if double && self.layout.build_double == self.layout.link {
                    return Err(err("this game has no double build"));
                }
                Action::Build {
                    space: s,
                    industry,
                    double,
                }
            }
            ["link", line] => Action::Link {
                line: self.line_by_name(line).ok_or_else(|| {
                    err(&format!(
                        "`{line}` is not a line (lines look like `{}`)",
                        self.lines[0].name
                    ))
                })?,
            },
            ["develop", i] => Action::Develop {
                industry: industry(i)?,
            },
            ["sell", m, t] => self.parse_sale(m, t, &err, &space)?,
            ["scout"] if self.layout.pass > self.layout.scout => Action::Scout,
            ["beer", s] if self.layout.stop > self.layout.beer => {
                self.parse_beer(s, &err, &space)?
            }
            ["loan", n] => match self.loan_amounts.iter().find(|a| a.to_string() == *n) {
                Some(&amount) => Action::Loan { amount },
                None => {
                    let list: Vec<String> = self
                        .loan_amounts
                        .iter()
                        .map(|a| format!("`loan {a}`"))
                        .collect();
                    return Err(err(&format!(
                        "loans are {}",
                        crate::catalog::spoken_words(&list)
                    )));
                }
            },
            ["pass"] => Action::Pass,
            ["stop"] => Action::Stop,
            ["coal", s] => {
                let s = space(s)?;
                if self.layout.coal_index[s as usize] == NONE {
                    return Err(err("that space cannot hold a coal mine"));
                }
                Action::Coal { space: s }
            }
            ["iron", s] => {
                let s = space(s)?;
                if self.layout.iron_index[s as usize] == NONE {
                    return Err(err("that space cannot hold an iron works"));
                }
                Action::Iron { space: s }
            }
            ["card", c] => Action::Card {
                kind: self
                    .card_by_name(c)
                    .ok_or_else(|| err(&format!("`{c}` is not a card (a town or an industry)")))?,
            },
            ["remove", s] => Action::Remove { space: space(s)? },
            [] => return Err(err("it is empty")),
            _ => return Err(err(&self.shape_error(&words))),
        };
        Ok(self.encode(action))
    }

    /// Why words that match no notation's shape are not an action: for a known first word, how that action
    /// is written (and a name split in two words, `cotton mill` for `cotton_mill`); else the first words.
    fn shape_error(&self, words: &[&str]) -> String {
        let has_scout = self.layout.pass > self.layout.scout;
        let has_beer = self.layout.stop > self.layout.beer;
        let form = match words[0] {
            "build" => "`build <industry> <space>` (or `build <industry> <space> double`)",
            "link" => "`link <line>`",
            "develop" => "`develop <industry>`",
            "sell" => "`sell <space> <target>`",
            "loan" => "`loan <amount>`",
            "pass" => "`pass`",
            "stop" => "`stop`",
            "coal" => "`coal <space>`",
            "iron" => "`iron <space>`",
            "card" => "`card <card>`",
            "remove" => "`remove <space>`",
            "scout" if has_scout => "`scout`",
            "beer" if has_beer => "`beer <space>`",
            verb @ ("scout" | "beer") => return format!("`{verb}` is a move of Brass: Birmingham only"),
            _ => {
                return "expected one of build, link, develop, sell, loan, pass, coal, iron, stop, card, remove (and scout, beer in Birmingham)".into()
            }
        };
        let mut why = format!("`{}` is written {form}", words[0]);
        // Names are single words joined by `_`: find a run of the rest that spells one with spaces.
        for start in 1..words.len() {
            for end in (start + 2)..=words.len() {
                let joined = words[start..end].join("_");
                let known = self.industry_by_name(&joined).is_some()
                    || self.card_by_name(&joined).is_some()
                    || self.space_by_name(&joined).is_some();
                if known {
                    why.push_str(&format!(
                        "; names are one word: `{}` is `{joined}`",
                        words[start..end].join(" ")
                    ));
                    return why;
                }
            }
        }
        why
    }

    /// `sell <tile> <target>`: the tile's space must show an industry that sells, the target be one this game
    /// sells to (a port space, `distant`, or a merchant space).
    fn parse_sale(
        &self,
        m: &str,
        t: &str,
        err: &dyn Fn(&str) -> Error,
        space: &dyn Fn(&str) -> Result<u8>,
    ) -> Result<Action> {
        let tile = space(m)?;
        if self.layout.sell_index[tile as usize] == NONE {
            return Err(err(&format!(
                "{m} is not a space of an industry that sells"
            )));
        }
        let target = if t == "distant" {
            SaleTarget::Distant
        } else if let Some(slot) = self.merchant_space_by_name(t) {
            SaleTarget::Merchant(slot)
        } else {
            SaleTarget::Port(space(t)?)
        };
        if self.layout.target_index(target).is_none() {
            return Err(err(&format!("{t} is not a place this game sells to")));
        }
        Ok(Action::Sell { tile, target })
    }

    /// `beer <source>`: a space that can hold a brewery, or a merchant space.
    fn parse_beer(
        &self,
        s: &str,
        err: &dyn Fn(&str) -> Error,
        space: &dyn Fn(&str) -> Result<u8>,
    ) -> Result<Action> {
        let source = match self.merchant_space_by_name(s) {
            Some(slot) => BeerSource::Merchant(slot),
            None => BeerSource::Brewery(space(s)?),
        };
        if self.layout.beer_index(source).is_none() {
            return Err(err("that space cannot hold a brewery"));
        }
        Ok(Action::Beer { source })
    }
}
