"""How a replay of the bidding game looks (`diamonds.families.bidding.view`): steps, screens and words.

Seats: Ann 0, Bob 1, Cat 2. Games come from the seeded simulator (Ann deals
hand 1 unless told); the plays a test needs (a high Joker, a low ace, a low
Joker) are looked up in the game's events, never typed in. The budget
tests (80×24) walk every step of simulated games.

What the rulings say, in our words, where a test depends on it:
  B2  ten cards each and three face down to the kitty; the deal moves left.
  B4  each player takes a kitty card and lays a point card, face down.
  B7  an ace is played high or low; the Joker high or low, given a suit.
  B8  a high Joker wins the trick; else the highest Diamond; else the led suit.
  B9  the point card's value is added when the final bid is made exactly,
      subtracted otherwise.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import viewcheck

from diamonds.core import JOKER, AnyCard, Card, Engine, Suit, simulate
from diamonds.families.bidding import rules as bidding
from diamonds.families.bidding.view import VIEW
from diamonds.replay.steps import Step, find_position
from diamonds.views import view_for

ANN, BOB, CAT = range(3)
PLAYERS = ("Ann", "Bob", "Cat")
LONG_NAMES = ("Alexandra_Smith1", "Bartholomew-Jone", "Christophe_Dupon")
CARD = re.compile(r"(?<![\w.])(?:10|[7-9JQKA])[DHSC](?![\w])|(?<![\w.])Jo(?![a-z])")
ROOT = Path(__file__).resolve().parents[3]
SAMPLES = sorted((ROOT / "samples").glob("bidding-*.dgn"))


# --------------------------------------------------------------------------- helpers


@cache
def _simulated(seed: int, players: tuple[str, ...], dealer: str | None) -> tuple[Engine, list[Step]]:
    game = simulate(players, rules="bidding", seed=seed, dealer=dealer)
    assert game.is_over
    return game, viewcheck.steps_of(game)


def simulated(seed: int = 1, players: tuple[str, ...] = PLAYERS, dealer: str | None = "Ann") -> tuple[Engine, list[Step]]:
    return _simulated(seed, players, dealer if dealer in players else None)


def screen_at(steps: list[Step], index: int, *, as_player: int | None = None, footer: str = "",
              width: int = viewcheck.WIDTH) -> str:
    return viewcheck.render(VIEW.screen(steps[index], index, len(steps), as_player, footer), width=width)


def screen_text(steps: list[Step], position: str, *, as_player: int | None = None, footer: str = "",
                width: int = viewcheck.WIDTH) -> str:
    return screen_at(steps, find_position(steps, position), as_player=as_player, footer=footer, width=width)


def shown_cards(text: str) -> set[AnyCard]:
    return {JOKER if match.group(0) == "Jo" else Card.parse(match.group(0)) for match in CARD.finditer(text)}


def first_step(steps: list[Step], wanted: Any) -> int:
    """The index of the first step with an event `wanted(event)` holds for."""
    return next(i for i, step in enumerate(steps) if any(wanted(event) for event in step.events))


def play_of(step: Step) -> bidding.CardPlayed:
    play = step.events[0]
    assert isinstance(play, bidding.CardPlayed)
    return play


# --------------------------------------------------------------------------- the registry and the steps


def test_the_registry_gives_this_view() -> None:
    assert view_for("bidding") is VIEW


def test_steps_are_start_deals_cards_and_ends_labelled_as_every_family() -> None:
    game, steps = simulated()
    hands = sum(isinstance(event, bidding.HandStarted) for events in game.events for event in events)
    card_steps = viewcheck.assert_card_steps(steps, hands, 10, 3)  # B6: ten tricks of three cards a hand
    assert all(s.actor == play_of(s).seat for s in card_steps)
    deal = steps[find_position(steps, "R1.0")]  # the deal and the whole auction, one step
    kinds = [type(event) for event in deal.events]
    assert kinds == ([bidding.HandStarted, bidding.CardsDealt] + [bidding.BidMade] * 3 + [bidding.CardTaken] * 3
                     + [bidding.FinalBidMade] * 3)


@pytest.mark.parametrize(("position", "label", "kind"), [
    ("R1.0", "R1.0", "deal"), ("R1.3", "R1.3.3", "card"), ("R1.3.2", "R1.3.2", "card"),
    ("R1.end", "R1.end", "end"), ("start", "start", "start"),
])
def test_find_position(position: str, label: str, kind: str) -> None:
    viewcheck.assert_step_at(simulated()[1], position, label, kind)


def test_find_position_end_is_the_last_hand_s_end() -> None:
    _, steps = simulated()
    step = steps[find_position(steps, "end")]
    assert step.kind == "end" and step.label == f"R{step.round_no}.end" and step.table.over


def test_the_table_follows_the_events() -> None:
    """B4: after the takes every hand holds ten cards; the tricks counted match the engine's (B9)."""
    _, steps = simulated()
    deal = steps[find_position(steps, "R1.0")]
    dealt = next(e for e in deal.events if isinstance(e, bidding.CardsDealt))
    table = deal.table
    assert table.kitty == dealt.kitty and sorted(map(str, table.taken)) == sorted(map(str, dealt.kitty))
    assert all(len(hand) == 10 for hand in table.hands)
    assert all(point not in hand for point, hand in zip(table.point_cards, table.hands))
    assert None not in table.bids and None not in table.final_bids
    for step in steps:
        scored = [e for e in step.events if isinstance(e, bidding.HandScored)]
        if scored:
            before = steps[steps.index(step) - 1].table
            assert before.tricks_won == tuple(s.tricks for s in scored[0].seats)
            assert step.table.totals == scored[0].totals and step.table.scored == scored[0].seats
    assert steps[find_position(steps, "R2.0")].table.tricks_won == (0, 0, 0)


