"""Classic Brass (docs/classic.md): players, rounds, the deck and its removed cards, the round structure.
C-1 … C-4 (hand-built positions and fresh games, public API only)."""

import json
from pathlib import Path

import pytest

import brass

# The RNG of docs/state-format.md ("The RNG"), checked against both engines by the golden vectors, recomputes what a
# set-up must deal.
from brass._rng import SplitMix64

DATA = json.loads((Path(brass.__file__).parent / "data" / "lancashire.json").read_text())


def full_deck() -> list[str]:
    """All 66 cards in card-kind order (C-3, L-56)."""
    return [k for k in DATA["card_kinds"] for _ in range(DATA["decks"]["full"].get(k, 0))]


def counts(cards) -> dict:
    out = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


def all_cards(obj: dict) -> dict:
    total = counts(obj["deck"])
    for part in (
        [p["hand"] for p in obj["players"]]
        + [p["discards"] for p in obj["players"]]
        + [obj["deck_tile"], obj["removed"]]
    ):
        for k, n in part.items():
            total[k] = total.get(k, 0) + n
    return total


def finish_action(state):
    """Answer any follow-up (card choice, …) with the first legal id until the next `action` decision."""
    while state.decision not in ("action", "over"):
        state.apply(state.legal_actions()[0])


def pass_game(state):
    """Play a whole game of passes; returns the highest round seen in each era."""
    seen = {}
    while not state.is_terminal:
        seen[state.era] = max(seen.get(state.era, 0), state.round)
        state.apply("pass")
        finish_action(state)
    return seen


# --- C-1, C-2 ------------------------------------------------------------------------------------------------


def test_C1_classic_brass_is_for_3_or_4_players(engine):
    for players in (3, 4):
        assert engine.Game("brass", players=players).players == players
    for players in (1, 2, 5):
        with pytest.raises(engine.ConfigError):
            engine.Game("brass", players=players)


def test_C1_games_lists_brass_for_3_and_4_players(engine):
    games = engine.games()
    assert {name: info["players"] for name, info in games.items()} == {
        "birmingham": [2, 3, 4],
        "brass": [3, 4],
        "lancashire": [2, 3, 4],
    }
    assert games["brass"]["options"] == {}


def test_C1_the_id_space_is_the_same_523_ids(engine):
    lanc, classic = engine.Game("lancashire", players=3), engine.Game("brass", players=3)
    assert classic.num_actions == lanc.num_actions == 523
    assert [classic.action_name(i) for i in range(523)] == [lanc.action_name(i) for i in range(523)]


@pytest.mark.parametrize("players, rounds", [(3, 10), (4, 8)])
def test_C2_rounds_per_era(engine, players, rounds):
    state = engine.Game("brass", players=players).new_state(11)
    assert pass_game(state) == {"canal": rounds, "rail": rounds}
    assert (state.era, state.round) == ("rail", rounds)


@pytest.mark.parametrize("players, rounds", [(3, 10), (4, 8)])
def test_C2_max_decisions_uses_the_configuration_rounds(engine, players, rounds):
    game = engine.Game("brass", players=players)
    cards = 1 + 2 * 2 * rounds - 2
    tiles = 12 + 7 + 4 + 8 + 6
    assert game.max_decisions == players * (7 * cards + 12 + tiles)


# --- C-3: the deck, removed cards, set-up in RNG order ----------------------------------------------------------


@pytest.mark.parametrize("players, removed, deck", [(3, 9, 66 - 24 - 9), (4, 6, 66 - 32 - 6)])
def test_C3_canal_setup_deals_8_and_removes_cards_unseen(engine, players, removed, deck):
    obj = json.loads(engine.Game("brass", players=players).new_state(5).to_json())
    assert [sum(p["hand"].values()) for p in obj["players"]] == [8] * players
    assert sum(obj["removed"].values()) == removed and len(obj["deck"]) == deck
    assert obj["deck_tile"] == {}
    assert all_cards(obj) == DATA["decks"]["full"]  # all 66 cards (C-3)
    assert sorted(obj["dcm"]["pile"]) == sorted(DATA["distant_cotton_market"]["tiles"]["full"])  # C-11
    assert obj["game"] == {"name": "brass", "players": players, "options": {}, "data": "lancashire/1"}


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", [0, 77, 2**64 - 1])
def test_C3_canal_setup_rng_order(engine, players, seed):
    """docs/classic.md: 1. shuffle the full deck; 2. deal 8 each in seat order; 3. the next 6 (4p) / 9 (3p) cards
    go to `removed`; 4. DCM (all 12 tiles); 5. turn order: one `below(players)` for the start player (C-17)."""
    rng = SplitMix64(seed)
    deck = full_deck()
    rng.shuffle(deck)
    hands = [counts(deck[8 * p : 8 * p + 8]) for p in range(players)]
    deck = deck[8 * players :]
    n = DATA["classic"]["removed_unseen"]["canal"][str(players)]
    removed, deck = counts(deck[:n]), deck[n:]
    pile = sorted(DATA["distant_cotton_market"]["tiles"]["full"])
    rng.shuffle(pile)
    first = rng.below(players)  # C-17: a random start player, then clockwise (seat order)
    order = [(first + i) % players for i in range(players)]
    obj = json.loads(engine.Game("brass", players=players).new_state(seed).to_json())
    assert [p["hand"] for p in obj["players"]] == hands
    assert (obj["removed"], obj["deck"], obj["deck_tile"]) == (removed, deck, {})
    assert obj["dcm"] == {"marker": 0, "pile": pile, "discards": []}
    assert obj["turn_order"] == order and obj["rng"] == str(rng.state)


