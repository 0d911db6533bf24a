//! Hand-built positions for rule tests.
#![allow(dead_code)]
use brass_core::game::{Era, FirstBuild, NONE};
use brass_core::state::{Decision, Tile};
use brass_core::{apply, json, rules, Game, State};
use std::collections::BTreeMap;

pub struct Pos {
    pub g: Game,
    pub s: State,
}

impl Pos {
    /// A quiet position: seat order 0, 1, …; player 0 to act with 2 actions in round 2 of the Canal Era;
    /// player 0's hand empty (tests give cards), the others as dealt; board, links and markets as at setup.
    pub fn new(players: i64) -> Pos {
        Pos::of("lancashire", players, &[])
    }

    /// The same quiet position for another game or options (`&[("intro", true)]`).
    pub fn of(name: &str, players: i64, options: &[(&str, bool)]) -> Pos {
        let options: BTreeMap<String, serde_json::Value> = options
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::Bool(*v)))
            .collect();
        Pos::quiet(Game::new(name, players, &options).unwrap())
    }

    fn quiet(g: Game) -> Pos {
        let mut s = apply::new_state(&g, 1);
        for p in 0..g.players {
            s.turn_order[p as usize] = p;
        }
        s.players[0].hand = [0; 32];
        s.round = 2;
        s.turn = 0;
        s.actions_left = 2;
        Pos { g, s }
    }
    /// A quiet Birmingham position (as [`Pos::new`]); the face-down set-up cards stay in `removed`.
    pub fn birmingham(players: i64) -> Pos {
        Pos::birmingham_with(players, &[])
    }
    pub fn birmingham_with(players: i64, options: &[(&str, bool)]) -> Pos {
        Pos::quiet(birmingham(players, options))
    }
    /// The same position in the Rail Era (no deck tile; Birmingham: the face-down cards are back in play).
    pub fn rail(mut self) -> Pos {
        self.s.era = Era::Rail;
        match self.s.extra {
            brass_core::games::Extra::Lancashire(ref mut e) => e.deck_tile = [0; 32],
            brass_core::games::Extra::Birmingham(_) => self.s.removed = [0; 32],
        }
        self
    }
    /// Birmingham: the merchant tile on a merchant space (`oxford/1`) and whether its barrel is there.
    pub fn merchant(&mut self, space: &str, kind: &str, beer: bool) -> &mut Self {
        let config = self.g.birmingham();
        let m = brass_core::games::birmingham::space_by_name(config, space)
            .unwrap_or_else(|| panic!("no merchant space {space}"));
        let k = brass_core::games::birmingham::TILE_KINDS
            .iter()
            .position(|x| *x == kind)
            .unwrap_or_else(|| panic!("no merchant tile {kind}"));
        let e = self.s.birmingham_mut();
        e.tile[m as usize] = k as u8;
        if beer {
            e.beer |= 1 << m;
        } else {
            e.beer &= !(1 << m);
        }
        self
    }
    /// Birmingham: every merchant space in use gets a blank tile (no sales, no barrels).
    pub fn blank_merchants(&mut self) -> &mut Self {
        let e = self.s.birmingham_mut();
        for t in &mut e.tile {
            if *t != NONE {
                *t = 0;
            }
        }
        e.beer = 0;
        self
    }
    pub fn space(&self, name: &str) -> u8 {
        self.g
            .space_by_name(name)
            .unwrap_or_else(|| panic!("no space {name}"))
    }
    pub fn line(&self, name: &str) -> u8 {
        self.g
            .line_by_name(name)
            .unwrap_or_else(|| panic!("no line {name}"))
    }
    pub fn ind(&self, name: &str) -> u8 {
        self.g.industry_by_name(name).unwrap()
    }
    /// Put a tile on the board (cubes as given; mines and works flipped when empty).
    pub fn tile(
        &mut self,
        space: &str,
        owner: u8,
        industry: &str,
        level: u8,
        cubes: u8,
    ) -> &mut Self {
        let industry = self.ind(industry);
        let role = self.g.roles[industry as usize];
        let flipped = (role.produces.is_some() && cubes == 0) || role.flips_when_built;
        let s = self.space(space);
        self.s.set_tile(
            s,
            Tile {
                owner,
                industry,
                level,
                flipped,
                cubes,
            },
        );
        if self.g.switches.first_build == FirstBuild::FirstOfGame {
            self.s.players[owner as usize].built_industry = true; // C-6: a tile on the board was built
        }
        self
    }
    pub fn flipped(&mut self, space: &str) -> &mut Self {
        let s = self.space(space);
        self.s.board[s as usize].flipped = true;
        self
    }
    pub fn link(&mut self, line: &str, owner: u8) -> &mut Self {
        let l = self.line(line);
        self.s.set_link(l, owner);
        self.s.players[owner as usize].links_left -= 1;
        self
    }
    pub fn hand(&mut self, player: u8, cards: &[&str]) -> &mut Self {
        let p = &mut self.s.players[player as usize];
        p.hand = [0; 32];
        for c in cards {
            p.hand[self
                .g
                .card_by_name(c)
                .unwrap_or_else(|| panic!("no card {c}")) as usize] += 1;
        }
        self
    }
    pub fn money(&mut self, player: u8, money: i32) -> &mut Self {
        self.s.players[player as usize].money = money;
        self
    }
    /// Take tiles off a player's mat so that `level` is the lowest left of `industry`.
    pub fn lowest(&mut self, player: u8, industry: &str, level: u8) -> &mut Self {
        let i = self.ind(industry);
        let taken = self.g.stacks[i as usize]
            .iter()
            .position(|t| t.level == level)
            .unwrap();
        self.s.players[player as usize].taken[i as usize] = taken as u8;
        self
    }
    pub fn legal(&self) -> Vec<String> {
        let mut ids = Vec::new();
        rules::legal_actions(&self.g, &self.s, &mut ids);
        ids.iter()
            .map(|&i| self.g.action_name(i as i64).unwrap())
            .collect()
    }
    pub fn is_legal(&self, notation: &str) -> bool {
        let id = self.g.parse_action(notation).unwrap();
        let mut ids = Vec::new();
        rules::legal_actions(&self.g, &self.s, &mut ids);
        let listed = ids.contains(&id);
        let checked =
            rules::why_illegal(&self.g, &self.s, self.g.decode(id as i64).unwrap()).is_ok();
        assert_eq!(
            listed, checked,
            "legal_actions and why_illegal disagree on `{notation}`"
        );
        listed
    }
    /// Apply a notation, which must be legal.
    pub fn play(&mut self, notation: &str) -> &mut Self {
        let id = self.g.parse_action(notation).unwrap();
        if let Err(e) = apply::apply(&self.g, &mut self.s, id as i64) {
            panic!("{notation}: {e}\nlegal: {:?}", self.legal());
        }
        self
    }
    /// Apply a notation that must be refused; returns the message and checks nothing changed.
    pub fn refuse(&mut self, notation: &str) -> String {
        let before = self.s;
        let id = self.g.parse_action(notation).unwrap();
        let err = apply::apply(&self.g, &mut self.s, id as i64).expect_err(notation);
        assert_eq!(self.s, before, "a refused action changed the state");
        err.to_string()
    }
    pub fn decision(&self) -> Decision {
        self.s.decision
    }
    pub fn at(&self, space: &str) -> Tile {
        self.s.board[self.space(space) as usize]
    }
    pub fn is_empty(&self, space: &str) -> bool {
        self.at(space).owner == NONE
    }
    pub fn income_space(&self, player: u8) -> u8 {
        self.s.players[player as usize].income_space
    }
    pub fn json(&self) -> String {
        json::to_json(&self.g, &self.s)
    }
}

