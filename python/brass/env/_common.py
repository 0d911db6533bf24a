"""What the three adapters share: the supported configurations, rewards, default opponents, spaces' bounds
and a text rendering. No rules logic: everything about the game comes from `brass`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

import brass
from brass._rng import check_seed as check_seed  # the adapters import it from here

#: Bounds declared for the observation vector. The engine scales every value to roughly [0, 1]
#: (docs/observation.md): money and income levels can be negative (at worst -£10 and level -10, i.e.
#: -0.1 and -0.33) and money, VP and card counts can exceed 1 (£107 = 1.07, six discards of a kind = 1.5).
#: The bounds are deliberately loose so that no reachable position falls outside them.
OBS_LOW = -1.0
OBS_HIGH = 10.0

#: A policy: any callable from a state to a legal action id (or notation).
Policy = Callable[[brass.State], int | str]


# --- configurations ------------------------------------------------------------------------------------------


@functools.cache
def configurations() -> dict[str, tuple[int, ...]]:
    """`{game name: supported player counts}` from the engine (`brass.games()`), so a game added to the
    engine appears in every adapter without a change here. Lancashire: `{"lancashire": (2, 3, 4)}`."""
    return {name: tuple(info["players"]) for name, info in brass.games().items()}


#: The keyword options of each game (the `bool` options of the catalog, `brass.games()`); the adapters pass them
#: to `brass.Game`.
GAME_OPTIONS: dict[str, tuple[str, ...]] = {
    name: tuple(o for o, spec in info["options"].items() if spec["type"] == "bool")
    for name, info in brass.games().items()
}


def check_config(game: str, players: int, **options: bool) -> brass.Game:
    """The engine configuration, or `brass.ConfigError` naming what is supported (the engine checks the
    options: known names, `bool` values, `classic_deck` needs 3 or 4 players)."""
    configs = configurations()
    if game not in configs:
        raise brass.ConfigError(f"unknown game `{game}`; available: {', '.join(sorted(configs))}")
    if players not in configs[game]:
        words = [str(n) for n in configs[game]]
        allowed = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
        raise brass.ConfigError(f"{game} is played by {allowed} players, not {players}")
    return brass.Game(game, players=players, **options)


def config_label(game: str, players: int, options: Mapping[str, Any]) -> str:
    """`lancashire_4p`, `lancashire_3p_intro_virtual_link`: the options set to True, in sorted order."""
    on = sorted(k for k, v in options.items() if v is True)
    return "_".join([game, f"{players}p", *on])


# --- rewards -------------------------------------------------------------------------------------------------


def win_rewards(state: brass.State) -> list[float]:
    """Terminal reward of each player: the engine's zero-sum `state.returns` (docs/api.md).

    With n players and k winners (after the engine's tie-breaks, `state.winners`), a winner gets
    (n/k - 1)/(n - 1) and everyone else -1/(n - 1): a sole winner +1; 2 players: +1 / -1, a shared win 0 / 0;
    4 players: +1 / -1/3 each. The rewards always sum to 0 and lie in [-1/(n-1), 1]."""
    return list(state.returns)


def win_rewards_from_flags(winners: np.ndarray) -> np.ndarray:
    """`win_rewards` from 0/1 winner flags of shape (..., players), e.g. `brass.rollouts(...).winners`."""
    flags = np.asarray(winners, dtype=np.float64)
    n = flags.shape[-1]
    shares = flags / np.maximum(flags.sum(axis=-1, keepdims=True), 1.0)
    return (n * shares - 1.0) / (n - 1) if n > 1 else shares


def reward_range(players: int) -> tuple[float, float]:
    """(lowest, highest) terminal reward of `win_rewards`."""
    return (-1.0 / (players - 1), 1.0) if players > 1 else (0.0, 1.0)


def final_info(state: brass.State) -> dict[str, Any]:
    """What every adapter reports at the end of a game (fresh objects on every call)."""
    return {"scores": list(state.scores), "winners": list(state.winners)}


# --- policies ------------------------------------------------------------------------------------------------


class RandomPolicy:
    """A seeded uniformly random legal policy: `RandomPolicy(seed)(state) -> action id`."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, state: brass.State) -> int:
        legal = state.legal_actions()
        return legal[int(self.rng.integers(len(legal)))]

    def __repr__(self) -> str:
        return "RandomPolicy()"


def default_opponent(seed: int) -> Policy:
    """The policy given to every seat the user did not fill, seeded by the environment on each reset: the
    native one-ply Greedy agent (`brass.agents.Greedy`, docs/agents.md), driven through
    `choose(state, seed=...)` with seeds from `seed`, so episodes stay reproducible. Pass
    `opponents=RandomPolicy(seed)` (or any callable) for other opponents."""
    from brass import agents

    return as_policy(agents.Greedy(), seed)


def as_policy(opponent: Any, seed: int) -> Policy:
    """A callable `state -> action`: callables are used as they are; an agent spec (`"greedy"`, `"mcts:300"`,
    `"netmcts:64:birmingham-2p"`: any spec of `brass.agents.parse_agent`, the shipped networks included) or an
    agent object with a `choose(state, seed=...)` method (the native agents' interface) gets a per-decision seed
    drawn from a generator seeded with `seed`."""
    if isinstance(opponent, str):
        from brass import agents

        opponent = agents.parse_agent(opponent)
    choose = getattr(opponent, "choose", None)
    if callable(choose):
        rng = np.random.default_rng(seed)

        def policy(state: brass.State) -> Any:
            return choose(state, seed=int(rng.integers(2**63)))

        return policy
    if callable(opponent):
        return opponent
    raise brass.ArgumentTypeError(f"an opponent must be a callable (state) -> action id, not {opponent!r}")


def opponents_by_seat(opponents: Any, players: int) -> dict[int, Any]:
    """Normalise `opponents=`: None (defaults everywhere), one policy for all seats, a sequence with one
    entry per seat (None: the default), or a mapping seat -> policy."""
    if opponents is None:
        return {}
    if isinstance(opponents, Mapping):
        out = dict(opponents)
    elif isinstance(opponents, Sequence) and not isinstance(opponents, str):
        if len(opponents) != players:
            raise brass.ConfigError(f"opponents: {len(opponents)} entries for {players} seats (use None for a seat)")
        out = dict(enumerate(opponents))
    else:
        out = dict.fromkeys(range(players), opponents)
    for seat, policy in out.items():
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise brass.PlayerIndexError(f"opponents: no seat {seat!r}: seats go from 0 to {players - 1}")
        if policy is not None and not (callable(policy) or callable(getattr(policy, "choose", None))):
            raise brass.ArgumentTypeError(
                f"opponents: seat {seat}: expected a callable (state) -> action id, got {policy!r}"
            )
    return {seat: p for seat, p in out.items() if p is not None}


# --- seeds, text ---------------------------------------------------------------------------------------------


def deal_seed(seed: int | None, rng: np.random.Generator) -> int:
    """The engine seed of a new game: `seed` itself when given (so `reset(seed=s)` deals exactly
    `game.new_state(s)`), else a draw from the environment's generator."""
    if seed is None:
        return int(rng.integers(2**63))
    return check_seed(seed)


def render_text(state: brass.State) -> str:
    """A short text picture of a position (the 'ansi' render mode)."""
    game = state.game
    lines = [repr(state)]
    for p in range(game.players):
        v = state.player(p)
        mark = "*" if state.current_player == p else " "
        lines.append(
            f"{mark} player {p}: £{v.money}  income level {v.income_level}  VP {v.vp}  "
            f"hand {len(v.hand)}  links left {v.links_left}"
        )
    history = state.history
    if history:
        lines.append(f"last action: {game.action_name(history[-1])}")
    if state.is_terminal:
        lines.append(f"final VP {state.scores}  winners {state.winners}")
    else:
        lines.append(f"{len(state.legal_actions())} legal actions ({state.decision})")
    return "\n".join(lines)


#: The width of the `rgb_array` pictures, in pixels (the board's aspect ratio gives the height).
RGB_WIDTH = 700


def render(render_mode: str | None, state: brass.State | None) -> Any:
    """Both adapters' `render()`: the text for "ansi", printed for "human", the board as an RGB array
    `(height, width, 3)` uint8 for "rgb_array" (`brass.svg.rgb`), a warning without a mode."""
    if render_mode is None or state is None:
        import gymnasium  # only the adapters call this, and both have gymnasium

        gymnasium.logger.warn("render() called without a render_mode (use 'ansi', 'human' or 'rgb_array').")
        return None
    if render_mode == "rgb_array":
        from brass import svg

        return svg.rgb(state, width=RGB_WIDTH)
    text = render_text(state)
    if render_mode == "human":
        print(text)
        return None
    return text
