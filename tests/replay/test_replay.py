"""replay: records replayed through the engine, problems at the token that breaks a ruling, and round trips.

Games come from the seeded simulator (`diamonds_core.simulate`), are written
as records (`replay.record_from_game`), and then changed the way a scorer
gets things wrong. Expected positions are read from the changed text itself,
never typed in.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import SETUPS, allowed_variant_sets, setup_id  # noqa: F401  (shared list of set-ups)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diamonds.core import Suit, simulate
from diamonds.families.fitzgerald.rules import (
    CardPlayed,
    CardsDealt,
    ChooseVictim,
    Phase,
    PlayCard,
    Reason,
    SuitAction,
    results,
)
from diamonds.notation import Choice, EndLine, GameRecord, Play, Pos, Tag, parse_game, parse_games
from diamonds.notation.tags import parse_result
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game, replay_record

NAMES = ("Ann", "bob_2", "Cat-Li", "Dan", "eve9", "Fay")


# --------------------------------------------------------------------------- helpers


def simulated(players: int, rules: str, variants: tuple[str, ...] = (), seed: int = 0, dealer: int | None = None):  # type: ignore[no-untyped-def]
    game = simulate(NAMES[:players], rules=rules, variants=variants, seed=seed, dealer=dealer)
    return game, record_from_game(game, tags=[("Event", "test")])


def reread(record: GameRecord) -> GameRecord:
    """The record as read from its canonical text: with positions."""
    back = parse_game(write_game(record))
    assert back.readable, back.problems
    return back


def only_problem(record: GameRecord):  # type: ignore[no-untyped-def]
    replayed = replay_record(record)
    assert len(replayed.problems) == 1, replayed.problems
    return replayed.problems[0]


def plays_in_order(record: GameRecord) -> list[tuple[int, int, int]]:
    return [(r, t, p) for r, rnd in enumerate(record.rounds) for t, trick in enumerate(rnd.tricks)
            for p in range(len(trick.plays))]


def play_facts(game, record: GameRecord) -> list[tuple[tuple[int, int, int], int, list]]:  # type: ignore[no-untyped-def]
    """For each play of the record: where it is, who played it, and the events it caused (victim choices too)."""
    where = plays_in_order(record)
    facts: list[tuple[tuple[int, int, int], int, list]] = []
    for move, events in zip(game.moves, game.events):
        if isinstance(move, PlayCard):
            seat = next(e.seat for e in events if isinstance(e, CardPlayed))
            facts.append((where[len(facts)], seat, list(events)))
        elif isinstance(move, ChooseVictim) and facts:
            facts[-1][2].extend(events)
    return facts


def play_at(record: GameRecord, r: int, t: int, p: int) -> Play:
    return record.rounds[r].tricks[t].plays[p]


def with_play(record: GameRecord, r: int, t: int, p: int, play: Play) -> GameRecord:
    rounds = list(record.rounds)
    tricks = list(rounds[r].tricks)
    plays = list(tricks[t].plays)
    plays[p] = play
    tricks[t] = replace(tricks[t], plays=tuple(plays))
    rounds[r] = replace(rounds[r], tricks=tuple(tricks))
    return replace(record, rounds=tuple(rounds))


def with_round(record: GameRecord, r: int, **changes) -> GameRecord:  # type: ignore[no-untyped-def]
    return replace(record, rounds=record.rounds[:r] + (replace(record.rounds[r], **changes),) + record.rounds[r + 1:])


def with_tag(record: GameRecord, name: str, value: str | None) -> GameRecord:
    tags = [t for t in record.tags if t.name != name]
    if value is not None:
        index = next((i for i, t in enumerate(record.tags) if t.name == name), len(tags))
        tags.insert(index, Tag(name, value))
    return replace(record, tags=tuple(tags))


def outcome(state):  # type: ignore[no-untyped-def]
    """What a game comes to (pass lines are written sorted, so the order of a pass is not compared)."""
    return (state.phase, state.round_no, state.showroom, state.vault, state.supply, state.thief, state.hands)


def scores(replayed) -> dict[str, int]:  # type: ignore[no-untyped-def]
    config = replayed.game.config
    return {config.side_name(r.side): r.score for r in results(replayed.game.state)}


# --------------------------------------------------------------------------- valid games


def test_a_simulated_game_replays_valid_and_complete_with_its_result_confirmed():
    game, record = simulated(3, "2e", seed=11)
    replayed = replay_record(reread(record))
    assert replayed.valid and replayed.complete
    assert replayed.problems == [] and replayed.notes == []
    entries = parse_result(record.tag_value("Result"))
    assert {"+".join(e.side): e.score for e in entries} == scores(replayed)
    assert outcome(replayed.game.state) == outcome(game.state)


def test_every_move_has_the_item_it_came_from():
    game, record = simulated(3, "1e", seed=4)
    replayed = replay_record(record)
    assert len(replayed.origins) == len(replayed.game.moves) == len(game.moves)
    plays = [play for rnd in record.rounds for trick in rnd.tricks for play in trick.plays]
    from_plays = [o for o, m in zip(replayed.origins, replayed.game.moves) if isinstance(m, PlayCard)]
    assert all(a is b for a, b in zip(from_plays, plays))


@pytest.mark.parametrize(("players", "rules", "variants"), [
    (3, "2e", ()), (2, "1e", ("perfect",)), (6, "bga", ("partnership",)), (5, "1e", ()),
])
def test_left_out_deal_lines_are_inferred_from_the_passes_and_the_plays(players, rules, variants):
    game, _ = simulated(players, rules, variants, seed=7)
    record = record_from_game(game, deals=False)
    assert not any(rnd.lines("deal") for rnd in record.rounds)
    replayed = replay_record(reread(record))
    assert replayed.valid and replayed.complete
    dealt = [e.hands for events in game.events for e in events if isinstance(e, CardsDealt)]
    inferred = [e.hands for events in replayed.game.events for e in events if isinstance(e, CardsDealt)]
    assert inferred == dealt
    assert outcome(replayed.game.state) == outcome(game.state)


def test_an_unnamed_victim_is_fine_where_only_one_side_can_be_robbed():
    game, record = simulated(2, "1e", seed=3)  # two players: the opponent is the only candidate (R14)
    plain = GameRecord(record.tags, tuple(
        replace(rnd, tricks=tuple(replace(t, plays=tuple(replace(p, choice=None) for p in t.plays)) for t in rnd.tricks),
                end=None)
        for rnd in record.rounds))
    assert plain != record  # there were choices to leave out
    replayed = replay_record(reread(plain))
    assert replayed.valid and replayed.complete
    assert replayed.game.state.showroom == game.state.showroom


def test_player_ids_in_items_match_ignoring_case():
    game, record = simulated(3, "1e", seed=5)
    text = write_game(record)
    shouted = re.sub(r"(dealer |deal |pass |>)(Ann|bob_2|Cat-Li)\b", lambda m: m.group(1) + m.group(2).swapcase(), text)
    assert shouted != text
    replayed = replay_record(parse_game(shouted))
    assert replayed.valid and replayed.complete


def test_result_entries_and_team_members_may_come_in_any_order():
    game, record = simulated(4, "2e", ("partnership",), seed=9)
    (a, a_score), (b, b_score) = [(e.side, e.score) for e in parse_result(record.tag_value("Result"))]
    shuffled = f"{'+'.join(reversed(b))} {b_score}, {'+'.join(reversed(a))} {a_score}"
    replayed = replay_record(reread(with_tag(record, "Result", shuffled)))
    assert replayed.valid and replayed.complete


def test_a_game_without_result_or_dealer_tags_is_checked_with_the_defaults():
    game, record = simulated(3, "2e", seed=2, dealer=0)
    bare = with_tag(with_tag(record, "Result", None), "Dealer", None)
    replayed = replay_record(reread(bare))
    assert replayed.valid and replayed.complete


# --------------------------------------------------------------------------- unfinished games


def cut(record: GameRecord, rounds: int, tricks: int, plays: int | None = None) -> GameRecord:
    """The first `rounds` rounds, the last of them cut after `tricks` tricks (and `plays` cards of the next)."""
    kept = list(record.rounds[:rounds])
    last = kept[-1]
    trick_list = list(last.tricks[:tricks])
    if plays is not None:
        trick_list.append(replace(last.tricks[tricks], plays=last.tricks[tricks].plays[:plays]))
    kept[-1] = replace(last, tricks=tuple(trick_list), end=None)
    return replace(record, rounds=tuple(kept))


@pytest.mark.parametrize("plays", [None, 1, 2])
def test_an_unfinished_game_is_valid_as_far_as_it_goes(plays):
    game, record = simulated(3, "1e", seed=8)
    partial = with_tag(cut(record, 2, 4, plays), "Result", "*")
    replayed = replay_record(reread(partial))
    assert replayed.valid and not replayed.complete
    played = sum(isinstance(m, PlayCard) for m in replayed.game.moves)
    assert played == sum(len(t.plays) for rnd in partial.rounds for t in rnd.tricks)
    assert replayed.game.state.round_no == 2


def test_an_unfinished_round_without_deal_lines_stops_at_its_start_with_a_note():
    game, _ = simulated(3, "2e", seed=8)
    record = record_from_game(game, deals=False)
    partial = with_tag(cut(record, 2, 4), "Result", "*")
    replayed = replay_record(reread(partial))
    assert replayed.valid and not replayed.complete
    assert len(replayed.notes) == 1 and "round 2 is unfinished" in replayed.notes[0]
    assert replayed.game.state.round_no == 2 and replayed.game.state.phase is Phase.DEAL  # round 1 is replayed


def test_an_unfinished_round_without_deal_lines_followed_by_another_round_is_too_short():
    """R11: a round that stops short is an error when another round follows, with or without its
    hands; without them the replay cannot go past it, so the rounds after it would go unchecked."""
    game, _ = simulated(3, "2e", seed=8)
    record = record_from_game(game, deals=False)
    short = cut(record, 2, 4).rounds[1]
    gapped = with_tag(replace(record, rounds=(record.rounds[0], short, *record.rounds[2:])), "Result", "*")
    replayed = replay_record(reread(gapped))
    assert [(p.code, p.rule) for p in replayed.problems] == [("round-too-short", "R11")]
    header = reread(gapped).rounds[1].header.pos
    assert (replayed.problems[0].line, replayed.problems[0].column) == (header.line, header.column)
    assert "round 2 has 4 tricks; it needs 10" in replayed.problems[0].message


@pytest.mark.parametrize(("deals", "rounds", "tricks"), [(True, 2, 10), (True, 2, 4), (False, 3, 3)])
def test_scores_in_the_result_of_an_unfinished_game_are_an_error_at_the_result(deals, rounds, tricks):
    game, _ = simulated(3, "2e", seed=8)
    record = record_from_game(game, deals=deals)
    partial = reread(cut(record, rounds, tricks))
    problem = only_problem(partial)
    assert (problem.code, problem.rule) == ("result-unfinished", "R4")
    tag = partial.tag("Result")
    assert problem.pos == Pos(tag.value_pos.line, tag.value_pos.column + 1)
    assert '"*"' in problem.message


# --------------------------------------------------------------------------- rule breaking, at the token


def find_revoke(game, record):  # type: ignore[no-untyped-def]
    """A player who followed suit with X in one trick and played Y of another suit later in the round."""
    facts = play_facts(game, record)
    for (r, t, p), seat, _ in facts:
        x = play_at(record, r, t, p)
        led = play_at(record, r, t, 0).card.suit
        if p == 0 or x.card.suit is not led:
            continue
        for (r2, t2, p2), seat2, _ in facts:
            if r2 == r and t2 > t and seat2 == seat and play_at(record, r2, t2, p2).card.suit is not led:
                return (r, t, p), (r2, t2, p2), seat
    raise AssertionError("no revoke to make in this game")


def test_a_revoke_is_reported_at_the_card_with_R8():
    game, record = simulated(3, "2e", seed=21)
    (r, t, p), (r2, t2, p2), seat = find_revoke(game, record)
    x, y = play_at(record, r, t, p), play_at(record, r2, t2, p2)
    swapped = reread(with_play(with_play(record, r, t, p, y), r2, t2, p2, x))
    problem = only_problem(swapped)
    assert (problem.code, problem.rule) == ("must-follow-suit", "R8")
    assert problem.pos == play_at(swapped, r, t, p).pos
    assert problem.message.startswith(f"{NAMES[seat]} must follow {x.card.suit.title}")
    assert str(x.card) in problem.message


def test_a_card_written_twice_in_a_round_is_reported_at_the_second_with_the_first_trick():
    game, record = simulated(3, "2e", seed=21)
    facts = play_facts(game, record)
    (r, t, p), seat, _ = facts[3]
    (r2, t2, p2) = next(w for w, s, _ in facts[4:] if s == seat and w[0] == r)
    twice = reread(with_play(record, r2, t2, p2, play_at(record, r, t, p)))
    problem = only_problem(twice)
    assert (problem.code, problem.rule) == ("card-not-held", "R8")
    assert problem.pos == play_at(twice, r2, t2, p2).pos
    assert f"already played in trick {t + 1}" in problem.message


def test_a_card_written_twice_without_deal_lines_is_reported_at_the_second():
    game, _ = simulated(3, "2e", seed=21)
    record = record_from_game(game, deals=False)
    r, t = 0, 5
    first = play_at(record, r, 1, 0)
    twice = reread(with_play(record, r, t, 2, first))
    problem = only_problem(twice)
    assert problem.pos == play_at(twice, r, t, 2).pos
    assert "already played in trick 2" in problem.message


@pytest.mark.parametrize("deals", [True, False])
def test_a_pass_line_with_the_wrong_number_of_cards_is_reported_at_the_line_with_R6(deals):
    game, _ = simulated(4, "1e", seed=6)
    record = record_from_game(game, deals=deals)
    r = next(i for i, rnd in enumerate(record.rounds) if rnd.header.pass_count >= 2)
    rnd = record.rounds[r]
    line_index = next(i for i, line in enumerate(rnd.hand_lines) if line.kind == "pass")
    line = rnd.hand_lines[line_index]
    lines = list(rnd.hand_lines)
    lines[line_index] = replace(line, cards=line.cards[:-1])
    short = reread(replace(record, rounds=record.rounds[:r] + (replace(rnd, hand_lines=tuple(lines)),)
                           + record.rounds[r + 1:]))
    problem = only_problem(short)
    assert (problem.code, problem.rule) == ("wrong-pass-count", "R6")
    assert problem.pos == short.rounds[r].hand_lines[line_index].pos
    assert f"passes {len(line.cards) - 1} card" in problem.message


def test_a_pass_count_outside_1_to_3_is_reported_at_the_count():
    game, record = simulated(3, "2e", seed=1)
    header = record.rounds[0].header
    bad = reread(replace(record, rounds=(replace(record.rounds[0], header=replace(header, pass_count=4)),)
                         + record.rounds[1:]))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("wrong-pass-count", "R6")
    assert problem.pos == bad.rounds[0].header.count_pos


def test_a_wrong_score_is_reported_at_that_score_in_the_result_tag_with_R18():
    game, record = simulated(3, "2e", seed=12)
    entries = parse_result(record.tag_value("Result"))
    name, score = entries[1].side[0], entries[1].score
    value = record.tag_value("Result").replace(f"{name} {score}", f"{name} {score + 2}")
    text = write_game(with_tag(record, "Result", value))
    wrong = parse_game(text)
    problem = only_problem(wrong)
    assert (problem.code, problem.rule) == ("wrong-result", "R18")
    line_text = text.splitlines()[problem.line - 1]
    assert line_text.startswith("[Result ")
    assert line_text[problem.column - 1:].startswith(f"{score + 2}")
    assert line_text[problem.column - 2 - len(name):problem.column - 2] == name
    assert problem.message == f"the replay scores {name} {score}, not {score + 2}"


@pytest.mark.parametrize(("value", "code", "rule"), [
    ("Ann 1, bob_2 2", "bad-result", None),  # Cat-Li left out
    ("Ann 1, bob_2 2, Cat-Li 3, Zed 4", "unknown-player", "R1"),
    ("Ann 1, Ann 2, Cat-Li 3", "bad-result", None),
    ("Ann+bob_2 1, Cat-Li 3", "bad-result", "R2"),
    ("Ann won", "bad-result", None),
])
def test_a_result_that_does_not_name_the_sides_is_an_error_at_the_result(value, code, rule):
    game, record = simulated(3, "2e", seed=12)
    bad = reread(with_tag(record, "Result", value))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == (code, rule)
    assert problem.line == bad.tag("Result").value_pos.line


def test_a_round_1_header_that_disagrees_with_the_dealer_tag_is_reported_at_the_header():
    game, record = simulated(3, "2e", seed=3)
    dealer = record.rounds[0].header.dealer
    other = next(n for n in NAMES[:3] if n != dealer)
    bad = reread(with_tag(record, "Dealer", other))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("wrong-dealer", "R4")
    assert problem.pos == bad.rounds[0].header.dealer_pos
    assert problem.message == f"round 1 is dealt by {other}, not {dealer} (as the Dealer tag says)"
    same_but_case = replay_record(reread(with_tag(record, "Dealer", dealer.swapcase())))
    assert same_but_case.valid


def test_without_a_dealer_tag_the_first_player_deals_round_1():
    game, record = simulated(3, "2e", seed=3, dealer=1)
    problem = only_problem(reread(with_tag(record, "Dealer", None)))
    assert (problem.code, problem.rule) == ("wrong-dealer", "R4")
    assert "with no Dealer tag, the first player deals" in problem.message


def test_a_dealer_tag_naming_nobody_at_the_table_is_reported_at_the_tag():
    game, record = simulated(3, "2e", seed=3)
    bad = reread(with_tag(record, "Dealer", "Zed"))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("unknown-player", "R1")
    assert problem.line == bad.tag("Dealer").value_pos.line


def test_a_later_round_dealt_by_the_wrong_player_is_reported_at_its_header():
    game, record = simulated(3, "2e", seed=3)
    rnd = record.rounds[2]
    wrong = record.rounds[1].header.dealer  # the dealer of the round before, again
    bad = reread(replace(record, rounds=record.rounds[:2] + (replace(rnd, header=replace(rnd.header, dealer=wrong)),)
                         + record.rounds[3:]))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("wrong-dealer", "R4")
    assert problem.pos == bad.rounds[2].header.dealer_pos
    assert "the deal moves one seat left each round" in problem.message


def required_choice(game, record):  # type: ignore[no-untyped-def]
    """(r, t, p) of a play whose victim the record must name (R14), with the reason of its Clubs action."""
    replayed = replay_record(record)
    for ply, (move, origin) in enumerate(zip(replayed.game.moves, replayed.origins)):
        pending = replayed.game.state_at(ply).pending
        if isinstance(move, ChooseVictim) and isinstance(origin, Choice) and pending.required \
                and pending.reason is not Reason.SUIT_MAJORITY:
            for r, t, p in plays_in_order(record):
                if play_at(record, r, t, p).choice is origin:
                    return (r, t, p), pending.reason
    raise AssertionError("no required victim in this game")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_missing_victim_under_1e_is_reported_at_the_card_with_R14(seed):
    game, record = simulated(3, "1e", seed=seed)
    (r, t, p), reason = required_choice(game, record)
    play = play_at(record, r, t, p)
    bad = reread(with_play(record, r, t, p, replace(play, choice=None)))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("victim-required", "R14")
    assert problem.pos == play_at(bad, r, t, p).pos
    assert "must name whose Showroom" in problem.message


def test_a_missing_end_of_round_victim_is_reported_at_the_end_of_the_round():
    game, record = simulated(3, "1e", seed=1)
    r = next(i for i, rnd in enumerate(record.rounds) if rnd.end is not None)
    bad = reread(replace(record, rounds=record.rounds[:r] + (replace(record.rounds[r], end=None),)
                         + record.rounds[r + 1:]))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("victim-required", "R14")
    assert problem.pos == bad.rounds[r].tricks[-1].plays[-1].pos


def off_suit_club(game, record):  # type: ignore[no-untyped-def]
    for where, seat, events in play_facts(game, record):
        if any(isinstance(e, SuitAction) and e.suit is Suit.CLUBS and e.reason is Reason.OFF_SUIT for e in events):
            return where, seat
    raise AssertionError("no off-suit Club in this game")


@pytest.mark.parametrize("rules", ["2e", "bga"])
def test_a_victim_named_under_the_thief_is_an_error_at_the_choice_with_R13(rules):
    game, record = simulated(4, rules, seed=5)
    (r, t, p), seat = off_suit_club(game, record)
    victim = NAMES[(seat + 1) % 4]
    play = play_at(record, r, t, p)
    bad = reread(with_play(record, r, t, p, replace(play, choice=Choice(victim))))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("choice-not-allowed", "R13")
    assert problem.pos == play_at(bad, r, t, p).choice.pos
    assert problem.length == len(victim) + 1
    assert f"under {rules} the Thief decides" in problem.message


def test_an_end_of_round_victim_under_the_thief_is_an_error_at_it():
    game, record = simulated(3, "2e", seed=5)
    bad = reread(with_round(record, 0, end=EndLine((Choice("Ann"),))))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("choice-not-allowed", "R13")
    assert problem.pos == bad.rounds[0].end.choices[0].pos


def test_a_victim_on_a_card_that_earns_no_clubs_action_is_an_error_at_the_choice():
    game, record = simulated(3, "1e", seed=5)
    r, t = next((r, t) for r, t, p in plays_in_order(record)
                if p == 0 and play_at(record, r, t, 0).card.suit is not Suit.CLUBS)
    lead = play_at(record, r, t, 0)
    bad = reread(with_play(record, r, t, 0, replace(lead, choice=Choice("Ann"))))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("choice-not-allowed", "R14")
    assert problem.pos == play_at(bad, r, t, 0).choice.pos
    assert problem.message == f"{lead.card} earns no Clubs action, so it names no victim"


def test_a_victim_on_a_club_that_follows_a_clubs_lead_and_loses_is_an_error():
    game, record = simulated(3, "1e", seed=5)
    facts = play_facts(game, record)
    for (r, t, p), seat, _events in facts:  # noqa: B007  (seat: the loop's last, used below)
        trick = record.rounds[r].tricks[t]
        if trick.plays[0].card.suit is not Suit.CLUBS or trick.plays[p].card.suit is not Suit.CLUBS:
            continue
        winner = max((q for q in trick.plays if q.card.suit is Suit.CLUBS), key=lambda q: q.card.rank)
        if trick.plays[p] is not winner:
            break
    else:
        raise AssertionError("no losing Club on a Clubs lead")
    other = NAMES[(seat + 1) % 3]
    bad = reread(with_play(record, r, t, p, replace(trick.plays[p], choice=Choice(other))))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("choice-not-allowed", "R14")
    assert problem.pos == play_at(bad, r, t, p).choice.pos
    assert "does not win this Clubs trick" in problem.message


def test_a_victim_in_a_pass_line_is_an_error_at_it():
    game, record = simulated(3, "1e", seed=5)
    rnd = record.rounds[0]
    i = next(i for i, line in enumerate(rnd.hand_lines) if line.kind == "pass")
    line = rnd.hand_lines[i]
    lines = list(rnd.hand_lines)
    lines[i] = replace(line, cards=(replace(line.cards[0], choice=Choice("Ann")),) + line.cards[1:])
    bad = reread(replace(record, rounds=(replace(rnd, hand_lines=tuple(lines)),) + record.rounds[1:]))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("choice-not-allowed", "R14")
    assert problem.pos == bad.rounds[0].hand_lines[i].cards[0].choice.pos


@pytest.mark.parametrize(("players", "variants"), [(3, ()), (4, ("partnership",))])
def test_naming_oneself_or_ones_partner_is_an_error_at_the_choice_with_R14(players, variants):
    game, record = simulated(players, "1e", variants, seed=2)
    config = game.config
    (r, t, p), seat = off_suit_club(game, record)
    own = NAMES[config.sides[config.side_of[seat]][-1]]  # oneself, or one's partner
    play = play_at(record, r, t, p)
    bad = reread(with_play(record, r, t, p, replace(play, choice=Choice(own))))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("victim-not-allowed", "R14")
    assert problem.pos == play_at(bad, r, t, p).choice.pos
    assert problem.message.startswith(f"{NAMES[seat]} cannot take from")


def test_an_unknown_victim_is_an_error_at_the_choice():
    game, record = simulated(3, "1e", seed=2)
    (r, t, p), _ = off_suit_club(game, record)
    bad = reread(with_play(record, r, t, p, replace(play_at(record, r, t, p), choice=Choice("Zed"))))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("unknown-player", "R1")
    assert problem.pos == play_at(bad, r, t, p).choice.pos


def test_a_misspelt_player_in_a_pass_line_is_an_error_at_the_id():
    game, record = simulated(3, "2e", seed=2)
    rnd = record.rounds[1]
    i = next(i for i, line in enumerate(rnd.hand_lines) if line.kind == "pass")
    lines = list(rnd.hand_lines)
    lines[i] = replace(lines[i], player=lines[i].player + "x")
    bad = reread(replace(record, rounds=record.rounds[:1] + (replace(rnd, hand_lines=tuple(lines)),)
                         + record.rounds[2:]))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("unknown-player", "R1")
    assert problem.pos == bad.rounds[1].hand_lines[i].player_pos
    assert problem.length == len(lines[i].player)


def test_wrong_deal_lines_are_caught():
    game, record = simulated(3, "2e", seed=2)
    rnd = record.rounds[0]
    deals = [i for i, line in enumerate(rnd.hand_lines) if line.kind == "deal"]
    a, b = (rnd.hand_lines[i] for i in deals[:2])
    lines = list(rnd.hand_lines)
    lines[deals[0]] = replace(a, cards=(b.cards[0],) + a.cards[1:])
    lines[deals[1]] = replace(b, cards=(a.cards[0],) + b.cards[1:])
    bad = reread(replace(record, rounds=(replace(rnd, hand_lines=tuple(lines)),) + record.rounds[1:]))
    problem = only_problem(bad)
    assert bad.rounds[0].header.pos.line < problem.line < bad.rounds[1].header.pos.line


def test_a_card_dealt_twice_is_reported_at_its_second_appearance():
    game, record = simulated(3, "2e", seed=2)
    rnd = record.rounds[0]
    a, b = rnd.hand_lines[0], rnd.hand_lines[1]
    lines = list(rnd.hand_lines)
    lines[1] = replace(b, cards=(a.cards[3],) + b.cards[1:])
    bad = reread(replace(record, rounds=(replace(rnd, hand_lines=tuple(lines)),) + record.rounds[1:]))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("invalid-deal", "R5")
    assert problem.pos == bad.rounds[0].hand_lines[1].cards[0].pos
    assert problem.message.startswith(f"{a.cards[3].card} is dealt twice")


def test_a_missing_trick_is_reported_at_the_trick_number_that_follows():
    game, record = simulated(3, "2e", seed=2)
    tricks = record.rounds[1].tricks
    bad = reread(with_round(record, 1, tricks=tricks[:5] + tricks[6:]))
    problem = only_problem(bad)
    assert problem.code == "trick-number"
    assert problem.pos == bad.rounds[1].tricks[5].pos
    assert problem.message == "trick 6 is missing: expected trick 6., found 7."


def test_a_round_without_its_last_trick_is_reported_at_its_header_with_R11():
    game, record = simulated(3, "2e", seed=2)
    bad = reread(with_round(record, 1, tricks=record.rounds[1].tricks[:-1], end=None))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("round-too-short", "R11")
    assert problem.pos == bad.rounds[1].header.pos
    # DGN.md allows the round's header, its last trick or the next header
    assert problem.pos in (bad.rounds[1].header.pos, bad.rounds[1].tricks[-1].pos, bad.rounds[2].header.pos)


@pytest.mark.parametrize("deal_lines", [True, False])
def test_an_end_line_in_an_unfinished_last_round_stands_too_early_with_or_without_hands(deal_lines: bool) -> None:
    """R11: `end` follows a round's last trick. Without deal lines the round is not replayed, and an `end`
    after its first trick was valid (the recorder wrote one, then refused every later item because of it)."""
    text = ('[Rules "1e"]\n[Players "Ann Bob Cat"]\n[Dealer "Bob"]\n\n'
            "R1 dealer Bob pass 1\n1. 13S\nend >Ann\n")
    if deal_lines:  # a simulated game cut after round 1's first trick, its deal and pass lines kept
        _, record = simulated(3, "1e", seed=4, dealer=1)
        lines = write_game(record).split("\n")
        first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
        text = "\n".join([line for line in lines[:first + 1] if not line.startswith("[Result")] + ["end >Ann", ""])
    problem = only_problem(parse_game(text))
    assert (problem.code, problem.rule) == ("early-end", "R11")


def test_a_trick_with_too_few_cards_is_reported_at_that_trick_with_R8():
    game, record = simulated(3, "2e", seed=2)
    tricks = list(record.rounds[1].tricks)
    tricks[3] = replace(tricks[3], plays=tricks[3].plays[:2])
    bad = reread(with_round(record, 1, tricks=tuple(tricks)))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("trick-too-short", "R8")
    assert problem.pos == bad.rounds[1].tricks[3].pos
    assert problem.message == "trick 4 has 2 cards; it needs 3, one from each player"


def test_a_trick_with_too_many_cards_is_reported_at_the_extra_card():
    game, record = simulated(3, "2e", seed=2)
    tricks = list(record.rounds[1].tricks)
    extra = tricks[4].plays[0]
    tricks[3] = replace(tricks[3], plays=tricks[3].plays + (extra,))
    bad = reread(with_round(record, 1, tricks=tuple(tricks)))
    problem = only_problem(bad)
    assert (problem.code, problem.rule) == ("trick-too-long", "R8")
    assert problem.pos == bad.rounds[1].tricks[3].plays[3].pos


def test_rounds_out_of_order_or_too_many_are_reported_at_the_header():
    game, record = simulated(2, "2e", seed=2)
    header = record.rounds[1].header
    renumbered = reread(with_round(record, 1, header=replace(header, number=3)))
    problem = only_problem(renumbered)
    assert problem.code == "round-number" and problem.pos == renumbered.rounds[1].header.pos
    last = record.rounds[-1]
    extra = replace(last, header=replace(last.header, number=last.header.number + 1))
    too_many = reread(replace(record, rounds=record.rounds + (extra,)))
    problem = only_problem(too_many)
    assert (problem.code, problem.rule) == ("too-many-rounds", "R4")
    assert problem.pos == too_many.rounds[-1].header.pos


@pytest.mark.parametrize(("tag", "value", "code"), [
    ("Players", "Ann Ann Cat", "bad-players"),
    ("Players", "Ann bob_2 Cat-Li Dan eve9 Fay Gus", "bad-players"),
    ("Players", "Ann 2bob Cat", "bad-player-id"),
    ("Rules", "3e", "unknown-rules"),
    ("Variant", "partnership", "bad-variant"),
    ("Variant", "speedy", "bad-variant"),
])
def test_set_up_tags_the_rules_refuse_are_errors_at_the_tag(tag, value, code):
    game, record = simulated(3, "2e", seed=2)
    bad = reread(with_tag(record, tag, value))
    problem = only_problem(bad)
    assert problem.code == code
    assert problem.line == bad.tag(tag).value_pos.line
    assert problem.column > bad.tag(tag).value_pos.column


def test_a_game_without_players_is_an_error_at_its_start():
    problem = only_problem(parse_game('[Event "x"]\n\nR1 dealer Ann pass 1\n'))
    assert problem.code == "missing-players" and problem.pos == Pos(1, 1)


def test_an_unreadable_game_replays_to_its_syntax_problem():
    (record,) = parse_games('[Players "Ann Bob"]\n\nR1 dealer Ann pass 1\n1. 16D\n')
    replayed = replay_record(record)
    assert [p.code for p in replayed.problems] == ["syntax"]
    assert replayed.game is None and not replayed.valid and not replayed.complete


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 3), edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3),
                                                         st.sampled_from(["1D", "15C", "7H>Ann", "2S!", "Ann", "R2",
                                                                          "3.", "pass", "end", ">bob_2"])),
                                               min_size=1, max_size=3))
def test_replay_never_raises_and_every_problem_points_into_the_text(seed, edits):
    game, record = simulated(3, ("1e", "2e", "bga", "1e")[seed], seed=seed)
    tokens = re.findall(r"\S+|\s+", write_game(record))
    for where, op, piece in edits:
        k = where % len(tokens)
        if op == 0:
            del tokens[k]
        elif op == 1:
            tokens[k] = piece
        elif op == 2:
            tokens.insert(k, f" {piece} ")
        else:
            j = (where // 7) % len(tokens)
            tokens[k], tokens[j] = tokens[j], tokens[k]
    text = "".join(tokens)
    lines = text.split("\n")
    for record in parse_games(text):
        replayed = replay_record(record)
        for problem in replayed.problems:
            assert 1 <= problem.line <= len(lines)
            assert 1 <= problem.column <= len(lines[problem.line - 1]) + 1


# --------------------------------------------------------------------------- round trips over every set-up


COMBOS = [pytest.param(rules, players, variants, id=setup_id(rules, players, variants))
          for rules, players, variants in SETUPS]

ROUND_TRIP = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(("rules", "players", "variants"), COMBOS)
@ROUND_TRIP
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 5))
def test_record_write_parse_is_the_record_and_replays_valid(rules, players, variants, seed, dealer):
    game = simulate(NAMES[:players], rules=rules, variants=variants, seed=seed, dealer=dealer % players)
    for deals in (True, False):
        record = record_from_game(game, tags=[("Event", "Club \"night\" \\ 1"), ("Date", "2026.11.20")], deals=deals)
        text = write_game(record)
        back = parse_game(text)
        assert back == record
        replayed = replay_record(back)
        assert replayed.valid, replayed.problems
        assert replayed.complete
        assert outcome(replayed.game.state) == outcome(game.state)
        result = {"+".join(e.side): e.score for e in parse_result(back.tag_value("Result"))}
        assert result == scores(replayed)


CARD = re.compile(r"(1[0-5]|[1-9])([DHSC])(?:>([^!?]+))?([!?]*)\Z")
SYMBOL = {"D": "♦", "H": "♥", "S": "♠", "C": "♣"}


def vary(text: str, rng: random.Random, players: tuple[str, ...], drop_deals: bool) -> tuple[str, int]:
    """The same game written another way: suits, id case, layout, comments. Returns the text and the comments added."""
    tags, _, movetext = text.partition("\n\n")
    if drop_deals:
        movetext = "\n".join(line for line in movetext.split("\n") if not line.startswith("deal "))
    out = [tags, "\n\n"]
    comments = 0
    for token in movetext.split():
        match = CARD.match(token)
        if match:
            rank, suit, victim, note = match.groups()
            suit = rng.choice([suit, suit.lower(), SYMBOL[suit]])
            if victim and rng.random() < 0.5:
                victim = victim.swapcase()
            token = f"{rank}{suit}{'>' + victim if victim else ''}{note}"
        elif token in players and rng.random() < 0.5:
            token = token.swapcase()
        elif token.startswith(">") and rng.random() < 0.5:
            token = ">" + token[1:].swapcase()
        out.append(token)
        gap = rng.random()
        if gap < 0.08:
            comments += 1
            out.append(f" {{note {comments}:\n[Event \"x\"] ; }}\n" if gap < 0.02 else f" {{note {comments}}} ")
        elif gap < 0.12:
            comments += 1
            out.append(f" ; note {comments} {{\n")
        else:
            out.append(rng.choice([" ", " ", "  ", "\t", "\n", "\n\n   ", " \r\n"]))
    return "".join(out), comments


def without_comments(record: GameRecord) -> GameRecord:
    def plays(items):  # type: ignore[no-untyped-def]
        return tuple(replace(p, comments=()) for p in items)

    rounds = tuple(
        replace(
            rnd,
            header=replace(rnd.header, comments=()),
            hand_lines=tuple(replace(h, comments=(), cards=plays(h.cards)) for h in rnd.hand_lines),
            tricks=tuple(replace(t, comments=(), plays=plays(t.plays)) for t in rnd.tricks),
            end=replace(rnd.end, comments=()) if rnd.end is not None else None,
        )
        for rnd in record.rounds
    )
    return replace(record, rounds=rounds, comments=())


def comments_in_order(record: GameRecord) -> list[tuple[str, str]]:
    """Every comment with the item it belongs to, in reading order."""
    found = [("game", c.text) for c in record.comments]
    for r, rnd in enumerate(record.rounds):
        found += [(f"R{r}", c.text) for c in rnd.header.comments]
        for h, line in enumerate(rnd.hand_lines):
            found += [(f"R{r} line {h}", c.text) for c in line.comments]
        for t, trick in enumerate(rnd.tricks):
            found += [(f"R{r} trick {t}", c.text) for c in trick.comments]
            for p, play in enumerate(trick.plays):
                found += [(f"R{r} trick {t} play {p}", c.text) for c in play.comments]
        if rnd.end is not None:
            found += [(f"R{r} end", c.text) for c in rnd.end.comments]
    return found


def count_comments(record: GameRecord) -> int:
    return len(comments_in_order(record))


@pytest.mark.parametrize(("rules", "players", "variants"), COMBOS)
@ROUND_TRIP
@given(seed=st.integers(0, 2**32 - 1), variation=st.integers(0, 2**32 - 1), drop_deals=st.booleans())
def test_the_same_game_written_another_way_reads_as_the_same_game(rules, players, variants, seed, variation,
                                                                 drop_deals):
    game = simulate(NAMES[:players], rules=rules, variants=variants, seed=seed)
    plain = record_from_game(game, deals=not drop_deals)
    text, added = vary(write_game(record_from_game(game)), random.Random(variation), NAMES[:players], drop_deals)
    (varied,) = parse_games(text)  # a `[` at the start of a line inside a {comment} starts no game
    assert varied.readable, (varied.problems, text)
    assert count_comments(varied) == added  # every comment is kept
    assert write_game(without_comments(varied)) == write_game(plain)
    canonical = write_game(varied)  # comments and all
    again = parse_game(canonical)
    assert write_game(again) == canonical
    assert comments_in_order(again) == comments_in_order(varied)
    replayed = replay_record(varied)
    assert replayed.valid and replayed.complete, replayed.problems
    assert outcome(replayed.game.state) == outcome(game.state)


def test_a_varied_text_really_varies():
    game = simulate(NAMES[:4], rules="1e", seed=1)
    text, added = vary(write_game(record_from_game(game)), random.Random(3), NAMES[:4], drop_deals=True)
    assert added > 0 and "deal " not in text
    assert any(symbol in text for symbol in SYMBOL.values())
    assert re.search(r"\b(1[0-5]|[1-9])[dhsc]\b", text)
    assert "\n\n   " in text
    assert '{note' in text and '; note' in text and '\n[Event' in text


def test_an_unfinished_round_without_deal_lines_is_still_checked_for_what_needs_no_hands() -> None:
    """Hands unknown: the pass count (R6), a card written twice (R8) and the deck (R5) are still checked."""
    from diamonds.notation import parse_games

    [bad_count] = parse_games('[Players "Ann Bob Cat"]\nR1 dealer Ann pass 9\n1. 15D 14D 13D\n')
    problem = replay_record(bad_count).problems[0]
    assert (problem.rule, problem.line, problem.column) == ("R6", 2, 20)
    [twice] = parse_games('[Players "Ann Bob Cat"]\nR1 dealer Ann pass 2\n1. 15D 14D 13D\n2. 15D 3D\n')
    problem = replay_record(twice).problems[0]
    assert (problem.rule, problem.line, problem.column) == ("R8", 4, 4)
    [fine] = parse_games('[Players "Ann Bob Cat"]\nR1 dealer Ann pass 2\n1. 15D 14D 13D\n2. 12D 3D\n')
    replayed = replay_record(fine)
    assert replayed.valid and not replayed.complete and replayed.notes


# --------------------------------------------------------------------------- the set-up read once for a corpus


def test_a_set_up_read_before_gives_the_same_configuration_and_every_problem_still_shows():
    """`_Setup.configure` keeps the configurations it made by the set-up tags: the same tags give the same
    configuration object, other tags (a Dealer, a Variant, another Rules) their own, and a set-up with a
    problem is reported each time, whatever came before it."""
    from diamonds.replay import validate_record

    text = write_game(record_from_game(simulate(4, rules="2e", seed=5)))
    dealer_tag = re.search(r'\[Dealer "(\w+)"\]', text)
    assert dealer_tag is not None
    dealer = dealer_tag.group(0)
    first = validate_record(parse_game(text))
    again = validate_record(parse_game(f'[Event "Another"]\n{text}'))
    assert first.valid and again.valid and first.config is again.config
    dealt_by_bob = text.replace(dealer, '[Dealer "Bob"]')
    assert validate_record(parse_game(dealt_by_bob)).config.first_dealer == 1
    for bad, code in ((text.replace(dealer, '[Dealer "Zed"]'), "unknown-player"),
                      (text.replace('[Rules "2e"]', '[Rules "9e"]'), "unknown-rules"),
                      (text.replace('[Rules "2e"]', '[Rules "2e"]\n[Variant "partnership,perfect"]'), None)):
        for _ in range(2):
            replayed = validate_record(parse_game(bad))
            assert not replayed.valid and (code is None or replayed.problems[0].code == code)
    assert validate_record(parse_game(text)).config is first.config
    assert _problems_of(validate_record(parse_game(dealt_by_bob))) == _problems_of(replay_record(parse_game(dealt_by_bob)))


def _problems_of(replayed):
    return [(p.pos, p.message, p.code, p.rule) for p in replayed.problems]


SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"


@pytest.mark.parametrize(("sample", "rule"), [
    ("1e-2p-perfect-no-deals.dgn", "R8"), ("2e-5p-perfect.dgn", "R8"), ("kirk-4p-hands.dgn", "K4"),
    ("kirk-4p-no-deals.dgn", "K4"), ("bidding-3p-club.dgn", "B6"), ("bidding-3p-no-deals.dgn", "B6"),
])
def test_a_card_played_twice_is_said_alike_in_every_game_with_or_without_deal_lines(sample, rule):
    """One wording (`Replayer.played_before`) for a card played again, whether the replay meets it on the engine
    or while inferring the hands: who cannot play it, and who played it in which trick (the game's trick ruling).
    Fitzgerald's inference said "7S was already played in trick 1 of round 1" before."""
    text = (SAMPLES_DIR / sample).read_text(encoding="utf-8")
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if re.match(r"\s*1\. ", line))
    second = next(i for i, line in enumerate(lines) if re.match(r"\s*2\. ", line))
    card = next(found for word in re.sub(r"\{[^}]*\}", "", lines[first]).split()[1:]
                if (found := re.match(r"(?:1[0-5]|[1-9]|[TJQKA])[DHSC]", word)))  # a card of trick 1 (not the Joker)
    words = lines[second].split(" ")
    at = next(i for i, word in enumerate(words) if re.match(r"\d+\.$", word)) + 2  # the trick's second card
    words[at] = card.group()
    lines[second] = " ".join(words)
    record = next(iter(parse_games("\n".join(lines))))  # the file's first game
    problems = replay_record(record).problems
    assert problems, sample
    found = re.fullmatch(rf"(\S+) cannot play {card.group()}: it was already played in trick 1 \(by (\S+)\)",
                         problems[0].message)
    assert found, problems[0].message
    assert (problems[0].code, problems[0].rule) == ("card-not-held", rule)
    assert (problems[0].line, problems[0].column) == (second + 1, len(" ".join(words[:at])) + 2)


