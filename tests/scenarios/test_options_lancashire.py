"""The Lancashire options (docs/classic.md): the introductory game L-54, the virtual link L-55 (with the
classic rules in test_classic_actions.py), the classic deck L-56, the refused community 2-player variant L-57,
option validation, and the `removed` state key (hand-built positions and fresh games, public API only)."""

import json

import pytest
from test_classic_setup_and_rounds import DATA, SplitMix64, all_cards, counts, finish_action, pass_game

# --- option validation (docs/classic.md "Configurations") ------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        dict(intro=1),
        dict(intro="yes"),
        dict(virtual_link=None),
        dict(classic_deck=0),
        dict(turbo=True),
        dict(variant="classic"),
        dict(variant=2),
        dict(intro=True, turbo=False),
    ],
)
def test_options_must_be_known_and_bool(engine, options):
    with pytest.raises(engine.ConfigError):
        engine.Game("lancashire", players=3, **options)


@pytest.mark.parametrize(
    "options", [dict(intro=True), dict(intro=False), dict(virtual_link=True), dict(classic_deck=False)]
)
def test_C1_classic_brass_takes_no_option(engine, options):
    with pytest.raises(engine.ConfigError):
        engine.Game("brass", players=3, **options)


def test_L56_classic_deck_is_refused_at_2_players(engine):
    with pytest.raises(engine.ConfigError):
        engine.Game("lancashire", players=2, classic_deck=True)
    assert engine.Game("lancashire", players=2, classic_deck=False).options == {}


@pytest.mark.parametrize("players", [2, 3])
def test_L57_community_2p_variant_is_refused_because_its_lines_are_unknown(engine, players):
    with pytest.raises(engine.ConfigError, match="lines"):
        engine.Game("lancashire", players=players, variant="community-2p")


def test_options_given_as_false_are_not_recorded(engine):
    game = engine.Game("lancashire", players=3, intro=True, virtual_link=False, classic_deck=True)
    assert game.options == {"classic_deck": True, "intro": True}
    assert game == engine.Game("lancashire", players=3, classic_deck=True, intro=True)
    assert engine.Game("lancashire", players=4, intro=False) == engine.Game("lancashire", players=4)
    state = game.new_state(3)
    obj = json.loads(state.to_json())
    assert obj["game"]["options"] == {"classic_deck": True, "intro": True}
    assert json.loads(state.record())["game"]["options"] == {"classic_deck": True, "intro": True}
    assert engine.State.from_json(state.to_json()).game == game
    assert engine.replay(state.record()).to_json() == state.to_json()


@pytest.mark.parametrize(
    "name, players, options",
    [
        ("lancashire", 3, {"intro": False}),
        ("lancashire", 3, {"turbo": True}),
        ("lancashire", 2, {"classic_deck": True}),
        ("lancashire", 2, {"variant": "community-2p"}),
        ("brass", 3, {"virtual_link": True}),
        ("brass", 2, {}),
        ("lancashire", 3, {"intro": 1}),
    ],
)
def test_the_loader_rejects_configurations_that_are_not_games(engine, name, players, options):
    obj = json.loads(engine.Game("lancashire", players=3).new_state(1).to_json())
    obj["game"].update(name=name, players=players, options=options)
    with pytest.raises(engine.InvalidStateError):
        engine.State.from_json(json.dumps(obj))


# --- the `removed` key and card conservation -------------------------------------------------------------------


def test_C3_removed_is_in_every_state_and_required(engine):
    for game, players, options in (("lancashire", 2, {}), ("brass", 4, {}), ("lancashire", 4, {"classic_deck": True})):
        obj = json.loads(engine.Game(game, players=players, **options).new_state(8).to_json())
        assert "removed" in obj
        del obj["removed"]
        with pytest.raises(engine.InvalidStateError):
            engine.State.from_json(json.dumps(obj))


