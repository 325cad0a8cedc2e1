"""The bidding game's bridge: `bidding` records replayed through the engine, problems at their tokens, round trips.

Games come from the seeded simulator or from the samples, are written as
records, and then changed the way a scorer gets things wrong. Expected
positions are read from the changed text itself (the line the change is on,
the column of the changed token), never typed in.

What the rulings say, in our words, where a test depends on it:
  B2  33 cards: 7 to A of each suit and one Joker; 10 to each of the three
      players and 3 to the kitty; the deal moves one seat left each hand.
  B3  bids from the dealer's left, 0 to 10 tricks; the dealer, last, may not
      make the three bids add up to exactly 10.
  B4  in the same order each player takes a kitty card, then lays a point
      card from the hand (the card just taken allowed).
  B5  final bids in the same order: the bid, one more or one less, 0 to 10;
      again the dealer may not make the total exactly 10.
  B6  the dealer's left leads trick 1; follow the led suit if you can, but
      the Joker may always be played; the winner leads; ten tricks a hand.
  B7  an ace is high or low; the Joker high or low and given a suit.
  B9  making the final bid exactly adds the point card's value, anything
      else subtracts it.
  B10 the game ends after a hand with a total of 100 or more, or -100 or less.
"""

from __future__ import annotations

import re

import pytest
import replaycheck
from replaycheck import (
    INVALID,
    SAMPLES,
    assert_at,
    check_generated_game,
    check_generator_files,
    check_golden,
    check_round_trip,
    check_sample,
    cut_after,
    drop_line,
    edit_line,
    games_of,
    generated_games,
    insert_line,
    line_no,
    lines_of,
    replace_token,
    token_at,
    unfinished,
    without_lines,
)

from diamonds.core import JOKER, Card, simulate
from diamonds.families.bidding.rules import (
    CardPlayed,
    Deal,
    GameEnded,
    HandScored,
    HandStarted,
    PlayCard,
    Played,
    TrickWon,
    WinReason,
    trick_winner,
)
from diamonds.notation import parse_game
from diamonds.notation.records import Problem
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game, replay_record, validate_record

BIDDING_SAMPLES = sorted(SAMPLES.glob("bidding-*.dgn"))
BIDDING_INVALID = sorted(INVALID.glob("bidding-*.dgn"))
PLAYERS = ("Ann", "Bob", "Cat")


# --------------------------------------------------------------------------- helpers


def simulated_text(seed: int = 0, *, deals: bool = True) -> str:
    """A complete game (Ann deals first, so Bob leads hand 1) written canonically."""
    return replaycheck.simulated_text(PLAYERS, "bidding", seed, deals=deals)


def problems(text: str) -> list[Problem]:
    return replaycheck.problems(text, validates_alike=True)


def only_problem(text: str) -> Problem:
    return replaycheck.only_problem(text, validates_alike=True)


def events_of(text: str) -> list[object]:
    replayed = replay_record(parse_game(text))
    assert replayed.valid, replayed.problems
    return [event for events in replayed.game.events for event in events]


def hand_plays(text: str, hand: int) -> list[CardPlayed]:
    """The cards played in a hand of a valid game, with their seats and choices (the engine's events)."""
    out, current = [], 0
    for event in events_of(text):
        if isinstance(event, HandStarted):
            current = event.hand_no
        elif isinstance(event, CardPlayed) and current == hand:
            out.append(event)
    return out


def trick_of(plays: list[CardPlayed], trick_no: int) -> list[CardPlayed]:
    return [e for e in plays if e.trick_no == trick_no]


def winner(plays: list[CardPlayed]) -> int:
    """B8: the seat that wins a trick of these plays."""
    played = [Played(e.seat, e.card, e.high, e.suit) for e in plays]
    return played[trick_winner(played)[0]].seat


def calls_of(text: str, hand: int, kind: str) -> list[tuple[int, str, int]]:
    """The `bid` or `final` lines of a hand: (line, player, amount), in the order written."""
    first = line_no(text, kind + " ", hand=hand)
    out = []
    for line in range(first, first + 3):
        _, player, amount = lines_of(text)[line - 1].split()[:3]
        out.append((line, player, int(amount)))
    return out


# --------------------------------------------------------------------------- the samples


@pytest.mark.parametrize("path", BIDDING_SAMPLES, ids=lambda p: p.name)
def test_every_bidding_sample_is_valid_and_complete_with_its_result_confirmed(path):
    check_sample(path, "bidding")


def test_the_bidding_samples_show_what_they_are_for():
    records = [record for path in BIDDING_SAMPLES for record in games_of(path)]
    assert len(records) >= 3
    for record in records:
        assert all(record.tag_value(name) for name in ("Event", "Site", "Date", "Players", "Dealer", "Result"))
        assert record.tag_value("Rules") == "bidding"
        assert record.comments, "an opening comment"
        assert all(rnd.header.pass_count is None for rnd in record.rounds)
    assert any(not any(rnd.hand_lines for rnd in r.rounds) for r in records), "one without deal or kitty lines"
    assert any(all(len(rnd.hand_lines) == 4 for rnd in r.rounds) for r in records), "one with all of them"
    events = [e for r in records for events in replay_record(r).game.events for e in events]
    # B8: a high Joker wins the trick it is played to ...
    assert any(isinstance(e, TrickWon) and e.why is WinReason.HIGH_JOKER for e in events)
    # ... a Joker led low ...
    assert any(isinstance(e, CardPlayed) and e.card is JOKER and e.leads and e.high is False for e in events)
    # ... (B7) an ace played low ...
    assert any(isinstance(e, CardPlayed) and e.card.is_ace and e.high is False for e in events)
    # ... and (B9) a negative final score, and a positive one: games played by the bots, not at random, so they
    # look like a club's (issue 34) ...
    assert any(isinstance(e, GameEnded) and min(s.score for s in e.standings) < 0 for e in events)
    assert any(isinstance(e, GameEnded) and max(s.score for s in e.standings) > 0 for e in events)
    # ... and (B9) a final bid of 7 or more made, exactly.
    assert any(isinstance(e, HandScored) and any(s.made and s.final_bid >= 7 for s in e.seats) for e in events)
    texts = [path.read_text(encoding="utf-8") for path in BIDDING_SAMPLES]
    assert any(re.search(r"\bA[DHSC]-", t) for t in texts) and any(re.search(r"\bJo[DHSC][+-]", t) for t in texts)


