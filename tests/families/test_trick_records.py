"""What the bridges of the trick-taking families without passing (kirk, bidding) check alike: headers and
dealers, a card dealt twice, the tricks' lengths and numbers, unfinished games and the Result.

Each test runs for each family, on a simulated game (Ann deals first) changed the way a scorer gets
things wrong; the positions expected are read from the changed text (tests/replaycheck.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from replaycheck import (
    assert_at,
    cut_after,
    drop_line,
    edit_line,
    insert_line,
    line_no,
    lines_of,
    only_problem,
    replace_token,
    simulated_text,
    token_at,
    unfinished,
    without_lines,
)

from diamonds.notation import parse_game
from diamonds.notation.records import Problem
from diamonds.replay import replay_record, validate_record


@dataclass(frozen=True)
class Family:
    rules: str
    players: tuple[str, ...]
    seed: int  # of the simulated game the tests change
    tricks: int  # a hand's
    deal_rule: str  # who deals, and what
    trick_rule: str  # a trick's cards, a hand's tricks
    result_rule: str  # the scores
    end_rule: str  # when the game is over
    victim: str  # a mark of fitzgerald's, as written after a card
    choice_rule: str  # what may follow a card
    pass_message: str  # of a header with a pass count
    wrong_dealer: str  # who does not deal hand 3, and what is said of it
    wrong_dealer_message: str
    first_dealer: str  # who does not deal hand 1
    dealt_twice: tuple[tuple[str, ...], ...]  # the lines left out of hand 1 where a card is dealt twice
    unfinished_message: str  # how a Result with scores on an unfinished game begins
    not_in_pack: dict[str, str | None]  # cards of no pack, and the card the message asks if meant
    unfinished_at: str  # the trick of hand 3 an unfinished game stops at
    unfinished_keeps: tuple[int | None, ...]  # how much of that trick is kept (all of it: None)
    unfinished_note: str  # what is said of an unfinished last hand without deal lines
    lacking_at: str  # the trick of hand 3 a game stops at that lacks Ann's and Cat's deal lines
    lacking_note: str  # what is said of it
    end_line: str  # fitzgerald's end of a hand, written after the last trick
    extra_trick: str  # a trick after the last
    validates_alike: bool = False  # the check without history is asked to find the same problems
    def text(self, *, deals: bool = True) -> str:
        return simulated_text(self.players, self.rules, self.seed, deals=deals)

    def only_problem(self, text: str) -> Problem:
        return only_problem(text, validates_alike=self.validates_alike)


KIRK = Family(
    rules="kirk", players=("Ann", "Bob", "Cat", "Dan"), seed=3, tricks=13,
    deal_rule="K2", trick_rule="K4", result_rule="K7", end_rule="K8", victim=">Dan", choice_rule="K3",
    pass_message="a kirk hand has no pass count: write R2 dealer Bob",
    wrong_dealer="Bob", wrong_dealer_message="hand 3 is dealt by Cat, not Bob (the deal moves one seat left each hand)",
    first_dealer="Dan", dealt_twice=((), ("deal Bob",)),
    unfinished_message='the game stops in hand 3, so its Result is "*"', end_line="end >Bob",
    lacking_at="6. ",
    lacking_note="hand 3 is unfinished and has no deal line for Ann and Cat: its hands are unknown, so its cards are "
                 "checked only against the pack and each other, and against the deal lines written",
    unfinished_at="8. ", unfinished_keeps=(None, 3, 1),
    unfinished_note="hand 3 is unfinished and has no deal lines: its hands are unknown, so its cards are checked only "
                    "against the pack and each other",
    not_in_pack={"11D": "JD", "1H": "AH", "15C": None, "Jo": None, "14S": "AS"}, extra_trick="14. 2C 3C 4C 5C")
BIDDING = Family(
    rules="bidding", players=("Ann", "Bob", "Cat"), seed=0, tricks=10,
    deal_rule="B2", trick_rule="B6", result_rule="B9", end_rule="B10", victim=">Ann", choice_rule="B7",
    pass_message="a bidding hand has no pass count: write R2 dealer Bob",
    wrong_dealer="Ann", wrong_dealer_message="hand 3 is dealt by Cat, not Ann (the deal moves one seat left each hand)",
    first_dealer="Bob", dealt_twice=((), ("deal Bob",), ("kitty",)),
    unfinished_message="the game is not over: after 2 hands the totals are Ann ", end_line="end",
    lacking_at="5. ",
    lacking_note="hand 3 is unfinished and has no deal line for Ann and Cat: the cards left out are known only from "
                 "the takes and plays written, so the hand is checked against those alone",
    unfinished_at="6. ", unfinished_keeps=(None, 3, 2, 1),
    unfinished_note="hand 3 is unfinished and has no deal or kitty lines: the cards left out are known only from the "
                    "takes and plays written, so the hand is checked against those alone",
    not_in_pack={"6H": None, "1D": "AD", "15C": None, "11D": "JD", "2S": None, "14S": "AS"},
    extra_trick="11. 7C 8C 9C", validates_alike=True)
FAMILIES = [KIRK, BIDDING]

each_family = pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.rules)
with_and_without_deals = pytest.mark.parametrize("deals", [True, False])


# --------------------------------------------------------------------------- notation of other games


@each_family
def test_a_pass_count_is_an_error_at_the_word_pass(family):
    text = family.text()
    line = line_no(text, "R2 ")
    header = lines_of(text)[line - 1]
    text = edit_line(text, line, header + " pass 2")
    problem = family.only_problem(text)
    assert_at(problem, line, len(header) + 2, code="item-not-allowed", rule=family.deal_rule)
    assert problem.message == family.pass_message


@each_family
def test_an_end_line_is_an_error_at_end(family):
    text = family.text()
    line = line_no(text, f"{family.tricks}. ", hand=1) + 1
    text = insert_line(text, line, family.end_line)
    assert_at(family.only_problem(text), line, 1, code="item-not-allowed", rule=family.deal_rule)


@with_and_without_deals
@each_family
def test_a_victim_is_an_error_at_its_mark(family, deals):
    text = family.text(deals=deals)
    line = line_no(text, "5. ", hand=3)
    card, column = token_at(text, line, 2)
    text, _ = replace_token(text, line, 2, card + family.victim)
    problem = family.only_problem(text)
    assert_at(problem, line, column + len(card), code="choice-not-allowed", rule=family.choice_rule)
    assert problem.length == 4


# --------------------------------------------------------------------------- hands and dealers


@each_family
def test_a_wrong_dealer_is_an_error_at_the_id(family):
    text = family.text()
    line = line_no(text, "R3 ")
    text, column = replace_token(text, line, 2, family.wrong_dealer)  # hand 3 is Cat's to deal (Ann, Bob, Cat)
    problem = family.only_problem(text)
    assert_at(problem, line, column, code="wrong-dealer", rule=family.deal_rule)
    assert problem.message == family.wrong_dealer_message


@each_family
def test_the_first_dealer_is_the_dealer_tags(family):
    text = family.text()
    line = line_no(text, "R1 ")
    text, column = replace_token(text, line, 2, family.first_dealer)
    problem = family.only_problem(text)
    assert_at(problem, line, column, code="wrong-dealer", rule=family.deal_rule)
    assert "as the Dealer tag says" in problem.message


@each_family
def test_hands_are_numbered_in_order(family):
    text = family.text()
    line = line_no(text, "R3 ")
    text, column = replace_token(text, line, 0, "R4")
    assert_at(family.only_problem(text), line, column, code="round-number")


@pytest.mark.parametrize(("family", "missing"), [(f, m) for f in FAMILIES for m in f.dealt_twice],
                         ids=lambda p: p.rules if isinstance(p, Family) else "-".join(p) or "all-lines")
def test_a_card_dealt_twice_is_an_error_at_the_second(family, missing):
    text = without_lines(family.text(), *missing)
    first = line_no(text, "deal Ann", hand=1)
    line = line_no(text, "deal Cat", hand=1)
    card, _ = token_at(text, first, 2)
    text, column = replace_token(text, line, 2, card)
    problem = family.only_problem(text)
    assert_at(problem, line, column, code="card-twice", rule=family.deal_rule)
    assert problem.message == f"{card} is dealt to Ann and to Cat"


# The deal lines written, checked on their own where a hand is left out (`Replayer.check_deal_lines`: one check for
# both games, its pack, sizes and ruling the family's): each fault at its token, with the game's own ruling.


def _one_line_left_out(family: Family) -> tuple[str, int, list[str]]:
    """The game with Bob's deal line of hand 1 left out (so the other hands are checked before any is inferred),
    Ann's deal line's number, and Bob's cards (dealt to nobody written)."""
    text = family.text()
    bob = lines_of(text)[line_no(text, "deal Bob", hand=1) - 1].split()[2:]
    text = without_lines(text, "deal Bob")
    return text, line_no(text, "deal Ann", hand=1), bob