def move_card(obj: dict, source: str, target: str) -> None:
    """Move one card between the draw pile and the deck tile / removed cards (card conservation holds)."""
    if source == "deck":
        card = obj["deck"].pop(0)
        obj[target][card] = obj[target].get(card, 0) + 1
    else:
        card = sorted(obj[source])[0]
        obj[source][card] -= 1
        if not obj[source][card]:
            del obj[source][card]
        obj["deck"].append(card)


@pytest.mark.parametrize(
    "name, players, options, source, target",
    [
        ("lancashire", 3, {}, "deck", "removed"),  # Roxley: nothing is removed
        ("lancashire", 3, {}, "deck", "deck_tile"),  # L-3: `players` cards under the deck tile
        ("brass", 3, {}, "removed", "deck"),  # C-3: 9 removed at 3 players in the Canal Era
        ("brass", 4, {}, "deck", "removed"),  # C-3: 6 at 4 players
        ("brass", 4, {}, "deck", "deck_tile"),  # C-3: no deck tile
        ("lancashire", 3, {"classic_deck": True}, "deck_tile", "deck"),  # L-56: 9 under the deck tile
        ("lancashire", 4, {"classic_deck": True}, "deck", "removed"),  # L-56: nothing removed in the Canal Era
    ],
)
def test_C3_L56_the_loader_checks_deck_tile_and_removed_counts(engine, name, players, options, source, target):
    obj = json.loads(engine.Game(name, players=players, **options).new_state(2).to_json())
    move_card(obj, source, target)
    with pytest.raises(engine.InvalidStateError):
        engine.State.from_json(json.dumps(obj))


def test_C3_the_loader_checks_card_conservation_with_removed(engine):
    obj = json.loads(engine.Game("brass", players=3).new_state(2).to_json())
    kind = sorted(obj["removed"])[0]
    obj["removed"][kind] += 1
    with pytest.raises(engine.InvalidStateError):
        engine.State.from_json(json.dumps(obj))


# --- L-54: the introductory game ---------------------------------------------------------------------------------


def intro_end(position, players=3, **options):
    pos = position(players, intro=True, **options)
    pos.tile("stockport/1", 0, "cotton_mill", 2, flipped=True).tile("bolton/1", 0, "coal_mine", 1, cubes=0)
    pos.link("bolton-manchester", 0).player(0, money=47, income_space=15)  # level 3
    pos.player(1, money=100, income_space=5)  # level -5
    pos.tile("preston/3", 2, "port", 2, flipped=True).player(2, money=3, income_space=5)
    return pos.end_of_era()


def test_L54_the_introductory_game_ends_after_the_canal_era(position, h):
    state = h.do(intro_end(position).state(), "pass")
    assert state.is_terminal and state.decision == "over" and state.legal_actions() == []
    assert (state.era, state.round, state.current_player) == ("canal", 9, None)
    obj = h.obj(state)
    assert (obj["turn"], obj["actions_left"], obj["action"]) == (3, 0, None)


def test_L54_no_income_at_the_end_of_the_last_canal_round(position, h):
    state = h.do(intro_end(position).state(), "pass")
    assert [state.player(p).money for p in range(3)] == [47, 100, 3]


def test_L54_extra_scoring(position, h):
    state = h.do(intro_end(position).state(), "pass")
    # player 0: link bolton-manchester 1 + mill L2 5 + mine L1 1; £47 -> 11; level 3; the level-2 mill again 5
    # player 1: £100 -> 15 (the maximum); level -5 -> 10
    # player 2: port L2 4; £3 -> 0; level -5 -> 0 (never below 0, R-8); the level-2 port again 4
    assert state.scores == [1 + 5 + 1 + 11 + 3 + 5, 10, 4]
    assert state.winners == [0]


def test_L54_R8_vp_floor_applies_when_the_income_level_is_added(position, h):
    """docs/rules.md "ambiguous": the floor at 0 is applied when the (negative) income level is added, not to the
    final total. Player 0: 5 VP from the flipped level-2 mill; £0 -> 0; level -8 -> 0 (not -3); the level-2 mill
    again -> 5. (Floor on the total only would give 5 + 0 - 8 + 5 = 2.)"""
    pos = position(3, intro=True).tile("stockport/1", 0, "cotton_mill", 2, flipped=True)
    pos.player(0, money=0, income_space=2)  # level -8
    state = h.do(pos.end_of_era().state(), "pass")
    assert state.scores[0] == 5