def test_the_bidding_samples_are_the_generators_files():
    check_generator_files("bidding", BIDDING_SAMPLES)


@pytest.mark.parametrize("name,index", generated_games("bidding"))
def test_each_bidding_sample_game_is_made_by_the_generator(name, index):
    check_generated_game("bidding", name, index)


# --------------------------------------------------------------------------- recording mistakes

#: Each recording mistake: what it reports, and the ruling.
MISTAKES = {
    "bidding-card-not-in-pack": ("card-not-in-deck", "B2"),
    "bidding-revoke": ("must-follow-suit", "B6"),
    "bidding-joker-without-suit": ("missing-choice", "B7"),
    "bidding-dealer-total-ten": ("forbidden-total", "B3"),
    "bidding-final-moves-two": ("final-bid-move", "B5"),
    "bidding-take-not-in-kitty": ("not-in-kitty", "B4"),
    "bidding-plus-on-king": ("choice-not-allowed", "B7"),
    "bidding-final-not-written": ("out-of-turn", "B5"),
    "bidding-hand-after-end": ("too-many-rounds", "B10"),
}


def test_there_are_bidding_recording_mistakes_each_with_a_golden():
    assert {path.stem for path in BIDDING_INVALID} == set(MISTAKES)
    for path in BIDDING_INVALID:
        assert path.with_suffix(".expected").exists(), path.name


@pytest.mark.parametrize("path", BIDDING_INVALID, ids=lambda p: p.stem)
def test_a_bidding_recording_mistake_prints_exactly_its_golden(path):
    record = check_golden(path)
    (problem,) = replay_record(record).problems
    assert (problem.code, problem.rule) == MISTAKES[path.stem]
    assert validate_record(record).problems == [problem]


# --------------------------------------------------------------------------- round trips


def same_deal(a: Deal, b: Deal, *, kitty_order: bool) -> bool:
    hands = [set(h) for h in a.hands] == [set(h) for h in b.hands]
    return hands and (tuple(a.kitty) == tuple(b.kitty) if kitty_order else set(a.kitty) == set(b.kitty))


@pytest.mark.parametrize("seed", range(100))
def test_a_simulated_game_round_trips_and_validates_with_and_without_deal_lines(seed):
    game = simulate(PLAYERS, rules="bidding", seed=seed)
    deals = [move for move in game.moves if isinstance(move, Deal)]
    for with_deals in (True, False):
        record = record_from_game(game, tags=[("Event", "round trip")], deals=with_deals)
        assert all(rnd.header.pass_count is None for rnd in record.rounds)
        assert all(len(rnd.hand_lines) == (4 if with_deals else 0) for rnd in record.rounds)
        assert all(len(rnd.calls) == 9 for rnd in record.rounds)  # a bid, a take and a final bid each
        replayed = check_round_trip(record)
        assert not replayed.notes
        # The same moves; without deal lines each hand is inferred (its kitty as the cards taken).
        moves = replayed.game.moves
        assert [m for m in moves if not isinstance(m, Deal)] == [m for m in game.moves if not isinstance(m, Deal)]
        inferred = [m for m in moves if isinstance(m, Deal)]
        assert len(inferred) == len(deals)
        assert all(same_deal(a, b, kitty_order=with_deals) for a, b in zip(inferred, deals))
        assert replayed.game.standings() == game.standings()
        assert record_from_game(replayed.game, tags=[("Event", "round trip")], deals=with_deals) == record


def test_the_record_of_a_game_writes_every_call_and_the_choices_of_aces_and_the_joker():
    game = simulate(PLAYERS, rules="bidding", seed=2, dealer="Cat")
    record = record_from_game(game)
    assert [(t.name, t.value) for t in record.tags][:3] == [("Rules", "bidding"), ("Players", "Ann Bob Cat"),
                                                            ("Dealer", "Cat")]
    assert [rnd.header.dealer for rnd in record.rounds][:4] == ["Cat", "Ann", "Bob", "Cat"]  # B2
    first = record.rounds[0]
    assert [(line.kind, line.player) for line in first.hand_lines] == [
        ("deal", "Ann"), ("deal", "Bob"), ("deal", "Cat"), ("kitty", "")]
    assert [len(line.cards) for line in first.hand_lines] == [10, 10, 10, 3]
    assert [(c.kind, c.player) for c in first.calls] == [
        (kind, name) for kind in ("bid", "take", "final") for name in ("Ann", "Bob", "Cat")]  # B3-B5
    assert [t.number for t in first.tricks] == list(range(1, 11))
    text = write_game(record)
    assert "\nR1 dealer Cat\n" in text and " pass " not in text
    written = {move.card: set() for move in game.moves if isinstance(move, PlayCard)}
    for move in game.moves:
        if isinstance(move, PlayCard):
            written[move.card].add(str(move))
    tricks = [token for line in text.split("\n") if re.match(r"\d+\. ", line) for token in line.split()[1:]]
    for token in tricks:
        move = PlayCard.parse(token)
        assert token == str(move)  # canonical: `AH` high, `AH-` low, the Joker with its suit and sign
        assert token.endswith(("+", "-")) == (move.card is JOKER or move.high is False)
    assert any(token.startswith("Jo") for token in tricks) and any(token.endswith("-") for token in tricks)


