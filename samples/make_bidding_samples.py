"""Regenerate the sample games of three-handed bidding Diamonds in samples/ (`bidding-3p-*.dgn`).

    python samples/make_bidding_samples.py          # from the repository root

Each game is played by the project's bots (docs/bots.md), not at random, so the
bids, the made contracts and the scores look like a club's: the club's games
by `mc`, the kitchen table's by `greedy`; everything random in a game comes
from its seed (`sampling.bots_game`). A sample asks for plays the engine
reports (a high Joker winning a trick, a Joker led low, an ace played low:
`TrickWon.why`, `CardPlayed`), for a final bid of 7 or more made (B9), and for
final scores above and below zero; seeds are tried in order from `first_seed`
until the game shows all it asks, so the same file comes out every time (each
`first_seed` is the seed found, so regenerating plays each game once; the `mc`
games take some CPU-seconds each). The game is
then turned into a record (`replay.record_from_game`), given what a scorer
writes in the margin (who leads, the first time each of those plays happens,
each hand's points and the totals) and written with `notation.writer`.
Before a file is written, each game is read back and replayed: it must parse
to the same record, replay valid and complete, and its Result must hold the
scores.

The invalid bidding samples in samples/invalid/ are hand-made from these files.
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

from diamonds.core import JOKER, Engine  # noqa: E402
from diamonds.families.bidding.rules import (  # noqa: E402
    CardPlayed,
    GameEnded,
    HandScored,
    HandStarted,
    TrickWon,
    WinReason,
)
from diamonds.families.bidding.rules.deck import TRUMPS  # noqa: E402
from diamonds.notation.records import Comment, GameRecord  # noqa: E402

#: What a sample can ask for.
HIGH_JOKER_WINS = "a high Joker wins a trick"
LOW_JOKER_LED = "a Joker led low"
LOW_ACE = "an ace played low"
NEGATIVE = "a negative final score"
POSITIVE = "a positive final score"
HIGH_BID_MADE = "a final bid of 7 or more made"

#: The club plays well (determinised Monte Carlo, 6 samples a decision); the kitchen table by rules of thumb.
CLUB = ("mc:6", "mc:6", "mc:6")
KITCHEN = ("greedy", "greedy", "greedy")


FILES: dict[str, list[Sample]] = {
    "bidding-3p-kitchen-table.dgn": [
        Sample(("Graham", "Anita", "Irene"),
               club("Diamonds at Graham's", "Leeds ENG", "2026.09.12", "1"), 27,
               wants=(HIGH_JOKER_WINS, LOW_JOKER_LED, LOW_ACE, NEGATIVE, POSITIVE), bots=KITCHEN,
               opening=("Three-handed Diamonds, bidding for tricks; Diamonds trumps. Scorer: Irene",)),
    ],
    "bidding-3p-club.dgn": [
        Sample(("Colin", "Andrea", "mags_b"),
               club("Tuesday cards", "Leeds ENG", "2026.09.22", "1"), 1,
               wants=(HIGH_JOKER_WINS, LOW_ACE, NEGATIVE, HIGH_BID_MADE), bots=CLUB,
               opening=("Played to 100 up or 100 down",)),
        Sample(("Colin", "Andrea", "mags_b"),
               club("Tuesday cards", "Leeds ENG", "2026.09.22", "2"), 2,
               wants=(LOW_JOKER_LED, NEGATIVE, POSITIVE, HIGH_BID_MADE), bots=CLUB),
    ],
    "bidding-3p-no-deals.dgn": [
        Sample(("Graham", "Anita", "Irene"),
               club("Diamonds at Graham's", "Leeds ENG", "2026.09.19", "1"), 41,
               wants=(HIGH_JOKER_WINS, LOW_ACE, NEGATIVE, POSITIVE), deals=False, bots=KITCHEN,
               opening=("Hands and kitty not written down: each hand is what its player played, "
                        "plus the point card, less the card taken",)),
    ],
}


# --------------------------------------------------------------------------- the search


def shows(game: Engine) -> set[str]:
    """What `game` shows of the things a sample can ask for."""
    seen = set()
    made = []
    for events in game.events:
        for event in events:
            if isinstance(event, TrickWon) and event.why is WinReason.HIGH_JOKER:
                seen.add(HIGH_JOKER_WINS)
            elif isinstance(event, CardPlayed):
                if event.card is JOKER and event.leads and event.high is False:
                    seen.add(LOW_JOKER_LED)
                if event.card.is_ace and event.high is False:
                    seen.add(LOW_ACE)
            elif isinstance(event, HandScored):
                made += [s.final_bid for s in event.seats if s.made]
            elif isinstance(event, GameEnded):
                if any(s.score < 0 for s in event.standings):
                    seen.add(NEGATIVE)
                if any(s.score > 0 for s in event.standings):
                    seen.add(POSITIVE)
    if any(bid >= 7 for bid in made):
        seen.add(HIGH_BID_MADE)
    return seen


def find_game(sample: Sample) -> tuple[int, Engine]:
    """The first seed from `first_seed` whose game shows everything the sample wants."""
    return sampling.find_game(sample, "bidding", shows)


# --------------------------------------------------------------------------- the margin


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def margin(record: GameRecord, game: Engine, opening: tuple[str, ...]) -> GameRecord:
    """Who leads hand 1; the first high Joker to win, Joker led low and ace played low (a high Joker's
    win marked `!`); each hand's points and the totals after it."""
    config = game.config
    names = config.players
    hands = [[list(trick.plays) for trick in rnd.tricks] for rnd in record.rounds]
    trick_notes: dict[tuple[int, int], list[Comment]] = {}
    hand = 0
    noted: set[str] = set()
    for events in game.events:
        for event in events:
            if isinstance(event, HandStarted):
                hand = event.hand_no - 1
                if hand == 0:
                    trick_notes[(0, 0)] = [braced(f"{names[config.left_of(event.dealer)]} leads")]
            elif isinstance(event, CardPlayed):
                plays = hands[hand][event.trick_no - 1]
                index = next(i for i, p in enumerate(plays) if p.card is event.card)
                note = None
                if event.card is JOKER and event.leads and event.high is False and LOW_JOKER_LED not in noted:
                    noted.add(LOW_JOKER_LED)
                    suit = event.suit.title[:-1]
                    note = (f"Joker led low as a {suit}, the lowest trump: any other Diamond beats it"
                            if event.suit is TRUMPS else f"Joker led low as a {suit}: any other {suit} or a "
                            "Diamond beats it")
                elif event.card.is_ace and event.high is False and LOW_ACE not in noted:
                    noted.add(LOW_ACE)
                    note = f"{names[event.seat]} plays the ace low, below the 7"
                if note is not None:
                    plays[index] = replace(plays[index], comments=plays[index].comments + (braced(note),))
            elif isinstance(event, TrickWon) and event.why is WinReason.HIGH_JOKER and HIGH_JOKER_WINS not in noted:
                noted.add(HIGH_JOKER_WINS)
                plays = hands[hand][event.trick_no - 1]
                index = next(i for i, p in enumerate(plays) if p.card is JOKER)
                plays[index] = replace(plays[index], annotation="!",
                                       comments=plays[index].comments + (braced("the high Joker takes the trick"),))
            elif isinstance(event, HandScored):
                made = ", ".join(f"{names[s.seat]} {s.tricks}/{s.final_bid} {s.point_card} "
                                 f"{_signed(s.points)}" for s in event.seats)
                totals = ", ".join(f"{names[s.seat]} {s.total}" for s in event.seats)
                last = hands[hand][-1]
                last[-1] = replace(last[-1], comments=last[-1].comments + (
                    line_comment(f"R{hand + 1}: {made}; totals {totals}"),))
    legend = "After each hand: tricks won/final bid, point card, points; then the totals"
    return with_notes(record, hands, trick_notes, (*opening, legend))


# --------------------------------------------------------------------------- files


def make(sample: Sample) -> tuple[int, GameRecord]:
    return sampling.make(sample, find_game, margin)


if __name__ == "__main__":
    make_files(FILES, make)
