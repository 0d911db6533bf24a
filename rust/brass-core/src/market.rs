//! The coal and iron markets (L-5, L-17, L-18, L-27).
//!
//! A market holds `k` cubes on its `k` most expensive spaces: buying takes the cheapest cube (L-17) and
//! selling fills the most expensive empty space (L-27), so the occupied spaces always stay the top `k`
//! and the count alone is the market's state.
use crate::game::Market;

/// Price of buying `n` cubes, cheapest first, from a market holding `cubes`; the empty price each once
/// empty.
pub fn buy_cost(market: &Market, cubes: u8, n: u32) -> u32 {
    let prices = &market.prices;
    let len = prices.len() as u32;
    let mut k = cubes as u32;
    let mut cost = 0;
    for _ in 0..n {
        if k == 0 {
            cost += market.empty_price as u32;
        } else {
            cost += prices[(len - k) as usize] as u32;
            k -= 1;
        }
    }
    cost
}

/// Buy one cube; returns its price.
pub fn buy_one(market: &Market, cubes: &mut u8) -> u32 {
    if *cubes == 0 {
        market.empty_price as u32
    } else {
        let price = market.prices[market.prices.len() - *cubes as usize] as u32;
        *cubes -= 1;
        price
    }
}

/// Sell up to `offered` cubes into the market, most expensive empty space first; returns
/// (cubes sold, money received).
pub fn sell(market: &Market, cubes: &mut u8, offered: u8) -> (u8, u32) {
    let prices = &market.prices;
    let len = prices.len() as u8;
    let mut sold = 0;
    let mut money = 0;
    while sold < offered && *cubes < len {
        money += prices[(len - *cubes - 1) as usize] as u32;
        *cubes += 1;
        sold += 1;
    }
    (sold, money)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn market() -> Market {
        Market {
            prices: vec![1, 1, 2, 2, 3, 3, 4, 4],
            empty_price: 5,
            start: 8,
        }
    }

    #[test]
    fn l17_full_market_sells_cheapest_first_then_five_pounds_when_empty() {
        let m = market();
        assert_eq!(buy_cost(&m, 8, 1), 1);
        assert_eq!(buy_cost(&m, 8, 3), 1 + 1 + 2);
        assert_eq!(buy_cost(&m, 1, 2), 4 + 5);
        assert_eq!(buy_cost(&m, 0, 2), 10);
        let mut k = 3;
        assert_eq!(buy_one(&m, &mut k), 3);
        assert_eq!(k, 2);
        let mut k = 0;
        assert_eq!(buy_one(&m, &mut k), 5);
        assert_eq!(k, 0);
    }

    #[test]
    fn l27_selling_fills_the_most_expensive_empty_space_first() {
        let m = market();
        let mut k = 0;
        assert_eq!(sell(&m, &mut k, 3), (3, 4 + 4 + 3));
        assert_eq!(k, 3);
        let mut k = 7;
        assert_eq!(sell(&m, &mut k, 4), (1, 1));
        assert_eq!(k, 8);
    }
}
