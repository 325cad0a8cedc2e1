"""How a replay of Kirk's Diamonds looks (`diamonds.families.kirk.view`): steps, screens and words.

Seats: Ann 0, Bob 1, Cat 2, Dan 3. A scoring pile is written bottom first, so
its top card (K6) is the last one written. The tie-break screens come from a
hand dealt here on purpose, so that every card revealed is known in advance
(K5); the budget tests (80×24) walk every step of simulated games.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import viewcheck

from diamonds.core import Card, Engine, simulate
from diamonds.families.kirk import rules as kirk
from diamonds.families.kirk.narrate import describe_tie
from diamonds.families.kirk.view import VIEW
from diamonds.replay.steps import Step, find_position
from diamonds.views import view_for

ANN, BOB, CAT, DAN = range(4)
PLAYERS = ("Ann", "Bob", "Cat", "Dan")
LONG_NAMES = ("Alexandra_Smith1", "Bartholomew-Jone", "Christophe_Dupon", "Dorothea_Mueller")
CARD = re.compile(r"(?<![\w.])(?:10|[2-9JQKA])[DHSC](?!\w)")
ROOT = Path(__file__).resolve().parents[3]


# --------------------------------------------------------------------------- helpers


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(token) for token in text.split())


@cache
def simulated(seed: int = 1, players: tuple[str, ...] = PLAYERS, **options: str) -> tuple[Engine, list[Step]]:
    game = simulate(players, rules="kirk", seed=seed, options=options or None)
    assert game.is_over
    return game, viewcheck.steps_of(game)


def dealt_game(hands: Sequence[str], plays: str, dealer: str = "Dan") -> Engine:
    """A hand dealt as given (the rest of the pack shared out in order), then `plays` played in turn."""
    given = [cards(hand) for hand in hands]
    used = {card for hand in given for card in hand}
    rest = [card for card in kirk.DECK if card not in used]
    full = []
    for hand in given:
        need = 13 - len(hand)
        full.append(hand + tuple(rest[:need]))
        rest = rest[need:]
    game = Engine(kirk.Kirk.configure(PLAYERS, dealer=dealer, options={"Hands": "1"}))
    game.push(kirk.Deal(tuple(full)))
    for card in cards(plays):
        game.push(kirk.PlayCard(card))
    return game


# Dealer Dan, so Ann leads (K4).
# Trick 1: Ann AS wins; her pile AS 2C 3C 4C (top 4C, then 3C).
# Trick 2: Bob AC wins; his pile 5C AC 6C 4S (top 4S, then 6C).
# Trick 3: Bob QS and Ann QH tie on 12 (K5). Depth 1: Bob 4S, Ann 4C, both 4: still tied.
#          Depth 2: Bob 6C (6), Ann 3C (3): Ann drops out, Bob wins.
TIE_HANDS = ("AS 5C QH", "2C AC QS", "3C 6C 8C", "4C 4S 9C")
TIE_PLAYS = "AS 2C 3C 4C  5C AC 6C 4S  QS 8C 9C QH"


@cache
def tie_steps() -> list[Step]:
    return viewcheck.steps_of(dealt_game(TIE_HANDS, TIE_PLAYS))


def screen_text(steps: list[Step], position: str, *, as_player: int | None = None, footer: str = "",
                width: int = viewcheck.WIDTH) -> str:
    index = find_position(steps, position)
    return viewcheck.render(VIEW.screen(steps[index], index, len(steps), as_player, footer), width=width)


def shown_cards(text: str) -> set[Card]:
    return {Card.parse(match.group(0)) for match in CARD.finditer(text)}


# --------------------------------------------------------------------------- the registry and the steps


def test_the_registry_gives_this_view() -> None:
    assert view_for("kirk") is VIEW


def test_steps_are_start_deals_cards_and_ends_labelled_as_every_family() -> None:
    game, steps = simulated()
    hands = 4  # K8: the default, each player deals once
    assert game.config == kirk.Kirk.configure(PLAYERS, dealer=game.config.first_dealer, options={"Hands": "4"})
    card_steps = viewcheck.assert_card_steps(steps, hands, 13, 4)  # K4: 13 tricks of 4 cards a hand
    assert all(isinstance(s.events[0], kirk.CardPlayed) and s.actor == s.events[0].seat for s in card_steps)


@pytest.mark.parametrize(("position", "label", "kind"), [
    ("R1.0", "R1.0", "deal"), ("R1.5", "R1.5.4", "card"), ("R1.5.2", "R1.5.2", "card"),
    ("R1.end", "R1.end", "end"), ("end", "R4.end", "end"), ("start", "start", "start"),
])
def test_find_position(position: str, label: str, kind: str) -> None:
    viewcheck.assert_step_at(simulated()[1], position, label, kind)


def test_the_table_follows_the_piles() -> None:
    """K6: a won trick goes on top of its winner's pile, in play order; piles start empty every hand."""
    steps = tie_steps()
    table = steps[find_position(steps, "R1.2")].table
    assert table.piles[ANN] == cards("AS 2C 3C 4C") and table.piles[BOB] == cards("5C AC 6C 4S")
    assert table.top(ANN) == Card.parse("4C") and table.top(CAT) is None
    assert table.tricks_won == (1, 1, 0, 0)
    assert table.hand_points == (10 + 1 + 1 + 1, 1 + 10 + 1 + 1, 0, 0)  # K7: A 10, 2-10 1
    _, sim = simulated()
    assert all(pile == () for pile in sim[find_position(sim, "R2.0")].table.piles)


