"""The stand-in deal (`replay_record(stand_in=True)`): an unfinished last round written without deal lines is
played on a deal drawn to fit the record, so the recorder and the server have a live table at every item.

Its promise: any deal that fits the record plays the record's items alike, because a card's legality and
every public consequence (the trick, who won it, the Suit Actions, the scores, who is due) rest only on what
the record proves. So, cut anywhere in a round of a real game written without deal lines, the stand-in
replay makes the real game's moves (but the deal) and reaches its public state, and `drawn_round` says the
hands are not known."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from diamonds.core import family_of
from diamonds.notation import parse_game
from diamonds.replay.validate import replay_record

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
#: The families whose bridge draws a stand-in deal (the others stop at the round's start, as before).
DRAWING = {"fitzgerald", "kirk", "bidding"}


def first_games() -> list[tuple[str, str]]:
    found = []
    for path in sorted(SAMPLES.glob("*.dgn")):
        text = path.read_text(encoding="utf-8")
        game = text.split("\n\n[Event", 1)[0]
        if "\ndeal " in game:
            found.append((path.name, game))
    return found


def cuts(text: str) -> list[str]:
    """The game without deal and kitty lines and with `Result "*"`, cut after each card of its first two
    rounds' trick lines and after each of their other lines (passes, bids, takes)."""
    text = re.sub(r"\{[^}]*\}|;[^\n]*", "", text)  # comments aside: cuts fall between cards
    body = [" ".join(line.split()) for line in text.splitlines() if not line.startswith(("deal ", "kitty "))]
    head = [re.sub(r'^\[Result ".*"\]$', '[Result "*"]', line) for line in body[:body.index("")]]
    lines = body[body.index(""):]
    rounds_seen, found = 0, []
    for index, line in enumerate(lines):
        if line.startswith("R"):
            rounds_seen += 1
            if rounds_seen > 2:
                break
        words = line.split()
        if words and (words[0].endswith(".") and words[0][:-1].isdigit()):
            for k in range(2, len(words) + 1):
                found.append("\n".join([*head, *lines[:index], " ".join(words[:k])]) + "\n")
        elif words and not line.startswith(("R", "end")):  # a pass line, a bid, a take, a final bid
            found.append("\n".join([*head, *lines[:index + 1]]) + "\n")
    return found


def same(move: object) -> object:
    hands = getattr(move, "hands", None)
    return move if hands is None else tuple(frozenset(hand) for hand in hands)


@pytest.mark.parametrize("name,text", first_games(), ids=[name for name, _ in first_games()])
def test_a_stand_in_deal_plays_the_record_as_the_real_deal_does(name, text) -> None:
    whole = replay_record(parse_game(text))
    assert whole.valid
    rules = whole.game.rules
    if family_of(whole.config.rules).name not in DRAWING:
        pytest.skip(f"{family_of(whole.config.rules).name} draws no stand-in deal yet")
    drawn = asked = 0
    for cut in cuts(text):
        replayed = replay_record(parse_game(cut), stand_in=True)
        # nothing refused; at most the question a recorder asks: the victim due now, named by a later item
        assert all(problem.code == "victim-required" for problem in replayed.problems), replayed.problems
        asked += bool(replayed.problems)
        game = replayed.game
        if replayed.drawn_round is None:
            continue
        drawn += 1
        deal = next(ply for ply in range(len(game.moves) - 1, -1, -1) if rules.is_chance(game.state_at(ply)))
        # the real game's moves, but the stand-in deal itself (a deal's hands compared as sets: a written deal
        # line's order is not an inferred hand's)
        moves = [same(move) for move in game.moves]
        real_moves = [same(move) for move in whole.game.moves[:len(game.moves)]]
        assert moves[:deal] == real_moves[:deal] and moves[deal + 1:] == real_moves[deal + 1:]
        real = whole.game.state_at(len(game.moves))
        assert rules.standings(game.state) == rules.standings(real)
        assert rules.to_move(game.state) == rules.to_move(real)
        assert rules.is_chance(game.state) == rules.is_chance(real)
        # without stand_in the replay stops at the round's start, as `validate` does
        assert replay_record(parse_game(cut)).drawn_round is None
    assert drawn >= 10