# --------------------------------------------------------------------------- notation of other games


def test_a_pass_line_is_an_error_at_its_word():
    # (Straight after a header with no pass count, `pass Bob …` reads as the header's pass count: a syntax
    # error. After a deal or kitty line it is a pass line.)
    text = simulated_text()
    line = line_no(text, "bid ", hand=2)
    text = insert_line(text, line, "pass Bob 7C 8C")
    assert_at(only_problem(text), line, 1, code="item-not-allowed", rule="B2")


# --------------------------------------------------------------------------- high, low and the Joker's suit


def plain_card_in_trick(text: str, hand: int, *, ace: bool = False) -> tuple[int, int, str]:
    """(line, token index, card) of the first card of a hand's tricks that is an ace (or neither an ace
    nor the Joker), written bare."""
    for t in range(1, 11):
        line = line_no(text, f"{t}. ", hand=hand)
        for index in range(1, 4):
            token, _ = token_at(text, line, index)
            if token.startswith("Jo") or token.endswith("-"):
                continue
            if Card.parse(token).is_ace == ace:
                return line, index, token
    raise AssertionError("no such card")  # pragma: no cover


@pytest.mark.parametrize("sign", ["+", "-"])
@pytest.mark.parametrize("deals", [True, False])
def test_high_or_low_on_a_card_that_is_not_an_ace_is_an_error_at_the_sign(sign, deals):
    text = simulated_text(deals=deals)
    line, index, card = plain_card_in_trick(text, 2)
    text, column = replace_token(text, line, index, card + sign)
    problem = only_problem(text)
    assert_at(problem, line, column + len(card), code="choice-not-allowed", rule="B7")
    assert problem.length == 1
    assert problem.message.startswith(f"`{sign}` after {card}: only an ace or the Joker is played high or low")


@pytest.mark.parametrize("kind", ["deal Cat", "kitty"])
@pytest.mark.parametrize("mark", ["+", "-"])
def test_high_or_low_in_a_deal_or_kitty_line_is_an_error_at_the_sign(kind, mark):
    text = simulated_text()
    line = line_no(text, kind, hand=2)
    index = 2 if kind.startswith("deal") else 1
    card, column = token_at(text, line, index)
    text, _ = replace_token(text, line, index, card + mark)
    problem = only_problem(text)
    assert_at(problem, line, column + len(card), code="choice-not-allowed", rule="B7")
    assert f"`{mark}` after {card} in a {kind.split()[0]} line" in problem.message


@pytest.mark.parametrize("which", [2, 4], ids=["taken", "point"])
@pytest.mark.parametrize("deals", [True, False])
def test_high_or_low_in_a_take_line_is_an_error_at_the_sign(which, deals):
    text = simulated_text(deals=deals)
    line = line_no(text, "take ", hand=2)
    card, column = token_at(text, line, which)
    text, _ = replace_token(text, line, which, card + "+")
    assert_at(only_problem(text), line, column + len(card), code="choice-not-allowed", rule="B7")


def joker_line(text: str, prefix: str) -> tuple[int, int]:
    """(line, token index) of the Joker in the first line starting with `prefix` that holds it."""
    for number, line in enumerate(lines_of(text), 1):
        if line.startswith(prefix):
            for index, token in enumerate(line.split()):
                if token.lower().startswith("jo"):
                    return number, index
    raise AssertionError("no Joker")  # pragma: no cover


@pytest.mark.parametrize("written", ["JoS", "JoH+", "JoD-"])
def test_the_jokers_suit_or_sign_in_a_deal_line_is_an_error_at_the_mark(written):
    text = simulated_text()
    line, index = joker_line(text, "deal ")
    _, column = token_at(text, line, index)
    text, _ = replace_token(text, line, index, written)
    problem = only_problem(text)
    assert_at(problem, line, column + 2, code="choice-not-allowed", rule="B7")
    assert problem.length == len(written) - 2


def joker_in_a_trick(text: str) -> tuple[int, int]:
    """(line, token index) of the first Joker played in a trick."""
    for number, line in enumerate(lines_of(text), 1):
        if re.match(r"\d+\. ", line):
            for index, token in enumerate(line.split()):
                if token.startswith("Jo"):
                    return number, index
    raise AssertionError("no Joker played")  # pragma: no cover


@pytest.mark.parametrize("written", ["Jo", "Jo+", "Jo-", "JoS", "JoD"])
@pytest.mark.parametrize("deals", [True, False])
def test_a_joker_without_its_suit_or_its_sign_is_an_error_at_the_card(written, deals):
    text = simulated_text(deals=deals)
    line, index = joker_in_a_trick(text)
    _, column = token_at(text, line, index)
    text, _ = replace_token(text, line, index, written)
    problem = only_problem(text)
    assert_at(problem, line, column, code="missing-choice", rule="B7")
    assert problem.length == len(written)
    missing = "a suit" if len(written) < 3 or written[2] in "+-" else "high or low"
    missing = "a suit and high or low" if written == "Jo" else missing
    assert f"must give the Joker {missing}:" in problem.message
    assert problem.message.endswith("as in JoS+ or JoD-")


