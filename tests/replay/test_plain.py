"""The house's parts for a plain trick game (diamonds.replay.plain), on the test family that names them.

The toy trick game (tests/toyfamily, rulings T1-T7) writes no bridge, stops, export or tables of its own: it
plays with diamonds.core.trick's moves and events and states its rulings as data. Here the house's replayer
must read back what the engine played, with and without deal lines (who played each card follows from the
cards: T3, T5), cite whatever rulings a rule set states (a renamed copy of the toy cites its X-ids), and
the house's table rows must say what the engine's events say.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from diamonds.core import Family, registry, rules_for, simulate
from diamonds.core.registry import register
from diamonds.core.trick import CardPlayed, RoundScored, TrickRulings, TrickWon
from diamonds.notation import parse_game
from diamonds.notation.writer import write_game
from diamonds.replay import ReplayedGame, record_from_game, replay_record
from diamonds.replay.plain import PlainReplayer
from diamonds.replay.tables import game_rows
from diamonds.views.plain import describe


@pytest.fixture()
def toy(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A registry of the shipped families and the toy family, put back afterwards."""
    import toyfamily

    monkeypatch.setattr(registry, "_REGISTRY", registry._Registry())
    register(toyfamily.FAMILY)
    return toyfamily


def written(game: Any, *, deals: bool = True) -> Any:
    """The game as DGN text, read back: what a scorer's file gives the replay."""
    return parse_game(write_game(record_from_game(game, deals=deals)))


@pytest.mark.parametrize("seed", range(6))
def test_a_round_written_without_deal_lines_gets_the_hands_its_players_played(toy: Any, seed: int) -> None:
    game = simulate(rules="toy", seed=seed)
    with_deals, without = replay_record(written(game)), replay_record(written(game, deals=False))
    assert with_deals.valid and without.valid and without.complete, without.problems
    assert with_deals.game is not None and without.game is not None
    assert without.game.moves == with_deals.game.moves == game.moves
    assert without.game.standings() == game.standings()


@pytest.mark.parametrize("seed", range(4))
def test_who_plays_each_card_and_who_leads_next_follow_from_the_cards(toy: Any, seed: int) -> None:
    """`seats_and_leader` (what the recorder shows without hands): the engine's own seats, trick by trick."""
    game = simulate(rules="toy", seed=seed)
    record = written(game, deals=False)
    replayer = PlainReplayer(ReplayedGame(record, game.config), history=False, events=False)
    events = [event for move_events in game.events for event in move_events]
    seats_played = [e.seat for e in events if isinstance(e, CardPlayed)]
    winners_all = [e.winner for e in events if isinstance(e, TrickWon)]
    for number, rnd in enumerate(record.rounds, 1):  # T2, T3: twelve cards, six tricks a round
        played, winners = seats_played[12 * (number - 1):12 * number], winners_all[6 * (number - 1):6 * number]
        for count in range(1, 7):
            found = replayer.seats_and_leader(rnd, game.config.dealer_of_round(number), count)
            assert found is not None
            seats, leader = found
            assert [seat for trick in seats for seat in trick] == played[:2 * count]
            assert leader == winners[count - 1]  # T5: the winner leads the next trick


RENAMED = TrickRulings(deal="X2", tricks="X3", play="X4", winner="X5", score="X6", length="X7")


@pytest.fixture()
def renamed(toy: Any) -> str:
    """A copy of the toy whose rule set states other ruling ids: the house must cite those, not the toy's."""

    return _copy_of_toy(toy, "renamed", "The toy, its rulings renamed", toy.FAMILY.parts, rulings=RENAMED)


def _copy_of_toy(toy: Any, name: str, title: str, parts: Any, **stated: Any) -> str:
    """A copy of the toy registered as family `name` with rule set `toy-<name>`, stating `stated` besides the
    toy's, with `parts`; its id."""
    def configure(cls: Any, players: Any, **given: Any) -> Any:
        return dataclasses.replace(toy.rules.Toy.configure(players, **given), rules=cls.id)

    copy = type(f"Toy_{name}", (toy.rules.Toy,), {"id": f"toy-{name}", "family": name,
                                                    "configure": classmethod(configure), **stated})
    register(Family(name=name, title=title, rule_sets=(copy,), package="toyfamily", parts=parts))
    return copy.id