def test_L54_no_rail_setup_and_no_rng_use(position, h):
    pos = intro_end(position)
    before = pos.state()
    old = h.obj(before)
    state = h.do(before, "pass")
    obj = h.obj(state)
    assert (obj["rng"], obj["dcm"], obj["deck_tile"], obj["removed"]) == (
        old["rng"],
        old["dcm"],
        old["deck_tile"],
        old["removed"],
    )
    assert obj["links"] == {} and state.player(0).links_left == 14  # scored and removed (L-49)


def test_L54_level_1_tiles_stay_on_the_board(position, h):
    """The level-1 removal belongs to the Rail set-up (L-51), which does not happen (docs/classic.md)."""
    state = h.do(intro_end(position).state(), "pass")
    assert set(h.obj(state)["board"]) == {"stockport/1", "bolton/1", "preston/3"}


@pytest.mark.parametrize("players, rounds", [(2, 10), (3, 9), (4, 8)])
def test_L54_a_whole_introductory_game(engine, players, rounds):
    state = engine.Game("lancashire", players=players, intro=True).new_state(6)
    assert pass_game(state) == {"canal": rounds}
    assert state.winners


def test_L54_the_loader_accepts_over_in_the_canal_era_only_for_the_introductory_game(engine, position, h):
    state = h.do(intro_end(position).state(), "pass")
    text = state.to_json()
    assert engine.State.from_json(text).to_json() == text
    obj = json.loads(text)
    obj["game"]["options"] = {}
    with pytest.raises(engine.InvalidStateError):
        engine.State.from_json(json.dumps(obj))


def test_L54_the_loader_rejects_a_rail_era_in_the_introductory_game(engine, position):
    pos = position(3, era="rail")
    pos.obj["game"]["options"] = {"intro": True}
    with pytest.raises(engine.InvalidStateError):
        pos.state()


def test_L54_L55_options_combine(engine, position, h):
    game = engine.Game("lancashire", players=3, intro=True, virtual_link=True)
    assert game.options == {"intro": True, "virtual_link": True}
    pos = position(3, intro=True, virtual_link=True).tile("birkenhead/1", 0, "shipyard", 1)
    pos.set_cards({0: ["port"]})
    assert "build port liverpool/1" in h.names(pos.state())
    state = game.new_state(12)
    assert pass_game(state) == {"canal": 9}


# --- L-56: the classic deck --------------------------------------------------------------------------------------


def full_deck() -> list[str]:
    return [k for k in DATA["card_kinds"] for _ in range(DATA["decks"]["full"].get(k, 0))]


@pytest.mark.parametrize("players, under", [(3, 9), (4, 6)])
@pytest.mark.parametrize("seed", [0, 31])
def test_L56_canal_setup_rng_order(engine, players, under, seed):
    """docs/classic.md: 1. shuffle the full deck; the last 9 (3p) / 6 (4p) cards go under the deck tile; 2. deal 8
    each in seat order; 3. DCM (the player count's tiles); 4. turn order."""
    rng = SplitMix64(seed)
    deck = full_deck()
    rng.shuffle(deck)
    tile, deck = counts(deck[len(deck) - under :]), deck[: len(deck) - under]
    hands = [counts(deck[8 * p : 8 * p + 8]) for p in range(players)]
    deck = deck[8 * players :]
    pile = sorted(DATA["distant_cotton_market"]["tiles"][str(players)])
    rng.shuffle(pile)
    order = list(range(players))
    rng.shuffle(order)
    obj = json.loads(engine.Game("lancashire", players=players, classic_deck=True).new_state(seed).to_json())
    assert [p["hand"] for p in obj["players"]] == hands
    assert (obj["deck_tile"], obj["deck"], obj["removed"]) == (tile, deck, {})
    assert len(deck) == 66 - under - 8 * players
    assert obj["dcm"]["pile"] == pile and obj["turn_order"] == order and obj["rng"] == str(rng.state)
    assert all_cards(obj) == DATA["decks"]["full"]