@pytest.mark.parametrize("deals", [True, False])
def test_an_ace_written_plain_or_with_a_plus_is_high_and_with_a_minus_low(deals):
    text = simulated_text(deals=deals)
    line, index, card = plain_card_in_trick(text, 1, ace=True)
    plus, _ = replace_token(text, line, index, card + "+")
    replayed = replay_record(parse_game(plus))
    assert replayed.valid and replayed.complete
    assert replayed.game.moves == replay_record(parse_game(text)).game.moves  # `AH+` is `AH`
    assert write_game(parse_game(plus)) == text  # written back canonically, `AH`
    if deals:  # (without them, the deal inferred from the changed trick may no longer be a deal)
        low, _ = replace_token(text, line, index, card + "-")
        moves = [m for m in replay_record(parse_game(low)).game.moves if isinstance(m, PlayCard)]
        assert PlayCard(Card.parse(card), False) in moves  # played low, whatever follows from it


# --------------------------------------------------------------------------- cards of no pack


def test_ten_is_in_the_pack_and_eleven_is_not():
    text = simulated_text()
    record = parse_game(text)
    ten = next(line for line in lines_of(text) if re.match(r"\d+\. .*\b10[DHSC]\b", line))
    number = lines_of(text).index(ten) + 1
    index = next(i for i, token in enumerate(ten.split()) if token.startswith("10"))
    suit = ten.split()[index][-1]
    as_t, _ = replace_token(text, number, index, "T" + suit.lower())
    assert replay_record(parse_game(as_t)).valid  # `Th` is 10H
    eleven, column = replace_token(text, number, index, "11" + suit)
    problem = only_problem(eleven)
    assert_at(problem, number, column, code="card-not-in-deck", rule="B2")
    assert record.readable


@pytest.mark.parametrize("kind", ["deal Bob", "kitty"])
def test_a_card_of_no_pack_in_a_deal_or_kitty_line_is_an_error_at_the_token(kind):
    text = simulated_text()
    line = line_no(text, kind, hand=2)
    index = 2 if kind.startswith("deal") else 1
    text, column = replace_token(text, line, index, "6C")
    problem = only_problem(text)
    assert_at(problem, line, column, code="card-not-in-deck", rule="B2")
    where = "is dealt to Bob" if kind.startswith("deal") else "is in the kitty"
    assert problem.message.startswith(f"6C {where}, but it is not in the pack")


@pytest.mark.parametrize("which", [2, 4], ids=["taken", "point"])
def test_a_card_of_no_pack_in_a_take_line_is_an_error_at_the_token(which):
    text = simulated_text()
    line = line_no(text, "take ", hand=2)
    text, column = replace_token(text, line, which, "13H")
    problem = only_problem(text)
    assert_at(problem, line, column, code="card-not-in-deck", rule="B2")
    assert problem.message.endswith("did you mean KH?")


# --------------------------------------------------------------------------- cards played


@pytest.mark.parametrize("deals", [True, False])
def test_a_card_played_twice_is_an_error_naming_where_it_was_first_played(deals):
    text = simulated_text(deals=deals)
    plays = hand_plays(text, 1)
    earlier = trick_of(plays, 3)[0]
    line = line_no(text, "9. ", hand=1)
    position = next(i for i, e in enumerate(trick_of(plays, 9)) if e.seat == earlier.seat)
    text, column = replace_token(text, line, position + 1, token_at(text, line_no(text, "3. "), 1)[0])
    problem = only_problem(text)
    assert_at(problem, line, column, code="card-not-held", rule="B6")
    name = PLAYERS[earlier.seat]
    assert problem.message == f"{name} cannot play {earlier.card}: it was already played in trick 3 (by {name})"


def test_a_card_dealt_to_another_is_an_error_at_the_token():
    text = simulated_text()
    plays = hand_plays(text, 2)
    mover = trick_of(plays, 2)[1]
    later = next(e for e in plays if e.trick_no == 9 and e.seat != mover.seat and e.card is not JOKER)
    line = line_no(text, "2. ", hand=2)
    text, column = replace_token(text, line, 2, str(later.card))
    problem = problems(text)[0]
    assert_at(problem, line, column, code="card-not-held", rule="B6")
    assert problem.message == (f"{PLAYERS[mover.seat]} does not hold {later.card} "
                               f"(it is dealt to {PLAYERS[later.seat]})")


def revoke_swap(text: str, hand: int) -> tuple[str, int, int, CardPlayed, CardPlayed]:
    """A revoke made by swapping two cards of one player: in trick i they follow suit with x, in a later
    trick j they play y of another suit (not the Joker); written the other way round, they discard y in
    trick i while holding x. Chosen so that both tricks go to the same winners as before. Returns the
    changed text, the line and column of y in trick i, and x and y."""
    plays = hand_plays(text, hand)
    for x in plays:
        if x.leads or x.card is JOKER or not x.followed:
            continue
        for y in plays:
            if y.trick_no <= x.trick_no or y.seat != x.seat or y.card is JOKER or y.suit is x.suit:
                continue
            i, j = trick_of(plays, x.trick_no), trick_of(plays, y.trick_no)
            i2 = [y if e is x else e for e in i]
            j2 = [x if e is y else e for e in j]
            if winner(i2) != winner(i) or winner(j2) != winner(j):
                continue
            line_i, line_j = line_no(text, f"{x.trick_no}. ", hand=hand), line_no(text, f"{y.trick_no}. ", hand=hand)
            changed, _ = replace_token(text, line_j, j.index(y) + 1, str(x.card) + ("-" if x.high is False else ""))
            changed, column = replace_token(changed, line_i, i.index(x) + 1,
                                            str(y.card) + ("-" if y.high is False else ""))
            return changed, line_i, column, x, y
    raise AssertionError("no revoke to make")  # pragma: no cover