HEAD = '[Rules "{rules}"]\n[Players "Ann Bob"]\n[Dealer "Ann"]\n[Result "{result}"]\n\n'
DEALS = "deal Ann 1D 2D 1H 2H 1S 2S\ndeal Bob 3D 3H 3S 1C 2C 3C\n"
#: Records that break a rule the house checks for every plain trick game: (what the replay says, its ruling's
#: field of TrickRulings, the round text, the Result).
BROKEN = [
    ("item-not-allowed", "tricks", "R1 dealer Ann pass 2\n" + DEALS + "1. 3D 1D\n", "*"),
    # Another game's lines, calls and end line: none of the words the toy declares (its `words` part: deal lines).
    ("item-not-allowed", "tricks", "R1 dealer Ann\n" + DEALS + "pass Ann 1D\n1. 3D 1D\n", "*"),
    ("item-not-allowed", "tricks", "R1 dealer Ann\n" + DEALS + "kitty 1C\n1. 3D 1D\n", "*"),
    ("item-not-allowed", "tricks", "R1 dealer Ann\n" + DEALS + "bid Ann 3\n1. 3D 1D\n", "*"),
    ("item-not-allowed", "tricks", "R1 dealer Ann\n" + DEALS + "take Ann 1D point 2D\n1. 3D 1D\n", "*"),
    ("item-not-allowed", "tricks", "R1 dealer Ann\n" + DEALS + "1. 3D 1D\nend >Bob\n", "*"),
    ("choice-not-allowed", "play", "R1 dealer Ann\n" + DEALS + "1. 3D 1D+\n", "*"),
    ("duplicate-deal", "deal", "R1 dealer Ann\n" + DEALS + "deal Bob 3D 3H 3S 1C 2C 3C\n", "*"),
    ("wrong-dealer", "deal", "R1 dealer Bob\n" + DEALS, "*"),
    ("trick-too-long", "tricks", "R1 dealer Ann\n" + DEALS + "1. 3D 1D 3H\n", "*"),
    ("result-unfinished", "length", "R1 dealer Ann\n" + DEALS + "1. 3D 1D\n", "Ann 1, Bob 0"),
]


@pytest.mark.parametrize(("code", "role", "body", "result"), BROKEN, ids=[case[0] for case in BROKEN])
def test_the_house_cites_the_rulings_a_rule_set_states(renamed: str, code: str, role: str, body: str,
                                                      result: str) -> None:
    for rules, stated in (("toy", "T"), (renamed, "X")):
        replayed = replay_record(parse_game(HEAD.format(rules=rules, result=result) + body))
        [problem] = replayed.problems
        assert (problem.code, problem.rule) == (code, stated + getattr(RENAMED, role)[1:]), problem


def test_a_round_too_many_and_a_wrong_result_cite_the_game_length_and_score(renamed: str) -> None:
    game = simulate(rules="toy", seed=3)
    text = write_game(record_from_game(game))
    last = text[text.index("R2 dealer"):]
    for rules, stated in (("toy", "T"), (renamed, "X")):
        mine = text.replace('[Rules "toy"]', f'[Rules "{rules}"]')
        [problem] = replay_record(parse_game(mine + "\n" + last.replace("R2 dealer Bob", "R3 dealer Ann"))).problems
        assert (problem.code, problem.rule, problem.message) == ("too-many-rounds", f"{stated}7",
                                                                 "the game is over after 2 rounds")
        wrong = mine.replace(mine[mine.index("[Result"):].split("\n")[0], '[Result "Ann 0, Bob 12"]')
        [problem] = replay_record(parse_game(wrong)).problems
        assert (problem.code, problem.rule) == ("wrong-result", f"{stated}6")
        config = replay_record(parse_game(mine)).config
        won = TrickWon(1, 0, game.config.deck[0], ())
        assert describe(config, won).endswith(f"wins trick 1 with {game.config.deck[0]} ({stated}5)")


@pytest.mark.parametrize("seed", range(3))
def test_the_table_rows_say_what_the_engine_played_and_scored(toy: Any, seed: int) -> None:
    game = simulate(rules="toy", seed=seed)
    replayed = replay_record(written(game, deals=seed % 2 == 0))
    rows = game_rows(replayed, "toy.dgn", 1)
    events = [event for move_events in game.events for event in move_events]
    played = [(e.seat + 1, str(e.card)) for e in events if isinstance(e, CardPlayed)]
    assert [(row["seat"], row["card"]) for row in rows["plays"]] == played
    winning = [str(e.card) for e in events if isinstance(e, TrickWon)]
    tricks = [rows["plays"][start:start + 2] for start in range(0, len(played), 2)]
    assert [[row["card"] for row in trick if row["won_trick"]] for trick in tricks] == [[card] for card in winning]
    scored = [row for row in rows["events"] if row["kind"] == "round scored"]
    last = [e for e in events if isinstance(e, RoundScored)][-1]
    assert [row["total"] for row in scored[-2:]] == list(last.totals) == [s.score for s in game.standings()]
    assert [row["kind"] for row in rows["events"]].count("trick won") == len(winning) == 12