# --------------------------------------------------------------------------- a tie on the screen


def test_the_screen_at_a_tie_shows_the_revealed_cards_step_by_step() -> None:
    text = screen_text(tie_steps(), "R1.3.4")
    lines = viewcheck.lines_of(text)
    assert lines[0] == "Hand 1/1 · trick 3/13 · Dan deals · R1.3.4 (14/14)"
    assert "Trick 3: Bob QS (12) · Cat 8C (8) · Dan 9C (9) · Ann QH (12)  → Bob wins" in lines
    tie = lines.index("Tie on 12 between Bob and Ann: their piles decide, top card first")
    assert lines[tie + 1] == "  depth 1: Bob 4S (4) · Ann 4C (4)"
    assert lines[tie + 2] == "  depth 2: Bob 6C (6) · Ann 3C (3) → Ann out (lower), Bob wins"
    assert lines[-4:] == [  # the log: the step's events in words
        "Ann plays QH",
        "Tie on 12 between Bob and Ann: depth 1 Bob 4S, Ann 4C; depth 2 Bob 6C, Ann 3C →",
        "Bob wins the trick",
        "Bob wins trick 3 with QS",
    ]


def test_the_tie_is_shown_only_once_the_trick_is_complete() -> None:
    steps = tie_steps()
    assert "Tie on" not in screen_text(steps, "R1.3.3")
    assert "Tie on" not in screen_text(steps, "R1.2")


def test_a_tie_on_the_first_trick_goes_to_the_first_to_play() -> None:
    """K5: on a hand's first trick every pile is empty; the first of the tied to play wins."""
    steps = viewcheck.steps_of(dealt_game(("QS", "QH", "2C", "3C"), "QS QH 2C 3C"))
    lines = viewcheck.lines_of(screen_text(steps, "R1.1"))
    assert "Trick 1: Ann QS (12) · Bob QH (12) · Cat 2C (2) · Dan 3C (3)  → Ann wins" in lines
    tie = lines.index("Tie on 12 between Ann and Bob: first to play wins")
    assert lines[tie + 1] == "  depth 1: no card left in any of their piles → Ann played first, wins"
    log = VIEW.step_lines(steps[find_position(steps, "R1.1")], None)
    assert "Tie on 12 between Ann and Bob: no cards in their piles → Ann played first and wins the trick" in log


def test_a_player_without_a_card_at_the_depth_drops_out() -> None:
    """K5: Ann's pile has one trick, Bob's none: Bob drops out at depth 1."""
    steps = viewcheck.steps_of(dealt_game(("AS KH", "2C KS", "3C 5C", "4C 6C"), "AS 2C 3C 4C  KH KS 5C 6C"))
    lines = viewcheck.lines_of(screen_text(steps, "R1.2"))
    assert "  depth 1: Ann 4C (4) → Bob out (no card), Ann wins" in lines
    log = VIEW.step_lines(steps[find_position(steps, "R1.2")], None)
    assert "Tie on 13 between Ann and Bob: depth 1 Ann 4C, Bob no card → Ann wins the trick" in log


# --------------------------------------------------------------------------- words


CONFIG = kirk.Kirk.configure(PLAYERS, dealer="Ann")


