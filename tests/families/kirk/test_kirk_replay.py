"""Kirk's bridge: `kirk` records replayed through the engine, problems at their tokens, round trips.

Games come from the seeded simulator or from the samples, are written as
records, and then changed the way a scorer gets things wrong. Expected
positions are read from the changed text itself (the line the change is on,
the column of the changed token), never typed in.

What the rulings say, in our words, where a test depends on it:
  K2  52 cards, 2-10 J Q K A; 13 to each player; nothing passed; the deal
      moves one seat left each hand.
  K4  the dealer's left neighbour leads trick 1; any card held may be
      played; the winner leads next; 13 tricks a hand.
  K5  ties on the highest value are broken from the scoring piles, else by
      who played first; nothing about it is written.
  K8  `Hands` (default 4) or `Target`, never both; a hand after the end is
      an error.
"""

from __future__ import annotations

from pathlib import Path

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
    edit_line,
    games_of,
    generated_games,
    insert_line,
    line_no,
    only_problem,
    problems,
    replace_token,
    token_at,
    without_lines,
)

from diamonds.core import Card, simulate
from diamonds.families.kirk.rules import CardPlayed, Deal, DecidedBy, HandScored, KirkConfig, PlayCard, TrickWon
from diamonds.notation import parse_game
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game, replay_record

KIRK_SAMPLES = sorted(SAMPLES.glob("kirk-*.dgn"))
KIRK_INVALID = sorted(INVALID.glob("kirk-*.dgn"))
PLAYERS = ("Ann", "Bob", "Cat", "Dan")


# --------------------------------------------------------------------------- helpers


def simulated_text(seed: int = 3, *, deals: bool = True, **options: str) -> str:
    """A complete game (Ann deals first) written canonically."""
    return replaycheck.simulated_text(PLAYERS, "kirk", seed, deals=deals, **options)


def without_deal_lines(text: str, *names: str, hand: int = 1) -> str:
    return without_lines(text, *(f"deal {name}" for name in names), hand=hand)


# --------------------------------------------------------------------------- the samples


@pytest.mark.parametrize("path", KIRK_SAMPLES, ids=lambda p: p.name)
def test_every_kirk_sample_is_valid_and_complete_with_its_result_confirmed(path):
    check_sample(path, "kirk")


def sample_events(path: Path) -> list[object]:
    (record,) = games_of(path)
    replayed = replay_record(record)
    return [event for events in replayed.game.events for event in events]


def test_the_kirk_samples_show_what_they_are_for():
    assert len(KIRK_SAMPLES) >= 3
    records = {path.name: games_of(path)[0] for path in KIRK_SAMPLES}
    assert any(r.tag("Target") is not None for r in records.values())
    assert any(not any(rnd.lines("deal") for rnd in r.rounds) for r in records.values())
    for record in records.values():
        assert all(record.tag_value(name) for name in ("Event", "Site", "Date", "Players", "Dealer", "Result"))
        assert record.tag_value("Rules") == "kirk"
        assert record.comments, "an opening comment"
        assert all(rnd.header.pass_count is None for rnd in record.rounds)
    won = [e for path in KIRK_SAMPLES for e in sample_events(path) if isinstance(e, TrickWon)]
    # K5: a tie on a hand's first trick goes to the first of the tied to play ...
    assert any(e.trick_no == 1 and e.decided_by is DecidedBy.FIRST_PLAYED for e in won)
    # ... and a tie the piles break only at the second card or deeper.
    assert any(e.decided_by is DecidedBy.PILES and e.depth >= 2 for e in won)
    # The sample without deal lines is inferred across both kinds of tie.
    no_deals = [e for e in sample_events(SAMPLES / "kirk-4p-no-deals.dgn") if isinstance(e, TrickWon)]
    assert {e.decided_by for e in no_deals} == set(DecidedBy)


def test_the_kirk_samples_are_the_generators_files():
    check_generator_files("kirk", KIRK_SAMPLES)


@pytest.mark.parametrize("name,index", generated_games("kirk"))
def test_each_kirk_sample_game_is_made_by_the_generator(name, index):
    check_generated_game("kirk", name, index)


# --------------------------------------------------------------------------- recording mistakes