# --------------------------------------------------------------------------- the screen


def test_the_kitty_is_shown_at_the_deal() -> None:
    _, steps = simulated()
    table = steps[find_position(steps, "R1.0")].table
    lines = viewcheck.lines_of(screen_text(steps, "R1.0"))
    kitty = next(line for line in lines if line.startswith("Kitty: "))
    assert kitty.startswith("Kitty: " + " ".join(map(str, table.kitty)) + " · taken: ")
    order = [(seat + table.dealer + 1) % 3 for seat in range(3)]  # B4: from the dealer's left
    assert kitty.endswith(", ".join(f"{PLAYERS[s]} {table.taken[s]}" for s in order))
    assert not any(line.startswith("Kitty") for line in viewcheck.lines_of(screen_text(steps, "R1.1.1")))


def test_a_trick_won_by_a_high_joker_says_so() -> None:
    """B8: a high Joker wins the trick, whatever suit it was given."""
    _, steps = simulated()
    index = first_step(steps, lambda e: isinstance(e, bidding.TrickWon) and e.why is bidding.WinReason.HIGH_JOKER)
    step = steps[index]
    joker = next(e for e in step.table.trick if e.card == JOKER)
    assert joker.high and step.table.trick_winner == joker.seat
    played = f"Jo{joker.suit.letter}+"
    lines = viewcheck.lines_of(screen_at(steps, index))
    trick = next(line for line in lines if line.startswith(f"Trick {step.trick_no}: "))
    assert f"{PLAYERS[joker.seat]} {played}" in trick
    assert trick.endswith(f"  → {PLAYERS[joker.seat]} wins (high Joker)")
    said = f"{PLAYERS[joker.seat]} wins trick {step.trick_no} with {played} (high Joker)"
    assert said in lines and said in VIEW.step_lines(step, None)


@pytest.mark.parametrize("wanted", ["low ace", "high ace", "low Joker"])
def test_the_choices_of_aces_and_the_joker_are_shown(wanted: str) -> None:
    """B7: `AH-` a low ace, `AH+` a high one, `JoS-` the Joker given Spades and played low."""
    checks = {
        "low ace": lambda e: isinstance(e.card, Card) and e.high is False,
        "high ace": lambda e: isinstance(e.card, Card) and e.high is True,
        "low Joker": lambda e: e.card == JOKER and e.high is False,
    }
    _, steps = simulated()
    index = first_step(steps, lambda e: isinstance(e, bidding.CardPlayed) and checks[wanted](e))
    play = play_of(steps[index])
    sign = "+" if play.high else "-"
    text = f"{play.card}{play.suit.letter}{sign}" if play.card == JOKER else f"{play.card}{sign}"
    lines = viewcheck.lines_of(screen_at(steps, index))
    assert any(line.startswith("Trick ") and f"{PLAYERS[play.seat]} {text}" in line for line in lines)
    verb = "leads" if play.leads else "plays"
    words = f"the Joker, {play.suit.title}, low" if play.card == JOKER else ("high" if play.high else "low")
    assert f"{PLAYERS[play.seat]} {verb} {text} ({words})" in lines