def test_narration_of_plays_tricks_and_scores() -> None:
    say = VIEW.describe
    assert say(CONFIG, kirk.HandStarted(1, ANN)) == "Hand 1/4: Ann deals, Bob leads"  # K4
    assert say(CONFIG, kirk.CardsDealt(1, (cards("2D"),) * 4)) == "Cards are dealt, 1 to each player"
    assert say(CONFIG, kirk.CardPlayed(ANN, Card.parse("QS"), 1, True, 12)) == "Ann leads QS"
    assert say(CONFIG, kirk.CardPlayed(BOB, Card.parse("10D"), 1, False, 11)) == "Bob plays 10D (worth 11)"  # K3
    won = kirk.TrickWon(3, CAT, Card.parse("AD"), cards("2S AD 3H 4C"), (CAT,), kirk.DecidedBy.HIGHEST, 0)
    assert say(CONFIG, won) == "Cat wins trick 3 with AD"
    scored = kirk.HandScored(1, (52, 40, 61, 26), (52, 40, 61, 26))  # K7: 179 in a hand
    assert say(CONFIG, scored) == ("Hand 1 scored: Ann 52, Bob 40, Cat 61, Dan 26 "
                                   "(totals Ann 52, Bob 40, Cat 61, Dan 26)")
    ended = kirk.GameEnded(tuple(kirk.KirkResult(seat, score, seat == CAT) for seat, score in enumerate((187, 184, 234, 111))))
    assert say(CONFIG, ended) == "Game over: Ann 187, Bob 184, Cat 234 (wins), Dan 111"
    target = kirk.Kirk.configure(PLAYERS, dealer="Ann", options={"Target": "200"})
    assert say(target, kirk.HandStarted(3, CAT)) == "Hand 3 (to 200 points): Cat deals, Dan leads"  # K8


def test_narration_of_a_tie() -> None:
    """K5 in words: every depth revealed, who dropped out on the way, who wins."""
    one = kirk.TieBroken(5, ANN, (ANN, CAT), kirk.DecidedBy.PILES, 1, (
        kirk.TieStep(1, ((ANN, Card.parse("9H")), (CAT, Card.parse("4D"))), (), (CAT,), (ANN,)),
    ))
    assert describe_tie(CONFIG, one, 12) == "Tie on 12 between Ann and Cat: depth 1 Ann 9H, Cat 4D → Ann wins the trick"
    assert VIEW.describe(CONFIG, one) == "Tie between Ann and Cat: depth 1 Ann 9H, Cat 4D → Ann wins the trick"
    three = kirk.TieBroken(7, CAT, (ANN, BOB, CAT), kirk.DecidedBy.PILES, 2, (
        kirk.TieStep(1, ((ANN, Card.parse("5S")), (BOB, Card.parse("9H")), (CAT, Card.parse("9C"))), (), (ANN,),
                     (BOB, CAT)),
        kirk.TieStep(2, ((BOB, Card.parse("2C")), (CAT, Card.parse("JH"))), (), (BOB,), (CAT,)),
    ))
    assert describe_tie(CONFIG, three, 14) == (
        "Tie on 14 between Ann, Bob and Cat: depth 1 Ann 5S, Bob 9H, Cat 9C (Ann out); "
        "depth 2 Bob 2C, Cat JH → Cat wins the trick")
    nobody = kirk.TieBroken(9, BOB, (BOB, DAN), kirk.DecidedBy.FIRST_PLAYED, 2, (
        kirk.TieStep(1, ((BOB, Card.parse("3S")), (DAN, Card.parse("3C"))), (), (), (BOB, DAN)),
        kirk.TieStep(2, (), (BOB, DAN), (), (BOB, DAN)),
    ))
    assert VIEW.describe(CONFIG, nobody) == (
        "Tie between Bob and Dan: depth 1 Bob 3S, Dan 3C; depth 2 no card left → Bob played first and wins the trick")


def test_step_lines_say_what_every_step_did() -> None:
    game, steps = simulated()
    for step in steps[1:]:
        for as_player in (None, BOB):
            lines = VIEW.step_lines(step, as_player)
            assert len(lines) == len(step.events) and all(lines), step.label
    ties = [step for step in steps if any(isinstance(e, kirk.TieBroken) for e in step.events)]
    assert ties, "seed 1 has a tie"
    for step in ties:
        assert any(line.startswith("Tie on ") for line in VIEW.step_lines(step, None))
    assert VIEW.step_lines(steps[-1], None)[-1].startswith("Game over: ")


# --------------------------------------------------------------------------- 80×24, --as, the end


