"""`diamonds play`: play against the bots on a terminal (or from piped lines); wiring and a plain loop.

What happens is told in the replay's words (the family view's step log through `views.narrator`: each
card, the trick's winner, Suit Actions, a hand's scoring, and the scores after each round); the player's
decision is asked for in words (the family view's `ask`: a Clubs victim or a point card by name, a bid by
its number, the legal cards by suit), and a move typed as DGN writes it is taken too."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from diamonds.io.interrupt import note_output

from .errors import CommandError
from .outputs import open_output
from .players import seat_names

__all__ = ["run", "HUMAN"]

HUMAN = "human"  # the player's entry in the saved game's `Bots` tag (player=bot per seat, as the arena writes)


def run(args: argparse.Namespace) -> int:
    import diamonds
    from diamonds.bots import make_bot
    from diamonds.core import ConfigError, family_of
    from diamonds.views.narrator import Narrator

    names = list(seat_names(args.players, args.rules))
    options = {name[len("tag_"):]: value for name, value in vars(args).items()
               if name.startswith("tag_") and value is not None}
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    rng = random.Random(seed)
    try:
        pos = diamonds.Position(args.rules, names, dealer=rng.randrange(len(names)), options=options or None)
    except ConfigError as error:
        raise CommandError(str(error)) from None
    me = 0 if args.as_player is None else pos.config.seat_of(args.as_player)
    if me is None:
        raise CommandError(f"--as {args.as_player}: not a player of this game ({' '.join(names)})")
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
    seat_bots = [HUMAN if seat == me else specs[others.index(seat)] for seat in range(len(names))]
    view = family_of(args.rules).part("view", default=None)
    narrator = Narrator(view, me) if view is not None else None
    say = print

    def tell() -> None:
        for line in narrator.news(pos.engine) if narrator is not None else ():
            say(f"  {line}")

    say(f"{args.rules}: you are {names[me]}; " + ", ".join(f"{names[s]} is {spec}" for s, spec in zip(others, specs))
        + f" (seed {seed}). Answer each question in words (or type a move as DGN writes it); "
        "'moves' lists your choices, 'quit' stops.")
    try:
        return _play(args, pos, me, bots, seat_bots, view, rng, tell, say)
    except KeyboardInterrupt:  # ^C (or SIGTERM, SIGHUP) stops the game as `quit` does: -o keeps it so far
        if args.output and args.output != "-":
            _save(args, pos, seat_bots)
            note_output(args.output, "saved with the game so far (unfinished)")
        raise


def _play(args: argparse.Namespace, pos: Any, me: int, bots: dict[int, Any], seat_bots: list[str], view: Any,
          rng: random.Random, tell: Any, say: Any) -> int:
    """The game, from the position as dealt to its end or until the player stops; saved with -o."""
    while not pos.is_over:
        if pos.is_chance:
            tell()
            pos.deal(rng)
            tell()
            say(f"-- {pos.label}: dealt. Your hand: {' '.join(map(str, pos.view(me).hand(me)))}")
            continue
        seat = pos.to_move_seat
        assert seat is not None  # not a chance move, not over
        if seat != me:
            pos.push(bots[seat].choose(pos.view(seat)))
            continue
        tell()
        move = _ask_move(pos, me, view)
        if move is None:
            say("\nstopped.")
            return _save(args, pos, seat_bots)
        pos.push(move)
    tell()
    say("game over: " + ", ".join(f"{' '.join(s.players)} {s.score}" for s in pos.standings)
        + f"; winner(s): {' '.join(pos.winners)}")
    return _save(args, pos, seat_bots)


def _ask_move(pos: Any, me: int, family_view: Any) -> Any | None:
    """The player's move, asked for until a legal one is given (None: they quit, or the input ended)."""
    from diamonds.views.ask import Ask

    view = pos.view(me)
    legal = view.legal_moves
    say = print
    say(f"[{pos.label}] your hand: {' '.join(map(str, view.hand(me)))}")
    first = family_view.ask(pos.config, legal) if family_view is not None and family_view.ask is not None else None
    asking: Ask | None = first

    def choices() -> None:
        if asking is None:
            say("  legal: " + " ".join(view.text(move) for move in legal))
        elif len(asking.listing) > 1 or asking.listing[0] not in asking.question:  # not said in the question
            for listed in asking.listing:
                say(f"  {listed}")

    shown: Ask | None | bool = False  # the question whose choices were listed last
    while True:
        say(asking.question if asking is not None else "Your move?")
        if shown is False or shown is not asking:
            choices()
            shown = asking
        sys.stdout.write("your move> ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line or line.strip() == "quit":
            return None
        word = line.strip()
        if not word:
            continue
        if word in ("moves", "?"):
            shown = False
            continue
        answer: Any = None
        refusal = ""
        if asking is not None:
            try:
                answer = asking.answer(word)
            except ValueError as error:
                refusal = str(error)
        if answer is None:  # the move as DGN writes it (`>Bob`, `take 9H point 7S`, `AH-`)
            try:
                typed = view.parse(word)
            except ValueError as error:
                refusal = refusal or str(error)
            else:
                if typed in legal:
                    answer = typed
                else:
                    refusal = refusal or f"{word} is not legal here"
        if isinstance(answer, Ask):
            asking = answer
            continue
        if answer is None or answer not in legal:
            say(f"  {refusal or 'not legal here'}; 'moves' lists your choices")
            asking = first
            continue
        return answer


def _save(args: argparse.Namespace, pos: Any, seat_bots: list[str]) -> int:
    from diamonds.bots.arena import bots_tag

    if args.output:
        tags = {"Event": "Diamonds against the bots", "Bots": bots_tag(pos.players, seat_bots)}
        with open_output(args.output, force=args.force) as out:
            out.write(str(pos.game(tags)))
    return 0