/// Brass: Birmingham with the given options (`&[("intro", true)]`).
pub fn birmingham(players: i64, options: &[(&str, bool)]) -> Game {
    let options: BTreeMap<String, serde_json::Value> = options
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::Bool(*v)))
        .collect();
    Game::new("birmingham", players, &options).unwrap()
}

/// Play a random game of `name` (dealt and played from `seed`, listing sampler), calling `visit` before each
/// decision with the game, the position and the player to move, each position also at the player's money set
/// to 0, 3, … 39 (for checks whose outcome turns on what the player can afford).
pub fn at_each_money_of_a_random_game(
    name: &str,
    players: i64,
    seed: u64,
    mut visit: impl FnMut(&Game, &brass_core::State, u8),
) {
    let g = Game::new(name, players, &Default::default()).unwrap();
    let mut s = brass_core::apply::new_state(&g, seed);
    let mut rng = brass_core::Rng(seed);
    let mut ids = Vec::new();
    while !s.is_terminal() {
        let p = s.current_player(&g).unwrap();
        let mut probe = s;
        for money in (0..40).step_by(3) {
            probe.players[p as usize].money = money;
            visit(&g, &probe, p);
        }
        ids.clear();
        brass_core::rules::legal_actions(&g, &s, &mut ids);
        let id = ids[rng.below(ids.len() as u64) as usize];
        brass_core::apply::apply(&g, &mut s, id as i64).unwrap();
    }
}