def test_the_title_says_who_is_to_act() -> None:
    """B6: the dealer's left neighbour leads the first trick; play goes left; the deal moves left."""
    _, steps = simulated()
    total = len(steps)
    assert viewcheck.lines_of(screen_text(steps, "R1.0"))[0] == f"Hand 1 (to ±100) · Ann deals · Bob to lead · R1.0 (2/{total})"
    index = find_position(steps, "R1.3.2")
    after = PLAYERS[(play_of(steps[index]).seat + 1) % 3]
    title = viewcheck.lines_of(screen_at(steps, index))[0]
    assert title == f"Hand 1 (to ±100) · trick 3/10 · Ann deals · {after} to play · R1.3.2 ({index + 1}/{total})"
    index = find_position(steps, "R1.3")
    winner = steps[index].table.trick_winner
    assert winner is not None and f" · {PLAYERS[winner]} to lead · " in viewcheck.lines_of(screen_at(steps, index))[0]
    assert " · Bob deals next · R1.end" in viewcheck.lines_of(screen_text(steps, "R1.end"))[0]


@pytest.mark.parametrize("position", ["R1.0", "R1.3.2", "R2.0", "R2.5.1"])
def test_as_a_player_the_other_hands_and_point_cards_are_hidden(position: str) -> None:
    """B2/B4: hands, point cards and the kitty are face down; a player sees only their own."""
    _, steps = simulated()
    index = find_position(steps, position)
    table = steps[index].table
    text = screen_at(steps, index, as_player=BOB)
    shown = shown_cards(text)
    assert set(table.hands[BOB]) <= shown and table.point_cards[BOB] in shown
    rows = {name: next(line for line in viewcheck.lines_of(text) if line[3:].startswith(name + " ")) for name in PLAYERS}
    for seat in (ANN, CAT):
        hidden = set(table.hands[seat]) | {table.point_cards[seat]}
        assert not hidden & shown, f"{PLAYERS[seat]}'s cards are on the screen\n{text}"
        assert f"{len(table.hands[seat])} cards" in rows[PLAYERS[seat]] and " laid " in rows[PLAYERS[seat]]
    assert " laid " not in rows["Bob"]
    log = "\n".join(VIEW.step_lines(steps[index], BOB))
    assert shown_cards(log) <= set(table.hands[BOB]) | {table.taken[BOB], table.point_cards[BOB]} | {
        play.card for play in table.trick}
    everything = {card for hand in table.hands for card in hand} | set(table.point_cards)
    assert shown_cards(screen_at(steps, index)) >= everything  # without --as, all is shown


def test_as_a_player_the_kitty_is_face_down() -> None:
    _, steps = simulated()
    table = steps[find_position(steps, "R1.0")].table
    kitty = next(line for line in viewcheck.lines_of(screen_text(steps, "R1.0", as_player=CAT)) if line.startswith("Kitty"))
    assert kitty.startswith("Kitty: 3 cards face down · taken: ")
    assert shown_cards(kitty) == {table.taken[CAT]}
    assert "Bob takes a card from the kitty and lays a point card" in VIEW.step_lines(
        steps[find_position(steps, "R1.0")], CAT)


def test_point_cards_are_shown_once_the_hand_is_scored() -> None:
    """B9: at the hand's end every point card is turned up, with what it scored."""
    _, steps = simulated()
    index = find_position(steps, "R1.end")
    step = steps[index]
    text = screen_at(steps, index, as_player=BOB)
    assert " laid " not in text
    for score in step.table.scored:
        row = next(line for line in viewcheck.lines_of(text) if line[3:].startswith(PLAYERS[score.seat] + " "))
        sign = f"+{score.points}" if score.points > 0 else str(score.points)
        assert f" {score.point_card} {sign} " in row
        assert f" {score.tricks}/{score.final_bid} " in row


# --------------------------------------------------------------------------- 80×24, wider, the end


GAMES: dict[str, dict[str, Any]] = {
    "seed-1": {"seed": 1},
    "seed-4-bob-deals": {"seed": 4, "dealer": "Bob"},
    "long-names": {"seed": 3, "players": LONG_NAMES},
}


@pytest.mark.slow  # every screen of every game
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_screen_fits_80_by_24(game: str) -> None:
    _, steps = simulated(**GAMES[game])
    viewcheck.assert_every_screen_fits(game, steps, lambda index, as_player, footer: screen_at(
        steps, index, as_player=as_player, footer=footer), as_player=BOB)


def test_every_hand_is_whole_at_80_columns() -> None:
    games = [(game, simulated(**GAMES[game])[1]) for game in ("seed-1", "long-names")]
    viewcheck.assert_hands_whole(games, screen_text, shown_cards)