@pytest.mark.parametrize("fault", ["short", "long", "missing", "twice"])
@pytest.mark.parametrize("rules", ["1e", "2e", "kirk"])
def test_an_unfinished_round_is_checked_for_its_tricks_shape_alike_with_or_without_its_hands(rules, fault):
    """A round left unfinished, written without deal lines, is checked without hands (its hands are unknown,
    `Replayer.check_tricks_without_hands`); its tricks are checked there as a round replayed on its hands is:
    the same code, words, ruling and place for a short trick, a long one, a trick number that skips one, and
    a card played again."""
    game, _ = simulated(4, rules, seed=5)
    said = []
    for deals in (True, False):
        record = record_from_game(game, deals=deals)
        record = replace(record, tags=tuple(tag for tag in record.tags if tag.name != "Result"))
        last = record.rounds[-1]
        tricks = list(last.tricks[:5])
        if fault == "short":
            tricks[1] = replace(tricks[1], plays=tuple(tricks[1].plays)[:-1])
        elif fault == "long":
            tricks[1] = replace(tricks[1], plays=(*tricks[1].plays, last.tricks[6].plays[0]))
        elif fault == "missing":
            tricks[2] = replace(tricks[2], number=4)
        else:
            tricks[1] = replace(tricks[1], plays=(tricks[0].plays[0], *tuple(tricks[1].plays)[1:]))
        record = reread(replace(record, rounds=(*record.rounds[:-1], replace(last, tricks=tuple(tricks)))))
        problems = replay_record(record).problems
        assert problems, (deals, fault)
        trick_line = record.rounds[-1].tricks[1 if fault != "missing" else 2].pos.line
        said.append((problems[0].code, problems[0].message, problems[0].rule, problems[0].line - trick_line))
    assert said[0] == said[1]