@pytest.mark.parametrize("seed", range(3))
def test_an_unfinished_round_without_deal_lines_is_still_checked_card_by_card(toy: Any, seed: int) -> None:
    """The house checks a plain game's unfinished round whose hands are unknown as it checks the shipped
    games' (`Replayer.check_tricks_without_hands`): a card played again is reported at its token, with who
    played it first and the game's trick ruling; the round as written (no fault) is only noted as unchecked
    against hands."""
    game = simulate(rules="toy", seed=seed)
    record = written(game, deals=False)
    last = record.rounds[-1]
    cut = dataclasses.replace(record, rounds=(*record.rounds[:-1], dataclasses.replace(last, tricks=last.tricks[:2])),
                              tags=tuple(tag for tag in record.tags if tag.name != "Result"))
    plain = replay_record(parse_game(write_game(cut)))
    assert not plain.problems and not plain.complete
    assert any("unfinished" in note for note in plain.notes)
    first = last.tricks[0].plays[0]
    second = dataclasses.replace(last.tricks[1], plays=(first, *tuple(last.tricks[1].plays)[1:]))
    twice = dataclasses.replace(cut, rounds=(*cut.rounds[:-1], dataclasses.replace(last, tricks=(last.tricks[0], second))))
    problems = replay_record(parse_game(write_game(twice))).problems
    assert problems, seed
    assert (problems[0].code, problems[0].rule) == ("card-not-held", rules_for("toy").rulings.tricks)
    assert f"cannot play {first.card}: it was already played in trick 1 (by " in problems[0].message


def _cut(record: Any, tricks: int) -> Any:
    """The record with its last round stopped after `tricks` tricks, and no Result: an unfinished game."""
    last = record.rounds[-1]
    rounds = (*record.rounds[:-1], dataclasses.replace(last, tricks=last.tricks[:tricks]))
    return dataclasses.replace(record, rounds=rounds, tags=tuple(tag for tag in record.tags if tag.name != "Result"))


def test_a_live_table_plays_an_unfinished_round_without_deal_lines_on_a_stand_in_deal(toy: Any) -> None:
    """With `stand_in` (the recorder, the server) the house draws the unknown hands of the last round so that
    its cards are played on the engine (T4: a player who did not follow suit is dealt none of the suit led,
    or the engine would refuse the card); without it the replay stops before that round, as `validate` does."""
    voids = 0
    for seed in range(8):
        game = simulate(rules="toy", seed=seed)
        text = write_game(_cut(written(game, deals=False), 5))
        checked, live = replay_record(parse_game(text)), replay_record(parse_game(text), stand_in=True)
        assert not checked.problems and checked.drawn_round is None and checked.game is not None
        assert not live.problems, (seed, live.problems)
        assert live.game is not None and live.drawn_round == 2
        played = [event for events in live.game.events for event in events if isinstance(event, CardPlayed)]
        truth = [event for events in game.events for event in events if isinstance(event, CardPlayed)]
        assert [(e.seat, e.card) for e in played] == [(e.seat, e.card) for e in truth[:len(played)]]
        assert len(played) == len(truth) - 2 and len(live.game.moves) > len(checked.game.moves)
        for lead, follow in zip(played[-10::2], played[-9::2]):
            voids += follow.card.suit is not lead.card.suit
    assert voids, "no seed showed a void: the deal's refusals went untested"


def test_a_family_that_declares_no_words_writes_only_headers_and_tricks(toy: Any) -> None:
    """The items a game's records may hold come from its family's `words` part: a copy of the toy that leaves the
    part out has no deal lines, so one is refused at its word with the game's ruling (T3), and the same round
    without deal lines reads as before (docs/architecture.md's checklist: words.py for lines besides tricks)."""
    parts = {name: where for name, where in toy.FAMILY.parts.items() if name != "words"}
    _copy_of_toy(toy, "wordless", "The toy without words", parts)
    game = simulate(rules="toy", seed=2)
    for rules, deal_lines in (("toy", ()), ("toy-wordless", ("item-not-allowed",))):
        text = write_game(record_from_game(game)).replace('[Rules "toy"]', f'[Rules "{rules}"]')
        problems = replay_record(parse_game(text)).problems
        assert tuple(p.code for p in problems) == deal_lines, problems
        bare = write_game(record_from_game(game, deals=False)).replace('[Rules "toy"]', f'[Rules "{rules}"]')
        assert replay_record(parse_game(bare)).valid
    [problem] = replay_record(parse_game(write_game(record_from_game(game)).replace(
        '[Rules "toy"]', '[Rules "toy-wordless"]'))).problems
    assert (problem.rule, problem.message) == ("T3", "a toy-wordless game has no `deal` lines")