def test_there_are_kirk_recording_mistakes_each_with_a_golden():
    assert len(KIRK_INVALID) >= 4
    for path in KIRK_INVALID:
        assert path.with_suffix(".expected").exists(), path.name


@pytest.mark.parametrize("path", KIRK_INVALID, ids=lambda p: p.stem)
def test_a_kirk_recording_mistake_prints_exactly_its_golden(path):
    record = check_golden(path)
    assert len(replay_record(record).problems) == 1


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("seed", range(100))
def test_a_simulated_game_round_trips_and_validates_with_and_without_deal_lines(seed):
    options = ({"Target": str(150 + seed)} if seed % 3 == 0 else
               {"Hands": str(1 + seed % 5)} if seed % 3 == 1 else None)
    game = simulate(PLAYERS, rules="kirk", seed=seed, options=options)
    deals = [move for move in game.moves if isinstance(move, Deal)]
    for with_deals in (True, False):
        record = record_from_game(game, tags=[("Event", "round trip")], deals=with_deals)
        assert all(rnd.header.pass_count is None for rnd in record.rounds)
        assert all(len(rnd.lines("deal")) == (4 if with_deals else 0) for rnd in record.rounds)
        replayed = check_round_trip(record)
        # The same moves: without deal lines, each hand is inferred as the cards its player played.
        assert [type(m) for m in replayed.game.moves] == [type(m) for m in game.moves]
        inferred = [m for m in replayed.game.moves if isinstance(m, Deal)]
        assert [[set(h) for h in d.hands] for d in inferred] == [[set(h) for h in d.hands] for d in deals]
        assert [m.card for m in replayed.game.moves if isinstance(m, PlayCard)] == \
               [m.card for m in game.moves if isinstance(m, PlayCard)]
        assert replayed.game.standings() == game.standings()


def test_the_record_of_a_game_says_how_long_it_lasts_and_has_no_pass_counts():
    game = simulate(PLAYERS, rules="kirk", seed=11, dealer="Cat")
    record = record_from_game(game)
    assert [(t.name, t.value) for t in record.tags][:4] == [
        ("Rules", "kirk"), ("Players", "Ann Bob Cat Dan"), ("Dealer", "Cat"), ("Hands", "4")]
    assert [rnd.header.dealer for rnd in record.rounds] == ["Cat", "Dan", "Ann", "Bob"]  # K2
    first = record.rounds[0]
    assert [line.player for line in first.lines("deal")] == list(PLAYERS)
    assert all(len(line.cards) == 13 for line in first.lines("deal"))
    assert [t.number for t in first.tricks] == list(range(1, 14))
    assert all(len(t.plays) == 4 for t in first.tricks)
    text = write_game(record)
    assert "\nR1 dealer Cat\n" in text and " pass " not in text
    target = record_from_game(simulate(PLAYERS, rules="kirk", seed=11, options={"Target": "300"}))
    assert target.tag_value("Target") == "300" and target.tag("Hands") is None


def test_option_values_are_the_tag_that_says_how_long_the_game_lasts():
    assert KirkConfig(rules="kirk", players=PLAYERS, first_dealer=0, sides=((0,), (1,), (2,), (3,)),
                      side_of=(0, 1, 2, 3)).option_values() == (("Hands", "4"),)
    config = KirkConfig(rules="kirk", players=PLAYERS, first_dealer=0, sides=((0,), (1,), (2,), (3,)),
                        side_of=(0, 1, 2, 3), hands=None, target=300)
    assert config.option_values() == (("Target", "300"),)


# --------------------------------------------------------------------------- notation of other games


@pytest.mark.parametrize("item", ["pass Bob 2C 3C", "kitty 2C 3C 4C", "bid Bob 3"])
def test_pass_kitty_and_bid_lines_are_errors_at_their_word(item):
    text = simulated_text()
    line = line_no(text, "1. ", hand=2)
    text = insert_line(text, line, item)
    assert_at(only_problem(text), line, 1, code="item-not-allowed", rule="K2")


@pytest.mark.parametrize("where", ["trick", "deal"])
def test_high_or_low_is_an_error_at_its_sign(where):
    text = simulated_text()
    line = line_no(text, "7. " if where == "trick" else "deal Cat", hand=2)
    card, column = token_at(text, line, 3)
    text, _ = replace_token(text, line, 3, card + "-")
    assert_at(only_problem(text), line, column + len(card), code="choice-not-allowed", rule="K3")