@pytest.mark.parametrize("deals", [True, False])
def test_a_revoke_is_an_error_at_the_card_played(deals):
    text = simulated_text(deals=deals)
    changed, line, column, x, y = revoke_swap(text, 2)
    problem = problems(changed)[0]
    assert_at(problem, line, column, code="must-follow-suit", rule="B6")
    name = PLAYERS[x.seat]
    assert problem.message.startswith(f"{name} must follow {x.suit.title} (holds ")
    assert str(x.card) in problem.message
    if not deals:  # the hand is inferred: the record shows where the card that should have been played is
        assert re.search(rf": {name} plays \w+ in trick \d+$", problem.message)


def test_the_joker_may_be_played_when_holding_the_led_suit():
    for seed in range(30):
        text = simulated_text(seed)
        for hand in range(1, 4):
            plays = hand_plays(text, hand)
            for joker in (e for e in plays if e.card is JOKER and not e.leads):
                x = next((e for e in plays if e.seat == joker.seat and e.trick_no < joker.trick_no
                          and not e.leads and e.followed and e.card is not JOKER), None)
                if x is None:
                    continue
                i, j = trick_of(plays, x.trick_no), trick_of(plays, joker.trick_no)
                line_i, line_j = line_no(text, f"{x.trick_no}. ", hand=hand), line_no(text, f"{joker.trick_no}. ",
                                                                                      hand=hand)
                written = token_at(text, line_j, j.index(joker) + 1)[0]
                changed, _ = replace_token(text, line_j, j.index(joker) + 1,
                                           str(x.card) + ("-" if x.high is False else ""))
                changed, _ = replace_token(changed, line_i, i.index(x) + 1, written)
                found = problems(unfinished(changed))
                # B6: the Joker, played while its player holds the led suit, is no revoke.
                assert not found or found[0].line != line_i, found
                return
    pytest.fail("no Joker to move")  # pragma: no cover


@pytest.mark.parametrize("deals", [True, False])
def test_a_point_card_played_later_is_an_error_at_the_play(deals):
    text = simulated_text(deals=deals)
    plays = hand_plays(text, 2)
    line = line_no(text, "take ", hand=2)
    taker = PLAYERS.index(token_at(text, line, 1)[0])
    later = next(e for e in plays if e.seat == taker and e.trick_no >= 4 and e.card is not JOKER
                 and str(e.card) != token_at(text, line, 2)[0])
    text, _ = replace_token(text, line, 4, str(later.card))
    problem = only_problem(text)
    trick_line = line_no(text, f"{later.trick_no}. ", hand=2)
    index = trick_of(plays, later.trick_no).index(later) + 1
    assert_at(problem, trick_line, token_at(text, trick_line, index)[1], code="card-not-held", rule="B6")
    name = PLAYERS[taker]
    assert problem.message == f"{name} cannot play {later.card}: it is {name}'s point card, laid down at the take"


# --------------------------------------------------------------------------- bids and final bids


def forbidden_bid(hand_kind: str) -> tuple[str, int, str, int]:
    """A game and hand where the dealer could bring the bids (or the final bids) to exactly 10 (B3, B5):
    the text, the dealer's line, and the amount that would."""
    for seed in range(40):
        text = simulated_text(seed)
        for hand in range(1, 8):
            try:
                calls = calls_of(text, hand, hand_kind)
            except StopIteration:
                break
            others = calls[0][2] + calls[1][2]
            amount = 10 - others
            if not 0 <= amount <= 10 or amount == calls[2][2]:
                continue
            if hand_kind == "final":
                (_, _, bid) = calls_of(text, hand, "bid")[2]
                if abs(amount - bid) > 1:
                    continue
            return text, calls[2][0], calls[2][1], amount
    raise AssertionError("no such hand")  # pragma: no cover


@pytest.mark.parametrize("kind", ["bid", "final"])
def test_the_dealers_bid_that_makes_the_total_ten_is_an_error_at_the_number(kind):
    text, line, dealer, amount = forbidden_bid(kind)
    text, column = replace_token(text, line, 2, str(amount))
    problem = only_problem(text)
    assert_at(problem, line, column, code="forbidden-total", rule="B3" if kind == "bid" else "B5")
    bids = "bids" if kind == "bid" else "final bids"
    assert problem.message == (f"{dealer}, the dealer, may not {'bid' if kind == 'bid' else 'make a final bid of'} "
                               f"{amount}: the others' {bids} come to {10 - amount}, and the dealer may not bring "
                               "the total to exactly 10")


@pytest.mark.parametrize("deals", [True, False])
def test_a_final_bid_two_away_from_the_bid_is_an_error_at_the_number(deals):
    text = simulated_text(deals=deals)
    (_, player, bid) = calls_of(text, 2, "bid")[0]
    (line, _, _) = calls_of(text, 2, "final")[0]
    final = bid + 2 if bid <= 8 else bid - 2
    text, column = replace_token(text, line, 2, str(final))
    problem = only_problem(text)
    assert_at(problem, line, column, code="final-bid-move", rule="B5")
    allowed = [str(a) for a in (bid - 1, bid, bid + 1) if 0 <= a <= 10]
    assert problem.message == (f"{player} bid {bid}: the final bid may only be "
                               f"{', '.join(allowed[:-1])} or {allowed[-1]}, not {final}")


@pytest.mark.parametrize("kind", ["bid", "final"])
def test_a_bid_of_eleven_is_an_error_at_the_number(kind):
    text = simulated_text()
    (line, player, _) = calls_of(text, 2, kind)[0]
    text, column = replace_token(text, line, 2, "11")
    problem = only_problem(text)
    assert_at(problem, line, column, code="bad-bid", rule="B3" if kind == "bid" else "B5")
    assert problem.length == 2