@pytest.mark.parametrize("players, removed", [(3, 6), (4, 2)])
def test_L56_rail_setup_removes_cards_unseen(position, h, players, removed):
    """docs/classic.md: 1. DCM; 2. shuffle the full deck; 3. deal 8 each; 4. the next 6 (3p) / 2 (4p) cards
    from the top are removed."""
    pos = position(players, classic_deck=True).end_of_era()
    before = pos.obj["rng"]
    state = h.do(pos.state(), "pass")
    obj = h.obj(state)
    rng = SplitMix64(int(before))
    pile = sorted(DATA["distant_cotton_market"]["tiles"][str(players)])
    rng.shuffle(pile)
    deck = full_deck()
    rng.shuffle(deck)
    hands = [counts(deck[8 * p : 8 * p + 8]) for p in range(players)]
    deck = deck[8 * players :]
    assert (state.era, state.round, state.decision) == ("rail", 1, "action")
    assert obj["dcm"]["pile"] == pile and [p["hand"] for p in obj["players"]] == hands
    assert obj["removed"] == counts(deck[:removed]) and obj["deck"] == deck[removed:]
    assert obj["deck_tile"] == {} and obj["rng"] == str(rng.state)
    assert all_cards(obj) == DATA["decks"]["full"]


@pytest.mark.parametrize("players, rounds", [(3, 10), (4, 8)])
def test_L56_rounds_per_era_with_the_classic_deck(engine, players, rounds):
    state = engine.Game("lancashire", players=players, classic_deck=True).new_state(2)
    assert pass_game(state) == {"canal": rounds, "rail": rounds}
    obj = json.loads(state.to_json())
    assert all(p["hand"] == {} for p in obj["players"]) and obj["deck"] == []


def test_L56_lancashire_round_structure_is_kept(position, h):
    """The classic deck changes the cards only: the refill still follows each turn (L-9)."""
    pos = position(3, classic_deck=True).set_cards({0: ["bolton", "wigan"]}, deck=["bury", "colne", "rochdale"])
    state = h.do(pos.state(), "pass", "card bolton", "pass")
    assert sorted(state.player(0).hand) == ["bury", "colne", "rochdale"]


def test_L56_L46_loans_end_four_rounds_before_the_tenth(position, h):
    def loans(rnd):
        state = position(3, classic_deck=True, era="rail", round=rnd).state()
        return [n for n in h.names(state) if n.startswith("loan")]

    assert loans(6) == ["loan 10", "loan 20", "loan 30"] and loans(7) == []


def test_L56_the_dcm_tiles_stay_those_of_the_player_count(engine):
    obj = json.loads(engine.Game("lancashire", players=3, classic_deck=True).new_state(5).to_json())
    assert sorted(obj["dcm"]["pile"]) == sorted(DATA["distant_cotton_market"]["tiles"]["3"])


def test_L56_a_drawn_dcm_tile_is_discarded(position, h):
    pile = [2, 0, 1, 2, 2, 2, 3, 3, 3, 4]
    pos = position(3, classic_deck=True).tile("warrington_runcorn/2", 0, "cotton_mill", 1)
    pos.tile("warrington_runcorn/1", 1, "port", 1, flipped=True).set(dcm={"marker": 0, "pile": pile, "discards": []})
    state = h.do(pos.state(), "sell warrington_runcorn/2 distant")
    assert h.obj(state)["dcm"] == {"marker": 2, "pile": pile[1:], "discards": [2]}


def test_L56_a_full_game_keeps_the_first_round_single_action(engine, h):
    state = engine.Game("lancashire", players=4, classic_deck=True).new_state(9)
    for _ in range(4):
        assert state.actions_left == 1
        h.do(state, "pass")
        finish_action(state)
    assert state.round == 2 and state.actions_left == 2