@each_family
def test_a_card_twice_in_one_deal_line_is_an_error_at_the_second(family):
    text, line, _ = _one_line_left_out(family)
    card, _ = token_at(text, line, 2)
    text, column = replace_token(text, line, 3, card)
    problem = family.only_problem(text)
    assert_at(problem, line, column, code="card-twice", rule=family.deal_rule)
    assert problem.message == f"{card} is dealt twice to Ann"


@pytest.mark.parametrize("change", [-1, 1], ids=["short", "long"])
@each_family
def test_a_deal_line_of_the_wrong_size_is_an_error_at_deal(family, change):
    text, line, bob = _one_line_left_out(family)
    cards = lines_of(text)[line - 1].split()[2:]
    size = len(cards)
    cards = cards[:-1] if change < 0 else [*cards, bob[0]]  # Bob's card: dealt to no other line written
    text = edit_line(text, line, "deal Ann " + " ".join(cards))
    problem = family.only_problem(text)
    assert_at(problem, line, 1, code="invalid-deal", rule=family.deal_rule)
    assert problem.message == f"Ann is dealt {size + change} cards, not {size}"
    assert problem.length == len("deal")


@each_family
def test_a_second_deal_line_for_a_player_is_an_error_at_deal(family):
    text, line, _ = _one_line_left_out(family)
    text = insert_line(text, line + 1, lines_of(text)[line - 1])
    problem = family.only_problem(text)
    assert_at(problem, line + 1, 1, code="duplicate-deal", rule=family.deal_rule)
    assert problem.message == "a second deal line for Ann in hand 1"