@pytest.mark.parametrize("kind", ["bid", "take", "final"])
@pytest.mark.parametrize("deals", [True, False])
def test_a_call_out_of_turn_is_an_error_at_the_player(kind, deals):
    text = simulated_text(deals=deals)
    first = line_no(text, kind + " ", hand=2)
    one, two = lines_of(text)[first - 1], lines_of(text)[first]
    text = edit_line(edit_line(text, first, two), first + 1, one)
    problem = only_problem(text)
    assert_at(problem, first, len(kind) + 2, code="out-of-turn", rule={"bid": "B3", "take": "B4", "final": "B5"}[kind])
    # Hand 2: Bob deals, so the order is Cat, Ann, Bob.
    what = {"bid": "bid", "take": "take from the kitty", "final": "make a final bid"}[kind]
    assert problem.message.startswith(f"Ann cannot {what} now: it is Cat's turn (")
    assert "go in turn from the dealer's left: Cat, Ann, Bob" in problem.message


def test_a_final_bid_left_out_is_an_error_at_the_next_players_final_bid():
    text = simulated_text()
    (line, _, _) = calls_of(text, 2, "final")[1]  # Ann's
    text = drop_line(text, line)
    problem = only_problem(text)
    assert_at(problem, line, len("final ") + 1, code="out-of-turn", rule="B5")
    assert problem.message == ("Ann's final bid is missing before Bob's (final bids go in turn from the dealer's "
                               "left: Cat, Ann, Bob, each written even when unchanged)")


@pytest.mark.parametrize("deals", [True, False])
@pytest.mark.parametrize(("kind", "code", "rule", "said"), [
    ("final", "missing-call", "B5", "Bob's final bid is missing before trick 1 ("),
    ("bid", "wrong-phase", "B3", "Bob's bid is missing before Cat's take ("),
], ids=["final-bid-at-trick-one", "bid-at-the-first-take"])
def test_the_dealers_call_left_out_is_an_error_at_what_follows(kind, code, rule, said, deals):
    text = simulated_text(deals=deals)
    (line, _, _) = calls_of(text, 2, kind)[2]  # Bob's, the dealer's
    text = drop_line(text, line)
    problem = only_problem(text)
    assert_at(problem, line, 1, code=code, rule=rule)
    assert problem.message.startswith(said)


def test_a_second_round_of_bids_is_an_error_at_the_word_bid():
    text = simulated_text()
    (line, _, _) = calls_of(text, 2, "bid")[2]
    text = insert_line(text, line + 1, "bid Cat 2")
    problem = only_problem(text)
    assert_at(problem, line + 1, 1, code="wrong-phase", rule="B4")


def test_an_unknown_player_in_a_call_is_an_error_at_the_id():
    text = simulated_text()
    (line, _, _) = calls_of(text, 2, "bid")[0]
    text, column = replace_token(text, line, 1, "Cath")
    assert_at(only_problem(text), line, column, code="unknown-player", rule="B1")  # B1 seats them, not R1


# --------------------------------------------------------------------------- takes


@pytest.mark.parametrize("deals", [True, False])
def test_a_take_of_a_card_not_in_the_kitty_is_an_error_at_the_card(deals):
    text = simulated_text(deals=deals)
    line = line_no(text, "take ", hand=2)
    taker = token_at(text, line, 1)[0]
    second = line_no(text, "take ", hand=2) + 1
    if deals:  # a card of the taker's own hand
        own = token_at(text, line_no(text, f"deal {taker}", hand=2), 3)[0]
        text, column = replace_token(text, line, 2, own)
        message = f"{taker} cannot take {own}: the kitty holds "
        where = f"(it is in {taker}'s own hand)"
    else:  # no kitty line: the card the player before took
        taken = token_at(text, line, 2)[0]
        line = second
        text, column = replace_token(text, line, 2, taken)
        message = f"{token_at(text, line, 1)[0]} cannot take {taken} from the kitty: "
        where = f"{taker} has taken it from the kitty"
    problem = only_problem(text)
    assert_at(problem, line, column, code="not-in-kitty", rule="B4")
    assert problem.message.startswith(message) and problem.message.endswith(where)


def test_a_point_card_not_held_is_an_error_at_the_point_card():
    text = simulated_text()
    line = line_no(text, "take ", hand=2)
    taker = token_at(text, line, 1)[0]
    other = next(name for name in PLAYERS if name != taker)
    theirs = token_at(text, line_no(text, f"deal {other}", hand=2), 5)[0]
    text, column = replace_token(text, line, 4, theirs)
    problem = only_problem(text)
    assert_at(problem, line, column, code="card-not-held", rule="B4")
    assert problem.message == (f"{taker} cannot lay {theirs} as point card: it is not in their hand "
                               f"(it is dealt to {other})")


# --------------------------------------------------------------------------- hands and dealers


@pytest.mark.parametrize("deals", [True, False])
def test_a_hand_after_the_game_has_ended_is_an_error_at_its_header(deals):
    text = simulated_text(deals=deals)
    record = parse_game(text)
    last = len(record.rounds)
    scores = {s.side: s.score for s in replay_record(record).game.standings()}
    text = text.rstrip("\n") + f"\n\nR{last + 1} dealer {PLAYERS[last % 3]}\nbid Ann 1\n"
    problem = only_problem(text)
    assert_at(problem, len(lines_of(text)) - 2, 1, code="too-many-rounds", rule="B10")
    ended = [f"{PLAYERS[s]}'s total is {v}" for s, v in scores.items() if v >= 100 or v <= -100]
    assert problem.message.startswith(f"the game is over: after hand {last} {ended[0]}")
    assert problem.message.endswith("so no hand follows")


@pytest.mark.parametrize(("tag", "code"), [('[Hands "4"]', "tag-not-allowed"), ('[Target "100"]', "tag-not-allowed"),
                                          ('[Variant "perfect"]', "bad-variant")])
