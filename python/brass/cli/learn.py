"""`brass learn`: train a policy-value network by self-play (docs/learning.md). The trainer is `brass.learn`
(the `learn` extra: JAX is imported only when a run starts); a `LearnError` is reported as one line like every
other mistake."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
from typing import Any

from brass.cli._common import UserError, add_configuration_arguments, options

#: The settings given by a flag of their own name (`--games-per-iteration`): field of `LearnConfig`, type, what it
#: is (docs/learning.md, "The trainer").
SETTINGS: tuple[tuple[str, type, str], ...] = (
    ("games_per_iteration", int, "self-play games an iteration"),
    ("simulations", int, "the search's simulations a decision in self-play"),
    ("parallel", int, "self-play games played at once, their leaves evaluated in one batch"),
    ("steps_per_iteration", int, "training steps (AdamW) an iteration"),
    ("batch_size", int, "decisions a training step"),
    ("learning_rate", float, "the learning rate (with --decay-iterations, the first)"),
    ("decay_iterations", int, "iterations over which the learning rate falls along a cosine; 0: constant"),
    ("final_learning_rate", float, "the learning rate the decay ends at"),
    ("weight_decay", float, "AdamW's weight decay"),
    ("buffer", int, "the replay buffer: the last BUFFER self-play decisions"),
    ("warm_start_games", int, "Greedy games the network imitates before the first iteration; 0: none"),
    ("warm_start_sample_rate", float, "the share of the warm start's decisions kept"),
    ("warm_start_steps", int, "training steps on the warm start's decisions"),
    ("eval_every", int, "iterations between the trainer's arenas"),
    ("eval_deals", int, "deals of each arena match, every seat of each"),
    ("eval_simulations", int, "the simulations of the network's search in the arena"),
    ("seed", int, "the run's seed: its games, draws and initial weights"),
    ("considered", int, "Gumbel: the root actions sampled for Sequential Halving"),
    ("c_visit", float, "Gumbel: σ's visit offset (mctx's maxvisit_init)"),
    ("c_scale", float, "Gumbel: σ's scale, the weight of the completed Q-values against the priors"),
    ("c_puct", float, "PUCT: the exploration constant"),
    ("dirichlet_alpha", float, "PUCT: the root noise's Dirichlet α"),
    ("temperature_decisions", int, "PUCT: the first decisions of a game drawn by visit counts"),
    ("full_search_fraction", float, "playout-cap randomisation: the share of decisions searched in full"),
    ("fast_simulations", int, "playout-cap randomisation: the simulations of the other decisions"),
    ("value_weight", float, "the weight of the value loss"),
    ("aux_weight", float, "the weight of the auxiliary head's loss (every seat's final and first-era VP margin)"),
    ("value_margin", float, "the value target: (1 - m) x the result + m x tanh(VP margin / 10)"),
    ("value_sample_rate", float, "the share of decisions that keep their value targets"),
    ("policy_surprise", float, "policy surprise weighting of the buffer's draws; 0: uniform"),
)


def add_parser(sub: Any) -> None:
    """Add `brass learn` to the command line's subcommands (its defaults are `LearnConfig`'s, so the package is
    imported here; JAX only when a run starts)."""
    from brass.learn import RECIPES, LearnConfig

    p = sub.add_parser("learn", help="train a policy-value network by self-play (needs '.[learn]'; docs/learning.md)")
    add_configuration_arguments(p, players=2, otherwise="; with --recipe, the recipe's; with --resume, the run's")
    p.add_argument("--out", required=True, metavar="DIR", help="the run's folder (config, log, networks)")
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --out, with its configuration (a --game, --players or --option that differs from "
        "it is refused); --minutes and --iterations may be raised: they count the run in all, not this session",
    )
    p.add_argument(
        "--recipe",
        choices=RECIPES,
        metavar="NAME",
        help="start from the settings of the run that trained the shipped network NAME, up to the iteration "
        f"shipped and with no time limit: {', '.join(RECIPES)}; its game and player count unless --game or "
        '--players is given; every other option given overrides the recipe\'s (docs/learning.md, "Recipes")',
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print the new run's configuration (what its config.json will hold) and stop: nothing is made or run",
    )
    # No defaults here: a resumed run keeps its own configuration, and a new one gets lancashire at 2 players.
    p.set_defaults(game=None, players=None)
    defaults = LearnConfig()
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="stop once the run has taken this many minutes of wall time in all: with --resume, the run's total "
        "budget counted across resumes, not minutes more (default: no limit)",
    )
    p.add_argument(
        "--iterations",
        type=int,
        default=None,
        help=f"stop after the run's iteration ITERATIONS (with --resume too: a total) (default {defaults.iterations})",
    )
    for name, kind, what in SETTINGS:
        flag = "--" + name.replace("_", "-")
        p.add_argument(flag, type=kind, default=None, help=f"{what} (default {getattr(defaults, name)})")
    p.add_argument("--widths", type=int, nargs="+", default=None, help=f"hidden layers (default {defaults.widths})")
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="self-play on a Ray cluster at ADDRESS (the ray extra); alone: one started on this machine",
    )
    p.add_argument(
        "--search", choices=("gumbel", "puct"), default=None, help=f"the self-play search (default {defaults.search})"
    )
    p.add_argument(
        "--no-rescale",
        dest="rescale",
        action="store_false",
        default=None,
        help="Gumbel: keep completed Q-values on their own scale (default: rescaled per node)",
    )
    p.add_argument(
        "--eval-anchors",
        nargs="+",
        default=None,
        metavar="AGENT",
        help=f"the arena's fixed anchors, greedy always among them (default {' '.join(defaults.eval_anchors)})",
    )
    p.add_argument(
        "--policy-target",
        choices=("visits", "completed_q"),
        default=None,
        help=f"the policy target (default {defaults.policy_target})",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`brass learn`: a new run in `--out`, or the run there resumed; the exit code."""
    from brass.learn import Trainer, stored_config

    if args.resume:
        if args.recipe or args.dry_run:
            flag = "--recipe" if args.recipe else "--dry-run"
            raise UserError(
                f"{flag} is for a new run; --resume goes on with the run's own settings ({args.out}/config.json)"
            )
        check_same_configuration(stored_config(args.out), args)
        trainer = Trainer(args.out, resume=True)
    else:
        config = new_config(args)
        config.check()  # a bad configuration is reported before the folder is made
        if args.dry_run:
            print(json.dumps(dataclasses.asdict(config), indent=1))
            return 0
        trainer = Trainer(args.out, config)
    if args.resume:  # a resumed run may be given a new budget
        trainer.change_budget(args.minutes, args.iterations, args.ray)
    trainer.run()
    print(f"network: {trainer.net_path} (brass.agents.Net / NetMCTS); log: {os.path.join(args.out, 'log.csv')}")
    return 0