@pytest.mark.parametrize(("family", "bad"), [(f, bad) for f in FAMILIES for bad in f.not_in_pack],
                         ids=lambda p: p.rules if isinstance(p, Family) else p)
def test_a_card_of_no_pack_in_a_deal_line_is_an_error_at_the_token(family, bad):
    text, line, _ = _one_line_left_out(family)
    text, column = replace_token(text, line, 4, bad)
    problem = family.only_problem(text)
    assert_at(problem, line, column, code="card-not-in-deck", rule=family.deal_rule)
    assert "not in the pack" in problem.message
    meant = family.not_in_pack[bad]
    assert problem.message.endswith(f"did you mean {meant}?") if meant else "did you mean" not in problem.message


# --------------------------------------------------------------------------- cards of no pack


@with_and_without_deals
@pytest.mark.parametrize(("family", "bad"), [(f, bad) for f in FAMILIES for bad in f.not_in_pack],
                         ids=lambda p: p.rules if isinstance(p, Family) else p)
def test_a_card_of_no_pack_in_a_trick_is_an_error_at_the_token(family, bad, deals):
    text = family.text(deals=deals)
    line = line_no(text, "4. ", hand=2)
    text, column = replace_token(text, line, 2, bad)
    problem = family.only_problem(text)
    assert_at(problem, line, column, code="card-not-in-deck", rule=family.deal_rule)
    assert problem.length == len(bad)
    if bad == "Jo":  # another game's word: refused as the game's words are read, before any seat plays it
        assert problem.message.startswith(f"{bad} is not in the pack")
    else:
        assert f"cannot play {bad}: it is not in the pack" in problem.message
    meant = family.not_in_pack[bad]
    assert problem.message.endswith(f"did you mean {meant}?") if meant else "did you mean" not in problem.message


# --------------------------------------------------------------------------- tricks


@with_and_without_deals
@each_family
def test_a_card_more_than_the_players_is_an_error_at_it(family, deals):
    text = family.text(deals=deals)
    line = line_no(text, "6. ", hand=2)
    next_line = line_no(text, "7. ", hand=2)
    moved, _ = token_at(text, next_line, 1)
    row = lines_of(text)[line - 1]
    text = edit_line(text, line, f"{row} {moved}")
    rest = lines_of(text)[next_line - 1].split()
    text = edit_line(text, next_line, " ".join(rest[:1] + rest[2:]))
    problem = family.only_problem(text)
    assert_at(problem, line, len(row) + 2, code="trick-too-long", rule=family.trick_rule)


@with_and_without_deals
@each_family
def test_a_trick_of_a_card_too_few_is_an_error_at_its_number(family, deals):
    text = family.text(deals=deals)
    line = line_no(text, "6. ", hand=2)
    text = edit_line(text, line, " ".join(lines_of(text)[line - 1].split()[:-1]))
    problem = family.only_problem(text)
    assert_at(problem, line, 1, code="trick-too-short", rule=family.trick_rule)
    count = len(family.players)
    assert problem.message == f"trick 6 has {count - 1} cards; it needs {count}, one from each player"