def test_kirks_tags_and_variants_are_errors_here(tag, code):
    text = simulated_text().replace("[Rules ", tag + "\n[Rules ")
    problem = only_problem(text)
    assert (problem.line, problem.code) == (2, code)
    text = simulated_text().replace('[Players "Ann Bob Cat"]', '[Players "Ann Bob Cat Dan"]')
    problem = only_problem(text)
    assert (problem.code, problem.rule) == ("bad-players", "B1")


# --------------------------------------------------------------------------- deal and kitty lines


@pytest.mark.parametrize("missing", [(), ("deal Ann",)], ids=["all-lines", "no-deal-line-for-Ann"])
def test_a_deal_line_of_nine_cards_is_an_error_at_deal(missing):
    text = without_lines(simulated_text(), *missing, hand=2)
    line = line_no(text, "deal Cat", hand=2)
    text = edit_line(text, line, " ".join(lines_of(text)[line - 1].split()[:-1]))
    problem = only_problem(text)
    assert_at(problem, line, 1, code="invalid-deal", rule="B2")
    assert problem.message == "Cat is dealt 9 cards, not 10"


def test_a_kitty_of_four_cards_is_an_error_at_kitty():
    text = simulated_text()
    ann = token_at(text, line_no(text, "deal Ann", hand=2), 2)[0]
    text = without_lines(text, "deal Ann", hand=2)
    line = line_no(text, "kitty", hand=2)
    text = edit_line(text, line, lines_of(text)[line - 1] + " " + ann)
    problem = only_problem(text)
    assert_at(problem, line, 1, code="invalid-deal", rule="B2")
    assert problem.message == "the kitty is dealt 4 cards, not 3"


@pytest.mark.parametrize("extra", ["6D", "dealt"])
def test_a_card_of_no_pack_or_dealt_twice_in_the_kitty_is_an_error_at_it(extra):
    text = simulated_text()
    line = line_no(text, "kitty", hand=2)
    card = token_at(text, line_no(text, "deal Ann", hand=2), 2)[0] if extra == "dealt" else extra
    row = lines_of(text)[line - 1]
    text = edit_line(text, line, row + " " + card)
    problem = only_problem(text)
    if extra == "dealt":
        assert_at(problem, line, len(row) + 2, code="card-twice", rule="B2")
        assert problem.message == f"{card} is dealt to Ann and to the kitty"
    else:
        assert_at(problem, line, len(row) + 2, code="card-not-in-deck", rule="B2")


@pytest.mark.parametrize("prefix", ["deal Cat", "kitty"])
def test_a_second_deal_or_kitty_line_is_an_error_at_its_word(prefix):
    text = simulated_text()
    line = line_no(text, prefix, hand=1)
    text = insert_line(text, line + 1, lines_of(text)[line - 1])
    problem = only_problem(text)
    assert_at(problem, line + 1, 1, code="duplicate-deal", rule="B2")


LEFT_OUT = [("kitty",), ("deal Bob",), ("deal Ann", "kitty"), ("deal Ann", "deal Cat"),
            ("deal Ann", "deal Bob", "deal Cat"), ("deal Bob", "deal Cat", "kitty")]


@pytest.mark.parametrize("missing", LEFT_OUT, ids=lambda m: "-".join(p.split()[-1] for p in m))
def test_a_complete_hand_with_some_lines_left_out_infers_them(missing):
    text = simulated_text()
    cut = without_lines(text, *missing, hand=2)
    replayed = replay_record(parse_game(cut))
    assert replayed.valid and replayed.complete and not replayed.notes
    original = [m for m in replay_record(parse_game(text)).game.moves if isinstance(m, Deal)]
    inferred = [m for m in replayed.game.moves if isinstance(m, Deal)]
    assert same_deal(inferred[1], original[1], kitty_order="kitty" not in missing)
    assert inferred[0] == original[0] and inferred[2:] == original[2:]


@pytest.mark.parametrize("missing", [("kitty",), ("deal Bob",)])
def test_a_deal_left_out_in_one_place_is_the_rest_of_the_pack_even_when_unfinished(missing):
    text = without_lines(simulated_text(), *missing, hand=3)
    text = cut_after(text, line_no(text, "4. ", hand=3))
    replayed = replay_record(parse_game(text))
    assert replayed.valid and not replayed.complete and not replayed.notes  # the hands are known


def test_with_some_deal_lines_a_card_of_a_written_hand_played_by_another_is_an_error_at_the_play():
    full = simulated_text()
    plays = hand_plays(full, 2)
    text = without_lines(full, "deal Bob", "deal Cat", "kitty", hand=2)
    ann = 0
    # Swap a card Bob plays with a card of Ann's deal line that Ann plays later: Bob then plays a
    # card Ann's deal line holds.
    for b in plays:
        if b.seat != 1 or b.leads or b.card is JOKER:
            continue
        a = next((e for e in plays if e.seat == ann and e.trick_no > b.trick_no and e.card is not JOKER
                  and (e.card.suit is b.card.suit if isinstance(b.card, Card) else False)), None)
        if a is None:
            continue
        i, j = trick_of(plays, b.trick_no), trick_of(plays, a.trick_no)
        if winner([a if e is b else e for e in i]) != winner(i):
            continue
        line_i, line_j = line_no(text, f"{b.trick_no}. ", hand=2), line_no(text, f"{a.trick_no}. ", hand=2)
        changed, _ = replace_token(text, line_j, j.index(a) + 1, str(b.card) + ("-" if b.high is False else ""))
        changed, column = replace_token(changed, line_i, i.index(b) + 1, str(a.card) + ("-" if a.high is False else ""))
        problem = problems(changed)[0]
        assert_at(problem, line_i, column, code="card-not-held", rule="B6")
        assert problem.message == f"Bob does not hold {a.card} (it is dealt to Ann)"
        return
    pytest.fail("no card of Ann's to swap")  # pragma: no cover