# --------------------------------------------------------------------------- headers


def test_an_unknown_player_in_a_deal_line_is_an_error_at_the_id():
    text = simulated_text()
    line = line_no(text, "deal Bob", hand=2)
    text, column = replace_token(text, line, 1, "Bobby")
    assert_at(only_problem(text), line, column, code="unknown-player")


def test_a_hand_after_the_last_is_an_error_at_its_header():
    text = simulated_text(Hands="1")
    text = text.rstrip("\n") + "\n\nR2 dealer Bob\n1. 2C 3C 4C 5C\n"
    line = len(text.split("\n")) - 2
    problem = only_problem(text)
    assert_at(problem, line, 1, code="too-many-rounds", rule="K8")
    assert "after 1 hand (as the Hands tag says)" in problem.message


def test_a_hand_after_the_target_is_reached_is_an_error_at_its_header():
    text = simulated_text(Target="120")
    record = parse_game(text)
    replayed = replay_record(record)
    assert replayed.valid and replayed.complete
    last = len(record.rounds)
    text = text.rstrip("\n") + f"\n\nR{last + 1} dealer {PLAYERS[last % 4]}\n"
    problem = only_problem(text)
    assert_at(problem, len(text.split("\n")) - 1, 1, code="too-many-rounds", rule="K8")
    assert "reached the target of 120" in problem.message


# --------------------------------------------------------------------------- cards


@pytest.mark.parametrize("missing", [(), ("Bob",)], ids=["all-deal-lines", "no-deal-line-for-Bob"])
def test_a_card_of_no_deck_names_the_card_meant(missing):
    text = without_deal_lines(simulated_text(), *missing)
    line = line_no(text, "deal Dan", hand=1)
    card, _ = token_at(text, line, 2)
    text, column = replace_token(text, line, 2, "12" + card[-1])
    problem = only_problem(text)
    assert_at(problem, line, column, code="card-not-in-deck", rule="K2")
    assert problem.message.endswith(f"did you mean Q{card[-1]}?")


@pytest.mark.parametrize("deals", [True, False])
def test_a_card_played_twice_is_an_error_naming_where_it_was_first_played(deals):
    text = simulated_text(deals=deals)
    replayed = replay_record(parse_game(text))
    hand_1 = [e for events in replayed.game.events for e in events if isinstance(e, CardPlayed)][:52]
    first_line = line_no(text, "3. ", hand=1)
    earlier, _ = token_at(text, first_line, 1)
    line = line_no(text, "9. ", hand=1)
    text, column = replace_token(text, line, 3, earlier)
    problem = only_problem(text)
    assert_at(problem, line, column, code="card-not-held", rule="K4")
    first = PLAYERS[next(e.seat for e in hand_1 if e.trick_no == 3 and e.card is Card.parse(earlier))]
    assert f"cannot play {earlier}: it was already played in trick 3 (by {first})" in problem.message


def hand_plays(text: str, hand: int) -> list[CardPlayed]:
    """The cards played in a hand of a valid game, with their seats (from the engine's events)."""
    replayed = replay_record(parse_game(text))
    played = [e for events in replayed.game.events for e in events if isinstance(e, CardPlayed)]
    return played[52 * (hand - 1): 52 * hand]


def test_a_card_not_held_is_an_error_at_the_token():
    text = simulated_text()
    plays = hand_plays(text, 1)
    line = line_no(text, "2. ", hand=1)
    mover = next(e for e in plays if e.trick_no == 2 and not e.leads)
    later = next(e for e in plays if e.trick_no == 12 and e.seat != mover.seat)
    index = next(i for i, e in enumerate(e for e in plays if e.trick_no == 2) if e is mover) + 1
    text, column = replace_token(text, line, index, str(later.card))  # a card another holds until trick 12
    problem = problems(text)[0]
    assert_at(problem, line, column, code="card-not-held", rule="K4")
    assert problem.message == (f"{PLAYERS[mover.seat]} does not hold {later.card} "
                               f"({PLAYERS[later.seat]} holds it)")


# --------------------------------------------------------------------------- deal lines