@with_and_without_deals
@each_family
def test_a_missing_trick_in_the_middle_is_an_error_at_the_next_trick(family, deals):
    text = family.text(deals=deals)
    line = line_no(text, "6. ", hand=2)
    text = drop_line(text, line)
    problem = family.only_problem(text)
    assert_at(problem, line, 1, code="trick-number")
    assert problem.message == "trick 6 is missing: expected trick 6., found 7."


@with_and_without_deals
@each_family
def test_a_missing_last_trick_is_an_error_at_the_hands_header(family, deals):
    text = family.text(deals=deals)
    text = drop_line(text, line_no(text, f"{family.tricks}. ", hand=2))
    problem = family.only_problem(text)
    assert_at(problem, line_no(text, "R2 "), 1, code="round-too-short", rule=family.trick_rule)
    assert problem.message == f"hand 2 has {family.tricks - 1} tricks; it needs {family.tricks}"


@with_and_without_deals
@each_family
def test_a_trick_after_the_last_is_an_error_at_its_number(family, deals):
    text = family.text(deals=deals)
    line = line_no(text, f"{family.tricks}. ", hand=2) + 1
    text = insert_line(text, line, family.extra_trick)
    problem = family.only_problem(text)
    assert_at(problem, line, 1, code="too-many-tricks", rule=family.trick_rule)


# --------------------------------------------------------------------------- unfinished games and the Result


@with_and_without_deals
@pytest.mark.parametrize(("family", "keep"), [(f, keep) for f in FAMILIES for keep in f.unfinished_keeps],
                         ids=lambda p: p.rules if isinstance(p, Family) else str(p))
def test_an_unfinished_last_hand_is_valid_as_far_as_it_goes(family, keep, deals):
    text = family.text(deals=deals)
    text = cut_after(text, line_no(text, family.unfinished_at, hand=3), keep)
    record = parse_game(text)
    replayed = replay_record(record)
    assert replayed.valid, replayed.problems
    assert not replayed.complete
    assert replayed.notes == ([] if deals else [family.unfinished_note])
    assert replayed.game.state.hand_no == 3
    if not deals:
        assert replayed.game.state.phase.value == "deal"
    assert validate_record(record).valid


@each_family
def test_an_unfinished_game_after_a_whole_hand_is_valid(family):
    text = family.text()
    text = cut_after(text, line_no(text, "R3 ") - 1)
    replayed = replay_record(parse_game(text))
    assert replayed.valid and not replayed.complete and not replayed.notes


def lacking_deal_lines(family: Family) -> str:
    """The game cut at `lacking_at` in hand 3, without Ann's and Cat's deal lines of that hand."""
    text = without_lines(family.text(), "deal Ann", "deal Cat", hand=3)
    return cut_after(text, line_no(text, family.lacking_at, hand=3))


@each_family
def test_an_unfinished_hand_names_the_deal_lines_it_lacks(family):
    replayed = replay_record(parse_game(lacking_deal_lines(family)))
    assert replayed.valid and not replayed.complete
    assert replayed.notes == [family.lacking_note]


@each_family
def test_a_complete_game_may_leave_its_result_unwritten(family):
    replayed = replay_record(parse_game(unfinished(family.text())))
    assert replayed.valid and replayed.complete


@each_family
def test_a_result_with_scores_on_an_unfinished_game_is_an_error(family):
    text = family.text()
    full = parse_game(text).tag("Result")
    assert full is not None
    text = cut_after(text, line_no(text, "8. ", hand=3)).replace('[Result "*"]', f'[Result "{full.value}"]')
    problem = family.only_problem(text)
    assert problem.code == "result-unfinished" and problem.rule == family.end_rule
    assert problem.line == line_no(text, "[Result", hand=0)
    assert problem.message.startswith(family.unfinished_message)


@each_family
def test_a_wrong_result_is_an_error_at_the_score(family):
    text = family.text()
    line = line_no(text, "[Result", hand=0)
    row = lines_of(text)[line - 1]
    match = re.search(r"Bob (-?\d+)", row)
    assert match is not None
    score = int(match.group(1))
    text = edit_line(text, line, row[: match.start(1)] + str(score + 1) + row[match.end(1):])
    problem = family.only_problem(text)
    assert_at(problem, line, match.start(1) + 1, code="wrong-result", rule=family.result_rule)
    assert problem.message == f"the replay scores Bob {score}, not {score + 1}"