GAMES: dict[str, dict[str, Any]] = {
    "seed-1": {"seed": 1},
    "seed-7": {"seed": 7},
    "long-names": {"seed": 3, "players": LONG_NAMES},
    "target": {"seed": 5, "Target": "150"},
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_screen_fits_80_by_24(game: str) -> None:
    _, steps = simulated(**GAMES[game])
    # every deal, end and complete trick (the longest logs, the ties), and a spread of cards
    viewcheck.assert_every_screen_fits(game, steps, lambda index, as_player, footer: viewcheck.render(
        VIEW.screen(steps[index], index, len(steps), as_player, footer)), as_player=BOB, every_card=False)


def test_every_hand_is_whole_at_80_columns() -> None:
    """Hands may wrap (long names), but every card of every hand is on the screen, unbroken."""
    games = [(game, simulated(**GAMES[game])[1]) for game in ("seed-1", "long-names")]
    viewcheck.assert_hands_whole(games, screen_text, shown_cards)


def test_wider_screens_show_whole_names_and_the_top_of_each_pile() -> None:
    _, steps = simulated(**GAMES["long-names"])
    wide = viewcheck.wide_screen(steps, screen_text)
    assert "Pile, top first" in wide
    table = steps[find_position(steps, "R1.5")].table
    for pile in table.piles:
        if pile:
            assert " ".join(str(card) for card in pile[::-1][:3]) in wide


@pytest.mark.parametrize("position", ["R1.0", "R1.5.2", "R2.7", "R3.0"])
def test_as_a_player_the_other_hands_are_hidden(position: str) -> None:
    _, steps = simulated()
    table = steps[find_position(steps, position)].table
    text = screen_text(steps, position, as_player=BOB)
    shown = shown_cards(text)
    assert set(table.hands[BOB]) <= shown
    for seat in (ANN, CAT, DAN):
        hidden = set(table.hands[seat])
        assert hidden and not hidden & shown, f"{PLAYERS[seat]}'s cards are on the screen"
        assert f"{len(hidden)} cards" in text
    assert shown_cards(screen_text(steps, position)) >= {c for hand in table.hands for c in hand}


def test_as_a_player_the_steps_log_shows_no_other_hand() -> None:
    _, steps = simulated()
    deal = steps[find_position(steps, "R1.0")]
    text = "\n".join(VIEW.step_lines(deal, BOB))
    assert not shown_cards(text)


def test_the_end_screen_shows_the_engine_s_totals() -> None:
    for game_name in ("seed-1", "target", "long-names"):
        game, steps = simulated(**GAMES[game_name])
        text = screen_text(steps, "end")
        rows = viewcheck.lines_of(text)[3:7]  # title, heading, rule, then a line per player: no hand is left
        standings = game.standings()
        assert [row[3:].split()[0].rstrip("…") for row in rows] == [name[:9] if len(name) > 10 else name
                                                                    for name in game.config.players]
        assert [row.split()[-1] for row in rows] == [str(s.score) for s in standings], text
        assert [row.startswith(("W", "DW")) for row in rows] == [s.winner for s in standings]  # K8
        assert "game over" in viewcheck.lines_of(text)[0]
        winners = ", ".join(f"{game.config.players[s.side]} {s.score}{' (wins)' if s.winner else ''}"
                            for s in standings)
        assert VIEW.step_lines(steps[-1], None)[-1] == f"Game over: {winners}"
        assert "Game over: " in text


def test_a_hand_s_end_shows_its_points_and_totals() -> None:
    game, steps = simulated()
    step = steps[find_position(steps, "R1.end")]
    scored = next(e for e in step.events if isinstance(e, kirk.HandScored))
    assert step.table.hand_points == scored.points and step.table.totals == scored.totals
    assert sum(scored.points) == 179  # K7
    before = steps[find_position(steps, "R1.13.4")].table
    assert before.totals == (0, 0, 0, 0) and before.hand_points == scored.points
    nxt = steps[find_position(steps, "R2.0")].table
    assert nxt.totals == scored.totals and nxt.hand_points == (0, 0, 0, 0)


# --------------------------------------------------------------------------- the real command


SAMPLES = sorted((ROOT / "samples").glob("kirk-*.dgn"))


def test_a_replayed_record_gives_the_same_steps() -> None:
    viewcheck.assert_replay_gives_the_steps(*simulated())


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.name)
def test_the_replay_command_shows_a_sample(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = viewcheck.replay_command_lines(sample, "R1.5", lambda: capsys.readouterr().out)
    assert lines[0].startswith("Hand 1") and "R1.5.4" in lines[0]
    assert any(line.startswith("Trick 5: ") for line in lines)