def rail_setup_expected(rng_text: str, players: int, dcm: list[int], removed_rail: int):
    rng = SplitMix64(int(rng_text))
    pile = sorted(dcm)
    rng.shuffle(pile)
    deck = full_deck()
    rng.shuffle(deck)
    hands = [counts(deck[8 * p : 8 * p + 8]) for p in range(players)]
    deck = deck[8 * players :]
    return pile, hands, counts(deck[:removed_rail]), deck[removed_rail:], str(rng.state)


@pytest.mark.parametrize("players, removed", [(3, 6), (4, 2)])
def test_C3_rail_setup_reshuffles_all_66_cards_and_removes_cards_unseen(position, h, players, removed):
    """docs/classic.md: 1. DCM; 2. shuffle the full deck (`removed` empties: all 66 cards); 3. deal 8 each; 4. the
    next 2 (4p) / 6 (3p) cards go to `removed`."""
    pos = position(players, game="brass").end_of_era()
    before = pos.obj["rng"]
    state = h.do(pos.state(), "pass")
    obj = h.obj(state)
    pile, hands, gone, deck, rng = rail_setup_expected(
        before, players, DATA["distant_cotton_market"]["tiles"]["full"], removed
    )
    assert (state.era, state.round) == ("rail", 1)
    assert obj["dcm"] == {"marker": 0, "pile": pile, "discards": []}
    assert [p["hand"] for p in obj["players"]] == hands
    assert obj["removed"] == gone and sum(gone.values()) == removed
    assert obj["deck"] == deck and len(deck) == 66 - 8 * players - removed
    assert obj["deck_tile"] == {} and obj["rng"] == rng
    assert all(p["discards"] == {} for p in obj["players"])
    assert all_cards(obj) == DATA["decks"]["full"]


def test_C3_removed_is_empty_for_the_roxley_deck(engine):
    state = engine.Game("lancashire", players=4).new_state(3)
    assert json.loads(state.to_json())["removed"] == {}


# --- C-4: round structure -------------------------------------------------------------------------------------


def test_C4_first_round_collects_no_income(engine, h):
    state = engine.Game("brass", players=3).new_state(9)
    assert [state.player(p).money for p in range(3)] == [30, 30, 30]
    for _ in range(3):
        h.do(state, "pass")
        finish_action(state)
    assert state.round == 2 and [state.player(p).money for p in range(3)] == [30, 30, 30]  # level 0


def test_C4_no_refill_after_a_turn(position, h):
    pos = position(3, game="brass", round=3)
    pos.set_cards({0: ["bolton", "wigan"]}, deck=["colne", "manchester", "rochdale"])
    state = h.do(pos.state(), "pass", "card bolton", "pass")
    assert state.current_player == 1
    assert state.player(0).hand == [] and state.deck_size == 3


def test_L9_lancashire_refills_after_the_turn_for_contrast(position, h):
    pos = position(3, round=3).set_cards({0: ["bolton", "wigan"]}, deck=["bury", "manchester", "rochdale"])
    state = h.do(pos.state(), "pass", "card bolton", "pass")
    assert sorted(state.player(0).hand) == ["bury", "manchester", "rochdale"]


def test_C4_refill_at_the_end_of_the_round_in_the_new_turn_order(position, h):
    deck = (
        ["bolton"] * 2
        + ["bury"]
        + ["colne"] * 2
        + ["wigan"] * 2
        + ["oldham"] * 2
        + ["preston"] * 3
        + ["rochdale"] * 2
        + ["stockport"] * 2
        + ["lancaster"] * 2
    )
    pos = position(3, game="brass", round=3)
    pos.set_cards({2: ["manchester"], 1: ["liverpool"]}, deck=deck).last_action_of_round()
    for p, spent in enumerate([9, 0, 4]):
        pos.player(p, money_spent=spent)
    state = h.do(pos.state(), "pass")
    assert state.turn_order == [1, 2, 0]
    hands = [json.loads(state.to_json())["players"][p]["hand"] for p in range(3)]
    assert hands[1] == counts(["liverpool"] + deck[:7])  # first in the new order: tops up from 1 card
    assert hands[2] == counts(deck[7:15])
    assert hands[0] == counts(deck[15:18])  # the pile ran out
    assert state.deck_size == 0 and state.round == 4


# Industry cards for the refill at the end of a round (C-4), so that the next round has cards to play.
REFILL = ["cotton_mill"] * 8 + ["port"] * 6 + ["coal_mine"] * 5 + ["shipyard"] * 3 + ["iron_works"] * 2


