"""Regenerate the sample games of Kirk's Diamonds in samples/ (`kirk-*.dgn`).

    python samples/make_kirk_samples.py          # from the repository root

Each game is a seeded simulation (`diamonds.core.simulate(rules="kirk")`).
A sample asks for tie events the engine reports (`TrickWon.decided_by` and
`depth`, K5); seeds are tried in order from `first_seed` until the game shows
all of them, so the same file comes out every time. The game is then turned
into a record (`replay.record_from_game`), given what a scorer writes in the
margin (who leads, how each tie was broken, the totals after each hand) and
written with `notation.writer`. Before a file is written, each game is read
back and replayed: it must parse to the same record, replay valid and
complete, and its Result must hold the scores.

The invalid Kirk samples in samples/invalid/ are hand-made from these files.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "samples") not in sys.path:  # the shared helper, also when loaded by path
    sys.path.insert(0, str(ROOT / "samples"))

import sampling  # noqa: E402
from sampling import Sample, braced, club, line_comment, make_files, with_notes  # noqa: E402

from diamonds.core import Engine  # noqa: E402
from diamonds.families.kirk.rules import (  # noqa: E402
    CardPlayed,
    DecidedBy,
    HandScored,
    HandStarted,
    TieBroken,
    TrickWon,
    card_value,
    first_leader,
)
from diamonds.notation.records import Comment, GameRecord  # noqa: E402

#: Tie events a sample can ask for (K5).
FIRST_TRICK_FIRST_PLAYED = "a tie on a hand's first trick, won by the first of the tied to play"
DEEP_TIE = "a tie broken by the scoring piles at depth 2 or deeper"


FILES: dict[str, list[Sample]] = {
    "kirk-4p-hands.dgn": [
        Sample(("Moira", "Ewan", "Fiona_K", "Tam"),
               club("Kirk's Diamonds at the Canny Man", "Edinburgh SCO", "2026.10.16", "1"), 1,
               options=(("Hands", "4"),), wants=(FIRST_TRICK_FIRST_PLAYED,),
               opening=("Four hands, each of us deals once. Scorer: Fiona_K",)),
    ],
    "kirk-4p-target.dgn": [
        Sample(("Ailsa", "doug_mc", "Hamish", "Isla-R"),
               club("Kirk's Diamonds at the Canny Man", "Edinburgh SCO", "2026.10.16", "2"), 1,
               options=(("Target", "250"),), wants=(DEEP_TIE,),
               opening=("Played up to 250 points",)),
    ],
    "kirk-4p-no-deals.dgn": [
        Sample(("Moira", "doug_mc", "Isla-R", "Ewan"),
               club("Kirk's Diamonds at the Canny Man", "Edinburgh SCO", "2026.10.30", "1"), 1,
               options=(("Hands", "4"),), wants=(FIRST_TRICK_FIRST_PLAYED, DEEP_TIE), deals=False,
               opening=("Hands not written down: each player held the 13 cards they played",)),
    ],
}


# --------------------------------------------------------------------------- the search


def shows(game: Engine) -> set[str]:
    """The tie events `game` shows."""
    seen = set()
    for events in game.events:
        for event in events:
            if isinstance(event, TrickWon):
                if event.trick_no == 1 and event.decided_by is DecidedBy.FIRST_PLAYED:
                    seen.add(FIRST_TRICK_FIRST_PLAYED)
                if event.decided_by is DecidedBy.PILES and event.depth >= 2:
                    seen.add(DEEP_TIE)
    return seen


def find_game(sample: Sample) -> tuple[int, Engine]:
    """The first seed from `first_seed` whose game shows every tie event the sample wants."""
    return sampling.find_game(sample, "kirk", shows)


# --------------------------------------------------------------------------- the margin


def tie_text(event: TieBroken, value: int, names: tuple[str, ...]) -> str:
    """How a tie was broken (K5), as a scorer notes it."""
    tied = [names[seat] for seat in event.tied]
    parts = [f"{' and '.join(tied)} tie on {value}"]
    for step in event.steps:
        if not step.revealed:
            first = names[step.remaining[0]]
            nothing = "empty piles" if step.depth == 1 else f"no card at depth {step.depth}"
            parts.append(f"{nothing}: {first} played first")
            break
        shown = ", ".join([f"{names[seat]} {card}" for seat, card in step.revealed]
                          + [f"{names[seat]} no card" for seat in step.no_card])
        parts.append(f"depth {step.depth}: {shown}")
    else:
        parts[-1] += f": {names[event.winner]} wins"
    return "; ".join(parts)


def margin(record: GameRecord, game: Engine, opening: tuple[str, ...]) -> GameRecord:
    """Who leads hand 1, how each tie was broken (with `!` on the card that won it), the totals after each hand."""
    config = game.config
    names = config.players
    hands = [[list(trick.plays) for trick in rnd.tricks] for rnd in record.rounds]
    trick_notes: dict[tuple[int, int], list[Comment]] = {}
    hand = 0
    in_trick: dict[int, object] = {}  # seat -> card, of the trick being played
    for events in game.events:
        for event in events:
            if isinstance(event, CardPlayed):
                if event.leads:
                    in_trick = {}
                in_trick[event.seat] = event.card
            elif isinstance(event, HandStarted):
                hand = event.hand_no - 1
                if hand == 0:
                    leader = names[first_leader(config, event.dealer)]
                    trick_notes.setdefault((0, 0), []).append(braced(f"{leader} leads"))
            elif isinstance(event, TieBroken):
                value = card_value(in_trick[event.tied[0]])  # type: ignore[arg-type]
                trick_notes.setdefault((hand, event.trick_no - 1), []).append(braced(tie_text(event, value, names)))
            elif isinstance(event, TrickWon) and event.decided_by is not DecidedBy.HIGHEST:
                plays = hands[hand][event.trick_no - 1]
                index = next(i for i, p in enumerate(plays) if p.card is event.card)
                plays[index] = replace(plays[index], annotation="!")
            elif isinstance(event, HandScored):
                totals = ", ".join(f"{names[seat]} {total}" for seat, total in enumerate(event.totals))
                last = hands[hand][-1]
                note = line_comment(f"after R{hand + 1}: {totals}")
                last[-1] = replace(last[-1], comments=last[-1].comments + (note,))
    return with_notes(record, hands, trick_notes, opening)


# --------------------------------------------------------------------------- files


def make(sample: Sample) -> tuple[int, GameRecord]:
    return sampling.make(sample, find_game, margin)


if __name__ == "__main__":
    make_files(FILES, make)