def test_wider_screens_show_whole_names_and_long_headings() -> None:
    _, steps = simulated(**GAMES["long-names"])
    wide = viewcheck.wide_screen(steps, screen_text)
    assert "Point card" in wide and "Bid→final" in wide


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_end_screen_shows_the_engine_s_totals(game: str) -> None:
    played, steps = simulated(**GAMES[game])
    text = screen_text(steps, "end")
    lines = viewcheck.lines_of(text)
    rows = lines[3:6]  # title, heading, rule, then a line per player: no hand is left
    standings = played.standings()
    assert [row.split()[-1] for row in rows] == [str(s.score) for s in standings], text
    assert [row.startswith(("W", "DW")) for row in rows] == [s.winner for s in standings]  # B10
    assert "game over" in lines[0]
    names = played.config.players
    said = ", ".join(f"{names[s.side]} {s.score}{' (wins)' if s.winner else ''}" for s in standings)
    assert VIEW.step_lines(steps[-1], None)[-1] == f"Game over: {said}"


def test_step_lines_say_what_every_step_did() -> None:
    _, steps = simulated()
    for step in steps[1:]:
        for as_player in (None, BOB):
            lines = VIEW.step_lines(step, as_player)
            assert len(lines) == len(step.events) and all(lines), step.label


# --------------------------------------------------------------------------- words


CONFIG = bidding.Bidding.configure(PLAYERS, dealer="Ann")


def test_narration_of_the_auction() -> None:
    say = VIEW.describe
    assert say(CONFIG, bidding.HandStarted(2, BOB)) == "Hand 2: Bob deals, Cat bids first and leads"
    nine = tuple(Card.parse(c) for c in "7D 8D 9D".split())
    assert say(CONFIG, bidding.CardsDealt(1, (nine,) * 3, nine)) == "Cards are dealt, 3 to each player and 3 to the kitty"
    assert say(CONFIG, bidding.BidMade(BOB, 3)) == "Bob bids 3"
    taken = bidding.CardTaken(CAT, Card.parse("9H"), Card.parse("QS"))
    assert say(CONFIG, taken) == "Cat takes 9H from the kitty and lays QS as point card"
    same = bidding.CardTaken(CAT, JOKER, JOKER)
    assert say(CONFIG, same) == "Cat takes Jo from the kitty and lays it as point card"
    assert say(CONFIG, bidding.FinalBidMade(ANN, 2, -1)) == "Ann's final bid: 2 (down 1)"
    assert say(CONFIG, bidding.FinalBidMade(BOB, 4, 1)) == "Bob's final bid: 4 (up 1)"
    assert say(CONFIG, bidding.FinalBidMade(CAT, 0, 0)) == "Cat's final bid: 0 (kept)"


def test_narration_of_plays_and_tricks() -> None:
    say = VIEW.describe
    joker = bidding.CardPlayed(ANN, JOKER, 4, True, True, Suit.SPADES, True)
    assert say(CONFIG, joker) == "Ann leads JoS+ (the Joker, Spades, high)"
    ace = bidding.CardPlayed(BOB, Card.parse("AH"), 4, False, False, Suit.HEARTS, False)
    assert say(CONFIG, ace) == "Bob plays AH- (low)"
    high = bidding.CardPlayed(BOB, Card.parse("AS"), 4, False, True, Suit.SPADES, True)
    assert say(CONFIG, high) == "Bob plays AS+ (high)"
    low = bidding.CardPlayed(CAT, JOKER, 5, False, False, Suit.DIAMONDS, False)
    assert say(CONFIG, low) == "Cat plays JoD- (the Joker, Diamonds, low)"
    assert say(CONFIG, bidding.CardPlayed(CAT, Card.parse("9D"), 4, False, None, Suit.DIAMONDS, False)) == "Cat plays 9D"
    won = bidding.TrickWon(4, ANN, JOKER, (JOKER, Card.parse("AH"), Card.parse("9D")), bidding.WinReason.HIGH_JOKER)
    # Alone, the event does not say the Joker's suit; the replay's log, which has the trick, does (above).
    assert say(CONFIG, won) == "Ann wins trick 4 with the Joker (high Joker)"
    trump = bidding.TrickWon(5, CAT, Card.parse("9D"), (Card.parse("8S"), Card.parse("9D"), Card.parse("KS")),
                             bidding.WinReason.TRUMP)
    assert say(CONFIG, trump) == "Cat wins trick 5 with 9D (trump)"
    led = bidding.TrickWon(6, BOB, Card.parse("KS"), (Card.parse("8S"), Card.parse("KS"), Card.parse("9H")),
                           bidding.WinReason.LED_SUIT)
    assert say(CONFIG, led) == "Bob wins trick 6 with KS (led suit)"