@pytest.mark.parametrize("missing", [(), ("Bob",)], ids=["all-deal-lines", "no-deal-line-for-Bob"])
def test_a_deal_line_of_twelve_cards_is_an_error_at_deal(missing):
    text = without_deal_lines(simulated_text(), *missing, hand=2)
    line = line_no(text, "deal Cat", hand=2)
    text = edit_line(text, line, " ".join(text.split("\n")[line - 1].split()[:-1]))
    problem = only_problem(text)
    assert_at(problem, line, 1, code="invalid-deal", rule="K2")
    assert problem.message == "Cat is dealt 12 cards, not 13"


@pytest.mark.parametrize("missing", [(), ("Bob",)], ids=["all-deal-lines", "no-deal-line-for-Bob"])
def test_a_second_deal_line_for_a_player_is_an_error(missing):
    text = without_deal_lines(simulated_text(), *missing)
    line = line_no(text, "deal Dan", hand=1)
    text = insert_line(text, line + 1, text.split("\n")[line - 1])
    assert_at(only_problem(text), line + 1, 1, code="duplicate-deal", rule="K2")


@pytest.mark.parametrize("missing", [("Ann",), ("Bob", "Dan"), ("Ann", "Bob", "Cat")])
def test_a_complete_hand_with_some_deal_lines_infers_the_others(missing):
    text = without_deal_lines(simulated_text(), *missing, hand=2)
    replayed = replay_record(parse_game(text))
    assert replayed.valid and replayed.complete and not replayed.notes


def test_with_some_deal_lines_a_card_of_a_written_hand_played_by_another_is_an_error_at_the_play():
    text = simulated_text()
    record = parse_game(text)
    dan = set(record.rounds[0].lines("deal")[3].cards.cards)
    text = without_deal_lines(text, "Ann", "Bob", "Cat")
    # Swap a card Dan plays with one another player plays in an earlier trick: that player then plays
    # a card Dan's deal line holds.
    lines = [line_no(text, f"{t}. ") for t in range(1, 14)]
    for t, line in enumerate(lines[:6]):
        for index in range(1, 5):
            card, _ = token_at(text, line, index)
            if Card.parse(card) not in dan:
                continue
            for later in lines[t + 1:]:
                for other in range(1, 5):
                    theirs, _ = token_at(text, later, other)
                    if Card.parse(theirs) not in dan:
                        changed, _ = replace_token(text, later, other, card)
                        changed, column = replace_token(changed, line, index, theirs)
                        found = problems(changed)
                        assert found, "a card against the deal line written"
                        problem = found[0]
                        assert problem.code == "card-not-held" and problem.rule == "K4"
                        # Dan's own play of the swapped card, or the other player's play of Dan's card.
                        assert (problem.line, problem.column) in {(line, column), token_pos(changed, later, other)}
                        assert "Dan" in problem.message
                        return
    pytest.fail("no card of Dan's to swap")  # pragma: no cover


def token_pos(text: str, line: int, index: int) -> tuple[int, int]:
    return line, token_at(text, line, index)[1]


# --------------------------------------------------------------------------- unfinished games


@pytest.mark.parametrize("deals", [True, False])
def test_a_last_hand_of_only_its_header_and_deal_lines_is_unfinished(deals):
    text = simulated_text(deals=deals)
    text = cut_after(text, line_no(text, "1. ", hand=3) - 1)
    replayed = replay_record(parse_game(text))
    assert replayed.valid and not replayed.complete
    assert bool(replayed.notes) is not deals


def test_an_unfinished_hand_with_some_deal_lines_is_checked_against_them():
    # Ann's and Cat's deal lines left out (what the replay says of the hand: test_trick_records.py)
    text = without_deal_lines(simulated_text(), "Ann", "Cat", hand=3)
    text = cut_after(text, line_no(text, "6. ", hand=3))
    # A card of Bob's deal line written for another player: an error at the play, though the hand is
    # unfinished; and a card of Bob's that Bob plays is not one of his.
    full = simulated_text()
    trick_2 = [e for e in hand_plays(full, 3) if e.trick_no == 2]
    record = parse_game(text)
    bob = record.rounds[2].lines("deal")[0].cards.cards
    played = {card for trick in record.rounds[2].tricks for card in trick.plays.cards}
    unplayed = next(card for card in bob if card not in played)
    line = line_no(text, "2. ", hand=3)
    for index, event in enumerate(trick_2, 1):
        if event.seat == 1:
            changed, column = replace_token(text, line, index, "2C" if Card.parse("2C") not in bob else "3C")
            if Card.parse(token_at(changed, line, index)[0]) in played:
                continue
            message = "not in Bob's deal line"
        else:
            changed, column = replace_token(text, line, index, str(unplayed))
            name = PLAYERS[event.seat]
            message = (f"{name} cannot play {unplayed}: it is dealt to Bob" if name in ("Ann", "Cat") else
                       f"{name} does not hold {unplayed} (it is dealt to Bob)")  # Dan has a deal line
        found = problems(changed)
        assert found and found[0].code == "card-not-held", found
        assert (found[0].line, found[0].column) == (line, column)
        assert message in found[0].message