def new_config(args: argparse.Namespace) -> Any:
    """The `LearnConfig` of a new run: the settings given, over the recipe's (`--recipe`) or the defaults (and
    lancashire at 2 players)."""
    from brass.learn import LearnConfig, recipe

    chosen = {k: v for k, v in vars(args).items() if k in LearnConfig.__dataclass_fields__ and v is not None}
    settings = {k: v for k, v in chosen.items() if k not in ("game", "players", "options")}
    if args.recipe:
        base = recipe(args.recipe)
        args.game, args.players = args.game or base.game, args.players or base.players
        # The recipe's options are its configuration's (none): options given replace them, as --game does.
        return recipe(args.recipe, game=args.game, players=args.players, options=options(args), **settings)
    args.game, args.players = args.game or "lancashire", args.players or 2
    return LearnConfig(game=args.game, players=args.players, options=options(args), **settings)


def check_same_configuration(stored: Any, args: argparse.Namespace) -> None:
    """Refuse to resume a run with another game, player count or options than its own (the run would go on
    with its own, silently); what is not given is the run's."""
    game = args.game or stored.game
    chosen = options(argparse.Namespace(game=game, option=args.option)) if args.option else stored.options
    asked = {"game": game, "players": args.players or stored.players, "options": chosen}
    have = {"game": stored.game, "players": stored.players, "options": stored.options}
    if asked != have:
        raise UserError(
            f"{args.out} holds a run of {_configuration(have)}; this command asks for {_configuration(asked)}: "
            "leave out --game, --players and --option to resume the run, or give another --out for a new one"
        )


def _configuration(c: dict[str, Any]) -> str:
    """`birmingham, 2 players, options intro` (or `no options`)."""
    on = ", ".join(f"{k}={v}" if v is not True else k for k, v in sorted(c["options"].items()))
    return f"{c['game']}, {c['players']} players, " + (f"options {on}" if on else "no options")