def test_narration_of_the_scores_and_the_end() -> None:
    """B9: made exactly adds the point card's value; missed subtracts it. B10: the highest total wins."""
    scored = bidding.HandScored(2, (
        bidding.SeatScore(ANN, 3, 3, Card.parse("QS"), 12, 40),
        bidding.SeatScore(BOB, 4, 2, JOKER, -20, -7),
        bidding.SeatScore(CAT, 0, 0, Card.parse("9C"), 9, 30),
    ))
    assert VIEW.describe(CONFIG, scored) == (
        "Hand 2 scored: Ann made 3 (+12, total 40), Bob missed (-20, total -7), Cat made 0 (+9, total 30)")
    ended = bidding.GameEnded((bidding.BiddingResult(ANN, 104, True), bidding.BiddingResult(BOB, -7, False),
                               bidding.BiddingResult(CAT, 30, False)))
    assert VIEW.describe(CONFIG, ended) == "Game over: Ann 104 (wins), Bob -7, Cat 30"


def test_narration_of_every_simulated_event() -> None:
    game, _ = simulated(seed=2)
    for events in game.events:
        for event in events:
            assert VIEW.describe(game.config, event)


# --------------------------------------------------------------------------- the real command


def test_a_replayed_record_gives_the_same_steps() -> None:
    viewcheck.assert_replay_gives_the_steps(*simulated())


@pytest.mark.skipif(not SAMPLES, reason="no bidding samples")
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.name)
def test_the_replay_command_shows_a_sample(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = viewcheck.replay_command_lines(sample, "R1.3", lambda: capsys.readouterr().out)
    assert lines[0].startswith("Hand 1 (to ±100) · trick 3/10") and "R1.3.3" in lines[0]
    assert any(line.startswith("Trick 3: ") and " wins (" in line for line in lines)


@pytest.mark.skipif(not SAMPLES, reason="no bidding samples")
def test_the_replay_command_as_a_player(capsys: pytest.CaptureFixture[str]) -> None:
    from diamonds.cli.main import main
    sample = SAMPLES[0]
    tag = re.search(r'^\[Players "([^"]*)"\]', sample.read_text(encoding="utf-8"), re.MULTILINE)
    assert tag is not None
    players = tag.group(1).split()
    status = main(["replay", str(sample), "--at", "R1.0", "--as", players[0], "--width", "80"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "Kitty: 3 cards face down" in out and " laid " in out


def test_the_title_says_what_the_game_is_played_to_and_the_signs_are_explained() -> None:
    """Issue 23: `Hand 1` alone gave no idea of the game's length (B10), and `AH-` was never explained (B7)."""
    import io as _io

    from rich.console import Console as _Console

    from diamonds.cli.inputs import games_in
    from diamonds.families.bidding.render import LEGEND, Position
    from diamonds.replay import replay_record
    from diamonds.replay.steps import find_position, steps_of

    record = next(iter(games_in(str(Path(__file__).resolve().parents[3] / "samples" / "bidding-3p-club.dgn"))))
    replayed = replay_record(record)
    found = steps_of(replayed)

    def text(position: str) -> str:
        index = find_position(found, position)
        out = _io.StringIO()
        _Console(file=out, width=80, height=24, color_system=None).print(Position(found[index], index, len(found)))
        return out.getvalue()

    # Hand 1's plays, by trick: an ace's play carries its sign (B7: high or low), a plain card none.
    hand_one = []
    for events in replayed.game.events:
        if any(isinstance(e, bidding.HandStarted) and e.hand_no == 2 for e in events):
            break
        hand_one += [e for e in events if isinstance(e, bidding.CardPlayed)]
    names = replayed.game.config.players
    ace = next(e for e in hand_one if e.card.is_ace)
    plain = next(t for t in range(1, 11) if all(e.high is None for e in hand_one if e.trick_no == t))

    assert text("R1.2").startswith("Hand 1 (to ±100) · trick 2/10")
    signed = f"{names[ace.seat]} {ace.card}{'+' if ace.high else '-'}"
    assert signed in text(f"R1.{ace.trick_no}") and LEGEND in text(f"R1.{ace.trick_no}")  # the legend under the trick
    assert "+ played high, - played low" in LEGEND
    assert LEGEND not in text(f"R1.{plain}")  # no sign in that trick, no legend