def test_C4_income_at_the_start_of_the_next_round(position, h):
    pos = position(3, game="brass", round=3).set_cards({2: ["manchester"]}, deck=REFILL).last_action_of_round()
    pos.player(0, income_space=15).player(1, income_space=7)  # levels 3 and -3
    state = h.do(pos.state(), "pass")
    assert [state.player(p).money for p in range(3)] == [33, 27, 30]
    assert (state.round, state.decision, state.current_player) == (4, "action", 0)


def test_C4_shortfall_opens_the_next_round(position, h):
    """Income belongs to the next round (C-4 step 1): a shortfall is settled with that round's number set."""
    pos = position(3, game="brass", round=3).set_cards({2: ["manchester"]}, deck=REFILL).last_action_of_round()
    pos.player(1, income_space=5, money=2)  # level -5: owes 3
    pos.tile("bolton/1", 1, "cotton_mill", 1, flipped=True).tile("preston/3", 1, "port", 1)
    state = h.do(pos.state(), "pass")
    assert (state.decision, state.current_player, state.round, state.era) == ("remove", 1, 4, "canal")
    assert h.names(state) == ["remove bolton/1", "remove preston/3"]
    h.do(state, "remove preston/3")
    assert (state.decision, state.round, state.current_player) == ("action", 4, 0)
    assert state.player(1).money == 0


def test_C4_shortfall_with_no_tile_left_costs_vp(position, h):
    """docs/rules.md "ambiguous": the classic rules say only that tiles are removed; with none left, the Lancashire
    rule applies (L-11): 1 VP per £1 still owed, never below 0."""
    pos = position(3, game="brass", round=3).set_cards({2: ["manchester"]}, deck=REFILL).last_action_of_round()
    pos.player(1, income_space=5, money=2, vp=4)  # level -5: owes 3, no tile on the board
    pos.player(0, income_space=2, money=1, vp=2)  # level -8: owes 7, only 2 VP
    state = h.do(pos.state(), "pass")
    assert (state.decision, state.round) == ("action", 4)
    assert [state.player(p).money for p in range(2)] == [0, 0]
    assert state.scores[:2] == [0, 1]


def canal_end(position, players=3):
    return (
        position(players, game="brass")
        .tile("bolton/1", 0, "coal_mine", 1, cubes=0)
        .tile("manchester/1", 1, "cotton_mill", 1, flipped=True)
        .tile("manchester/2", 2, "coal_mine", 2)
        .link("bolton-manchester", 0)
        .end_of_era()
    )


def test_C4_income_is_collected_before_rail_round_1(position, h):
    pos = canal_end(position).player(0, income_space=15).player(1, income_space=7, money=10)
    state = h.do(pos.state(), "pass")
    assert (state.era, state.round, state.decision) == ("rail", 1, "action")
    assert [state.player(p).money for p in range(3)] == [33, 7, 30]
    # Canal scoring came first: bolton-manchester 1 + 1 icons, the flipped mine 1 VP; classic mill 3 VP
    assert state.scores == [2 + 1, 3, 0]


def test_C4_shortfall_before_rail_round_1_after_level_1_removal(position, h):
    pos = canal_end(position).player(2, income_space=5, money=0)  # level -5
    pos.tile("wigan/1", 2, "coal_mine", 2, cubes=0)  # two level-2 tiles of player 2 survive the Canal Era
    state = h.do(pos.state(), "pass")
    assert (state.era, state.round, state.decision, state.current_player) == ("rail", 1, "remove", 2)
    assert h.names(state) == ["remove manchester/2", "remove wigan/1"]
    assert h.obj(state)["board"].keys() == {"manchester/2", "wigan/1"}  # level-1 tiles are gone already
    h.do(state, "remove wigan/1")  # floor(7 / 2) = 3 < 5: the other one goes too, without asking
    assert state.player(2).money == -5 + 3 + 3 and h.obj(state)["board"] == {}
    assert (state.decision, state.era, state.round) == ("action", "rail", 1)


def test_C4_no_income_after_the_last_round(position, h):
    pos = position(3, game="brass", era="rail").end_of_era()
    pos.player(0, income_space=30, money=47).player(1, income_space=5, money=0)
    state = h.do(pos.state(), "pass")
    assert state.is_terminal and state.decision == "over"
    assert [state.player(p).money for p in range(3)] == [47, 0, 30]
    assert state.scores == [4, 0, 3]  # L-52: £10 = 1 VP


@pytest.mark.parametrize("players", [3, 4])
def test_C4_every_round_has_its_cards(engine, players):
    """The deck arithmetic of C-3 with the refill at the end of the round: each player takes every action of
    every round (1 in the first Canal round, then 2), and the hands are empty when the game ends."""
    state = engine.Game("brass", players=players).new_state(21)
    actions = 0
    while not state.is_terminal:
        assert len(state.player(state.current_player).hand) >= state.actions_left
        actions += 1
        state.apply("pass")
        finish_action(state)
    rounds = {3: 10, 4: 8}[players]
    assert actions == players * (1 + 2 * (rounds - 1)) + players * 2 * rounds
    obj = json.loads(state.to_json())
    assert all(p["hand"] == {} for p in obj["players"]) and obj["deck"] == []
