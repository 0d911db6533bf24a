//! Where Greedy collapses: all-Greedy games, many seeds at once (docs/agents.md, "Beer promised to one sale").
//!
//! `cargo run --release --example zero -- GAME PLAYERS S0 S1 [GAMES]` plays GAMES (200) all-Greedy games, seats
//! rotated, for each seed S0 … S1 − 1 (split between threads), prints one line per seat that ended at 0 VP (its
//! VP, income level and money when the Canal Era was scored; its loans, builds, links, sales, passes and the
//! decisions where a sale was legal; what it built, era and industry @ space) and then the totals. With
//! `BRASS_SALES=1` it also prints, per number of Canal Era sales, how many seats made that many and how they
//! ended, and per income level when the Canal Era was scored (−10 … 0, higher levels counted at 0) and whether
//! the seat had sold in it or held £20 or more, the same.
use brass_core::actions::Action;
use brass_core::agents::{play_games, Agent, GameResult, GreedyAgent};
use brass_core::apply::{apply_unchecked, new_state};
use brass_core::{rules, Era, Game};
use rayon::prelude::*;
use std::collections::BTreeMap;

/// One seat's game, replayed.
#[derive(Default)]
struct Seat {
    canal_end: Option<(i32, i32, i32)>,
    loans: u32,
    builds: u32,
    links: u32,
    sales: u32,
    canal_sales: u32,
    passes: u32,
    sale_legal: u32,
    built: String,
}

/// What one seed's games gave: the 0-VP seats' lines, (Canal Era sales, final VP) of the seats replayed,
/// every seat's final VP, and (income level and money when the Canal Era was scored, Canal Era sales, final VP)
/// of the seats replayed.
type SeedReport = (
    Vec<String>,
    Vec<(u32, i32)>,
    Vec<i32>,
    Vec<(i32, i32, u32, i32)>,
);

fn replay(game: &Game, r: &GameResult, seat: u8) -> Seat {
    let mut s = new_state(game, r.seed);
    let mut out = Seat::default();
    let mut ids = Vec::new();
    for &id in &r.actions {
        let act = game.decode(id as i64).expect("a recorded action");
        if s.current_player(game) == Some(seat) {
            ids.clear();
            rules::legal_actions(game, &s, &mut ids);
            let sale = |x: &u16| matches!(game.decode(*x as i64), Ok(Action::Sell { .. }));
            if s.action.is_none() && ids.iter().any(sale) {
                out.sale_legal += 1;
            }
            match act {
                Action::Loan { .. } => out.loans += 1,
                Action::Build {
                    space, industry, ..
                } => {
                    out.builds += 1;
                    let era = if s.era == Era::Canal { 'c' } else { 'r' };
                    out.built +=
                        &format!(" {era}:{}@{}", game.industries[industry as usize], space);
                }
                Action::Pass => out.passes += 1,
                Action::Sell { .. } => {
                    out.sales += 1;
                    out.canal_sales += u32::from(s.era == Era::Canal);
                }
                Action::Link { .. } => out.links += 1,
                _ => {}
            }
        }
        let era = s.era;
        apply_unchecked(game, &mut s, act);
        if out.canal_end.is_none() && s.era != era {
            let p = &s.players[seat as usize];
            out.canal_end = Some((p.vp, s.income_level(game, seat), p.money));
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: zero GAME PLAYERS S0 S1 [GAMES]");
        std::process::exit(2);
    }
    let name = &args[1];
    let n: i64 = args[2].parse().expect("PLAYERS");
    let (s0, s1): (u64, u64) = (args[3].parse().expect("S0"), args[4].parse().expect("S1"));
    let games: u64 = args.get(5).map_or(200, |x| x.parse().expect("GAMES"));
    let sales_table = std::env::var("BRASS_SALES").is_ok();
    let game = Game::new(name, n, &BTreeMap::new()).expect("a game of the catalog");
    let agents: Vec<&dyn Agent> = (0..n).map(|_| &GreedyAgent as &dyn Agent).collect();
    // Per seed: the 0-VP seats' lines, and the Canal Era of every seat when asked.
    let per_seed: Vec<SeedReport> = (s0..s1)
        .into_par_iter()
        .map(|seed| {
            let (mut lines, mut sales, mut scores, mut levels) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for (i, r) in play_games(&game, &agents, seed, 0, games, true, 1)
                .iter()
                .enumerate()
            {
                for p in 0..n as u8 {
                    let vp = r.scores[p as usize];
                    scores.push(vp);
                    if vp != 0 && !sales_table {
                        continue;
                    }
                    let seat = replay(&game, r, p);
                    sales.push((seat.canal_sales, vp));
                    let (_, lvl, money) = seat.canal_end.unwrap_or_default();
                    levels.push((lvl, money, seat.canal_sales, vp));
                    if vp == 0 {
                        let (cvp, level, money) = seat.canal_end.unwrap_or_default();
                        lines.push(format!(
                            "seed {seed} game {i} seat {p}: Canal Era end {cvp} VP, level {level}, £{money}; \
                             loans {} builds {} links {} sales {} passes {} sale legal {}; built{}; scores {:?}",
                            seat.loans, seat.builds, seat.links, seat.sales, seat.passes, seat.sale_legal,
                            seat.built, r.scores
                        ));
                    }
                }
            }
            (lines, sales, scores, levels)
        })
        .collect();
    let mut by_sales: BTreeMap<u32, (u32, u32, u32, i64)> = BTreeMap::new();
    let (mut zero, mut under20, mut seats, mut total) = (0, 0, 0, 0i64);
    let mut by_level: BTreeMap<(i32, bool), (u32, u32, u32, i64)> = BTreeMap::new();
    for (lines, sales, scores, levels) in per_seed {
        for (lvl, money, cs, vp) in levels {
            let e = by_level
                .entry((lvl.clamp(-10, 0), cs > 0 || money >= 20))
                .or_default();
            *e = (
                e.0 + 1,
                e.1 + u32::from(vp == 0),
                e.2 + u32::from(vp < 20),
                e.3 + vp as i64,
            );
        }
        for l in lines {
            println!("{l}");
        }
        for (k, vp) in sales {
            let e = by_sales.entry(k.min(4)).or_default();
            *e = (
                e.0 + 1,
                e.1 + u32::from(vp == 0),
                e.2 + u32::from(vp < 20),
                e.3 + vp as i64,
            );
        }
        for vp in scores {
            seats += 1;
            zero += u32::from(vp == 0);
            under20 += u32::from(vp < 20);
            total += vp as i64;
        }
    }
    if sales_table {
        println!("level at Canal end (max 0), sold or >=£20 | seats | 0 VP | under 20 | mean");
        for ((l, s), (count, z, u, vp)) in by_level {
            println!(
                "{l} {s} | {count} | {z} | {u} | {:.1}",
                vp as f64 / count as f64
            );
        }
        println!("Canal Era sales (4: 4 or more) | seats | at 0 VP | under 20 VP | mean VP");
        for (k, (count, z, u, vp)) in by_sales {
            println!(
                "{k} | {count} | {z} | {u} | {:.1}",
                vp as f64 / count as f64
            );
        }
    }
    println!(
        "{name} {n}p seeds {s0}-{}: 0-VP seats {zero} of {seats}, under 20 VP {under20}, mean VP {:.1}",
        s1 - 1,
        total as f64 / seats as f64
    );
}