# --------------------------------------------------------------------------- tricks


def test_a_hand_that_stops_after_its_calls_while_another_follows_is_an_error_at_its_header():
    text = simulated_text()
    for t in range(10, 0, -1):
        text = drop_line(text, line_no(text, f"{t}. ", hand=2))
    problem = only_problem(text)
    assert_at(problem, line_no(text, "R2 "), 1, code="round-too-short", rule="B6")


# --------------------------------------------------------------------------- unfinished games

NOTE = ("hand 3 is unfinished and has no deal or kitty lines: the cards left out are known only from the "
        "takes and plays written, so the hand is checked against those alone")


@pytest.mark.parametrize("deals", [True, False])
@pytest.mark.parametrize("upto", ["R3 ", "bid ", "take ", "final "])
def test_a_last_hand_that_stops_before_its_tricks_is_unfinished(deals, upto):
    text = simulated_text(deals=deals)
    text = cut_after(text, line_no(text, "kitty" if deals and upto == "R3 " else upto, hand=3))
    replayed = replay_record(parse_game(text))
    assert replayed.valid and not replayed.complete, replayed.problems
    assert replayed.notes == ([] if deals else [NOTE])


@pytest.mark.parametrize("change", ["twice", "11D", "bid", "take", "revoke"])
def test_an_unfinished_hand_without_lines_is_still_checked(change):
    full = simulated_text(deals=False)
    plays = hand_plays(full, 3)
    text = cut_after(full, line_no(full, "8. ", hand=3))
    if change in ("twice", "11D"):
        line = line_no(text, "7. ", hand=3)
        seat = trick_of(plays, 7)[1].seat
        first = next(e for e in plays if e.trick_no < 7 and e.seat == seat)
        card = str(first.card) if change == "twice" else "11D"
        card += "-" if first.high is False and change == "twice" else ""
        text, column = replace_token(text, line, 2, card)
        problem = only_problem(text)
        assert_at(problem, line, column, code="card-not-held" if change == "twice" else "card-not-in-deck")
    elif change == "bid":
        (line, _, _) = calls_of(text, 3, "bid")[0]
        one, two = lines_of(text)[line - 1], lines_of(text)[line]
        text = edit_line(edit_line(text, line, two), line + 1, one)
        assert_at(only_problem(text), line, 5, code="out-of-turn", rule="B3")
    elif change == "take":
        line = line_no(text, "take ", hand=3) + 2
        taken = token_at(text, line - 2, 2)[0]
        text, column = replace_token(text, line, 2, taken)
        assert_at(only_problem(text), line, column, code="not-in-kitty", rule="B4")
    else:
        changed, line, column, x, y = revoke_swap(full, 3)
        changed = cut_after(changed, line_no(changed, f"{max(x.trick_no, y.trick_no)}. ", hand=3))
        problem = problems(changed)[0]
        assert_at(problem, line, column, code="must-follow-suit", rule="B6")
        assert problem.message.endswith(f"{PLAYERS[x.seat]} plays {x.card} in trick {y.trick_no}")


def test_a_hand_written_like_the_notations_example_checks_as_far_as_it_goes():
    # Our own hand in the form DGN shows: a kitty line, no deal lines, every call, a low ace.
    text = "\n".join([
        '[Rules "bidding"]', '[Players "Ann Bob Cat"]', '[Dealer "Ann"]', '[Result "*"]', "",
        "R1 dealer Ann", "kitty 8H KD 7C",
        "bid Bob 3", "bid Cat 4", "bid Ann 2",
        "take Bob 8H point QS", "take Cat 7C point 7C", "take Ann KD point 9S",
        "final Bob 3", "final Cat 3", "final Ann 2",
        "1. 10S 8S AS-", "2. JoH+ 7H 9H", ""])
    replayed = replay_record(parse_game(text))
    assert replayed.valid, replayed.problems
    assert not replayed.complete
    assert replayed.notes == ["hand 1 is unfinished and has no deal line for Ann, Bob and Cat: the cards left out "
                              "are known only from the takes and plays written, so the hand is checked against "
                              "those alone"]
    # Cat took 7C and laid it at once (B4): Cat may not play it.
    problem = only_problem(text.replace("2. JoH+ 7H 9H", "2. JoH+ 7C 9H"))
    assert problem.message == "Cat cannot play 7C: it is Cat's point card, laid down at the take"
    # Bob took 8H: nobody else plays it.
    problem = only_problem(text.replace("2. JoH+ 7H 9H", "2. JoH+ 7H 8H"))
    assert problem.message == "Ann does not hold 8H (Bob has taken it from the kitty)"
    # The dealer's total of 10 (2 + 3 + 4 = 9; 3 would make it 10).
    problem = only_problem(text.replace("bid Ann 2", "bid Ann 3"))
    assert (problem.code, problem.rule) == ("forbidden-total", "B3")


def test_the_bridge_is_the_familys():
    from diamonds.core import family_of
    from diamonds.families.bidding.bridge import BRIDGE, BiddingReplayer

    assert family_of("bidding").part("bridge") is BRIDGE
    assert BRIDGE.replayer is BiddingReplayer
    assert (BiddingReplayer.round_word, BiddingReplayer.result_rule, BiddingReplayer.length_rule) == ("hand", "B9",
                                                                                                      "B10")
    game = simulate(PLAYERS, rules="bidding", seed=5)
    assert BRIDGE.record_from_game(game, deals=False) == record_from_game(game, deals=False)