@pytest.mark.parametrize(("sample", "rule"), [("2e-5p-perfect.dgn", "R5"), ("kirk-4p-hands.dgn", "K2")])
@pytest.mark.parametrize("fault", ["twice", "short"])
def test_a_refused_deal_is_placed_alike_in_every_game(sample, rule, fault):
    """`Replayer.deal_refused`: a card dealt twice is shown at its token in the later seat's deal line; a hand
    of the wrong size at that line's `deal` word; each with the game's own deal ruling."""
    lines = (SAMPLES_DIR / sample).read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("deal "))
    words = lines[first + 1].split(" ")
    if fault == "twice":
        words[2] = lines[first].split(" ")[2]  # the second player's first card is the first player's
        column = len(" ".join(words[:2])) + 2
    else:
        del words[2]
        column = 1
    lines[first + 1] = " ".join(words)
    problems = replay_record(next(iter(parse_games("\n".join(lines))))).problems
    assert problems
    assert (problems[0].line, problems[0].column, problems[0].rule) == (first + 2, column, rule)
    assert ("twice" in problems[0].message or "to Moira and to Ewan" in problems[0].message) == (fault == "twice")


def test_a_card_of_no_deck_in_a_finished_round_without_deal_lines_is_refused_at_its_token():
    """Before the hands of a finished round are inferred, its tricks are checked as an unfinished round's are
    (`check_tricks_without_hands`): a card of no deck is refused at its token with R5, not as a hand of the wrong
    size at the round's header (what the inferred deal made of it before)."""
    lines = (SAMPLES_DIR / "1e-2p-perfect-no-deals.dgn").read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("8. "))  # round 1's last trick
    words = lines[at].split(" ")
    words[-1] = "9C"  # ranks 1-8 with two players
    lines[at] = " ".join(words)
    problems = replay_record(next(iter(parse_games("\n".join(lines))))).problems
    assert problems
    assert (problems[0].line, problems[0].column) == (at + 1, len(" ".join(words[:-1])) + 2)
    assert (problems[0].code, problems[0].rule) == ("invalid-deal", "R5")
    assert problems[0].message.startswith("9C is not in this game's deck")