@pytest.mark.parametrize("bad", ["twice", "11D"])
def test_an_unfinished_hand_without_deal_lines_still_checks_the_cards(bad):
    text = simulated_text(deals=False)
    text = cut_after(text, line_no(text, "8. ", hand=3))
    line = line_no(text, "7. ", hand=3)
    card = token_at(text, line_no(text, "2. ", hand=3), 1)[0] if bad == "twice" else bad
    text, column = replace_token(text, line, 2, card)
    problem = only_problem(text)
    assert_at(problem, line, column, code="card-not-held" if bad == "twice" else "card-not-in-deck")


# --------------------------------------------------------------------------- Hands and Target


def test_a_game_of_two_hands():
    text = simulated_text(Hands="2")
    assert '[Hands "2"]' in text
    record = parse_game(text)
    assert len(record.rounds) == 2
    replayed = replay_record(record)
    assert replayed.valid and replayed.complete


def test_a_game_without_hands_or_target_lasts_four_hands():
    text = simulated_text().replace('[Hands "4"]\n', "")
    record = parse_game(text)
    assert record.tag("Hands") is None and len(record.rounds) == 4
    replayed = replay_record(record)
    assert replayed.valid and replayed.complete
    text = text.rstrip("\n") + "\n\nR5 dealer Ann\n"
    problem = only_problem(text)
    assert problem.code == "too-many-rounds" and "without a Hands or Target tag, the game lasts 4 hands" in \
        problem.message


def test_a_target_game_ends_after_the_hand_that_reaches_it():
    text = simulated_text(Target="200")
    record = parse_game(text)
    replayed = replay_record(record)
    assert replayed.valid and replayed.complete
    totals = [e.totals for events in replayed.game.events for e in events if isinstance(e, HandScored)]
    assert max(totals[-1]) >= 200 and all(max(t) < 200 for t in totals[:-1])


def test_hands_and_target_together_are_an_error_at_target():
    text = simulated_text().replace('[Hands "4"]', '[Hands "4"]\n[Target "300"]')
    line = line_no(text, "[Target", hand=0)
    problem = only_problem(text)
    assert_at(problem, line, len('[Target "') + 1, code="bad-tag", rule="K8")


@pytest.mark.parametrize("value", ["0", "x", "-3", "2.5"])
@pytest.mark.parametrize("tag", ["Hands", "Target"])
def test_hands_or_target_must_be_a_positive_whole_number(tag, value):
    text = simulated_text().replace('[Hands "4"]', f'[{tag} "{value}"]')
    problem = only_problem(text)
    assert_at(problem, line_no(text, f"[{tag}", hand=0), len(f'[{tag} "') + 1, code="bad-tag", rule="K8")


@pytest.mark.parametrize("tag", ["Hands", "Target"])
def test_hands_or_target_in_a_fitzgerald_game_is_an_error_at_the_tag(tag):
    game = simulate(3, rules="2e", seed=1)
    text = write_game(record_from_game(game))
    text = text.replace('[Result', f'[{tag} "4"]\n[Result', 1)
    problem = only_problem(text)
    assert_at(problem, line_no(text, f"[{tag}", hand=0), len(f'[{tag} "') + 1, code="tag-not-allowed")


def test_a_kirk_game_needs_four_players():
    text = simulated_text().replace('"Ann Bob Cat Dan"', '"Ann Bob Cat"')
    problem = problems(text)[0]
    assert problem.rule == "K1" and problem.line == line_no(text, "[Players", hand=0)
