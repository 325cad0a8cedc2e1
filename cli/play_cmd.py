"""`diamonds play`: play against the bots on a terminal (or from piped lines); wiring and a plain loop."""

from __future__ import annotations

import argparse
import random
import sys

from .errors import CommandError
from .outputs import open_output
from .players import seat_names

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    import diamonds
    from diamonds.bots import make_bot
    from diamonds.core import ConfigError

    names = list(seat_names(args.players, args.rules))
    options = {name[len("tag_"):]: value for name, value in vars(args).items()
               if name.startswith("tag_") and value is not None}
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    rng = random.Random(seed)
    try:
        pos = diamonds.Position(args.rules, names, dealer=rng.randrange(len(names)), options=options or None)
    except ConfigError as error:
        raise CommandError(str(error)) from None
    try:
        me = pos.seat(args.as_player or names[0])
    except KeyError as error:
        raise CommandError(str(error.args[0])) from None
    specs = [word.strip() for word in args.bots.split(",") if word.strip()]
    others = [seat for seat in range(len(names)) if seat != me]
    if len(specs) == 1:
        specs = specs * len(others)
    if len(specs) != len(others):
        raise CommandError(f"--bots names {len(specs)} bots for {len(others)} other players")
    try:
        bots = {seat: make_bot(spec, seed=rng.randrange(2**63)) for seat, spec in zip(others, specs)}
    except ValueError as error:
        raise CommandError(str(error)) from None
    say = print
    say(f"{args.rules}: you are {names[me]}; " + ", ".join(f"{names[s]} is {spec}" for s, spec in zip(others, specs))
        + f" (seed {seed}). Type a move as DGN writes it; 'moves' lists yours, 'quit' stops.")
    while not pos.is_over:
        if pos.is_chance:
            pos.deal(rng)
            say(f"-- {pos.label}: dealt. Your hand: {' '.join(map(str, pos.view(me).hand(me)))}")
            continue
        seat = pos.to_move_seat
        assert seat is not None  # not a chance move, not over
        if seat == me:
            view = pos.view(me)
            say(f"[{pos.label}] your hand: {' '.join(map(str, view.hand(me)))}")
            while True:
                sys.stdout.write("your move> ")
                sys.stdout.flush()
                line = sys.stdin.readline()
                if not line or line.strip() == "quit":
                    say("\nstopped.")
                    return _save(args, pos)
                word = line.strip()
                if word in ("moves", "?"):
                    say("legal: " + " ".join(view.text(move) for move in view.legal_moves))
                    continue
                try:
                    move = view.parse(word)
                except ValueError as error:
                    say(f"  {error}")
                    continue
                if move not in view.legal_moves:
                    say("  not legal here; legal: " + " ".join(view.text(m) for m in view.legal_moves))
                    continue
                pos.push(move)
                break
        else:
            view = pos.view(seat)
            move = bots[seat].choose(view)
            private = pos.rule_set.is_private(pos.state, move)  # a pass, a kitty take: not shown (R6, B4)
            text = pos.text(move) if not private else "(face down)"
            pos.push(move)
            say(f"  {names[seat]}: {text}")
    say("game over: " + ", ".join(f"{' '.join(s.players)} {s.score}" for s in pos.standings)
        + f"; winner(s): {' '.join(pos.winners)}")
    return _save(args, pos)


def _save(args: argparse.Namespace, pos: object) -> int:
    if args.output:
        with open_output(args.output, force=args.force) as out:
            out.write(str(pos.game({"Event": "Diamonds against the bots"})))  # type: ignore[attr-defined]
    return 0
