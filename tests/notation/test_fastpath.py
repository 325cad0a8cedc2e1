"""The fast reader must give exactly what the Lark parser gives, positions included, or give up."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from diamonds.core import ConfigError, simulate
from diamonds.notation import fastpath, larkpath, reader
from diamonds.notation.records import Comment, GameRecord, Play, Take
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game

CARD = re.compile(r"((?:1[0-5]|[1-9]|[JQKA])[DHSC]|Jo[DHSC]?)([+-]?)")  # a card, a Joker's suit, a sign
SYMBOL = {"D": "♦", "H": "♥", "S": "♠", "C": "♣"}
SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.dgn"))


def both(text: str) -> tuple[GameRecord | None, GameRecord]:
    fast = reader._fast_reader().read(text, 1, 1)
    slow = larkpath.parse_with_lark(text, 1, 1)
    return fast, slow


def positions(record: GameRecord) -> list[object]:
    """Every position and token length a record holds, in order, with the places of the comments on each item."""
    found: list[object] = [(t.pos, t.value_pos) for t in record.tags] + [places(record.comments)]
    for rnd in record.rounds:
        h = rnd.header
        found.append((h.pos, h.dealer_pos, h.count_pos, places(h.comments)))
        for line in rnd.hand_lines:
            found.append((line.pos, line.player_pos, places(line.comments)))
            found.extend(map(play_place, line.cards))
        for trick in rnd.tricks:
            found.append((trick.pos, places(trick.comments)))
            found.extend(map(play_place, trick.plays))
        if rnd.end is not None:
            found.append((rnd.end.pos, [c.pos for c in rnd.end.choices], places(rnd.end.comments)))
        for call in rnd.calls:
            if isinstance(call, Take):
                found.append((call.pos, call.player_pos, *map(play_place, (call.card, call.point)), places(call.comments)))
            else:
                found.append((call.pos, call.player_pos, call.amount_pos, places(call.comments)))
    return found


def play_place(play: Play) -> tuple[object, ...]:
    return play.pos, play.length, play.choice.pos if play.choice else None, places(play.comments)


def places(comments: tuple[Comment, ...]) -> list[tuple[object, ...]]:
    return [(c.pos, c.braced, c.text) for c in comments]


def assert_same(text: str) -> bool:
    fast, slow = both(text)
    if fast is None:
        return False
    assert not slow.problems
    assert fast == slow
    assert positions(fast) == positions(slow)
    return True


def game_text(seed: int, players: int, rules: str, variants: tuple[str, ...], deals: bool) -> str:
    try:
        game = simulate(players, rules=rules, variants=variants, seed=seed)
    except ConfigError:
        assume(False)  # not a legal set-up: another example (pytest.skip would skip the whole test)
        raise
    return write_game(record_from_game(game, deals=deals))


def test_every_sample_takes_the_fast_path_and_agrees_comments_included() -> None:
    commented = 0
    for path in SAMPLES:
        for record in reader.parse_games(path.read_text(encoding="utf-8")):
            assert assert_same(record.source), (path.name, record.index)
            commented += "{" in record.source or ";" in record.source
    assert commented >= 10  # the samples' comments: before the tags, on rounds, lines, tricks and cards


#: Comments as a club writes them, and as an attacker might: each may hide a character of another kind.
COMMENTS = st.sampled_from([
    "{c}", "{}", "{two\nlines}", "{a ; b}", '{say "hi"}', "{[Event \"x\"]}", "{1. 5H}", "{\u00e9\u2660 {}",
    "; note", ";", '; "quoted', "; {", "; }", "; a\tb",
])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["2e", "kirk", "bidding"]), deals=st.booleans(),
       spots=st.lists(st.tuples(st.integers(0, 10**6), COMMENTS), min_size=1, max_size=12))
def test_comments_anywhere_between_tokens_take_the_fast_path_and_agree(
        seed: int, rules: str, deals: bool, spots: list[tuple[int, str]]) -> None:
    """A comment at any gap between tokens, or at a line's end, is read by the fast reader onto the item the
    parser gives it, at the same place (a `;` comment, or one over two lines, only where a line break follows:
    elsewhere the item itself would span lines, which is the parser's to read)."""
    text = game_text(seed, {"kirk": 4, "bidding": 3}.get(rules, 4), rules, (), deals)
    text = "".join(text.splitlines(True)[:80])  # the reader checks no rule: a game's first 80 lines will do
    gaps = [m.start() for m in re.finditer(r"(?<=\S)(?= |\n)", text)
            if text[m.start()] == "\n" or text[text.rfind("\n", 0, m.start()) + 1] != "["]  # a tag's value is one token
    inserts = []
    for spot, comment in spots:
        at = gaps[spot % len(gaps)]
        if comment.startswith(";") or "\n" in comment:
            at = text.index("\n", at)  # a line comment runs to the line's end; one over two lines splits no item
        inserts.append((at, comment.startswith(";"), comment))
    # From the end, so that each place is still the original's; at one place a `;` comment goes in first,
    # so that it ends up last (written before a `{`, it would take that comment's first line as its own)
    for at, _, comment in sorted(inserts, reverse=True):
        text = text[:at] + (" " if at % 2 else "") + comment + text[at:]
    assert assert_same(text), text


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), rules=st.sampled_from(["1e", "2e", "bga"]),
       variants=st.sampled_from([(), ("partnership",), ("perfect",)]), deals=st.booleans())
def test_simulated_games_agree(seed: int, players: int, rules: str, variants: tuple[str, ...], deals: bool) -> None:
    assert assert_same(game_text(seed, players, rules, variants, deals))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["kirk", "bidding"]), deals=st.booleans())
def test_simulated_games_of_the_other_families_agree(seed: int, rules: str, deals: bool) -> None:
    """Kirk (4 players) and the bidding game (3; kitty, bid, take and final lines; aces and the Joker with
    their signs and suits) read alike, positions included."""
    assert assert_same(game_text(seed, 4 if rules == "kirk" else 3, rules, (), deals))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), edits=st.integers(0, 2**16), rules=st.sampled_from(["1e", "bidding"]))
def test_surface_variations_agree_or_fall_back(seed: int, edits: int, rules: str) -> None:
    """Symbols, lowercase, extra spaces, annotations and >id on cards: equal records, or the parser decides."""
    text = game_text(seed, 3, rules, (), True)
    rng = random.Random(edits)
    out = []
    for line in text.splitlines():
        words = line.split(" ")
        if not line.startswith("["):
            for i, word in enumerate(words):
                roll = rng.random()
                card = CARD.fullmatch(word)
                if not card:
                    continue
                body, sign = card.groups()
                if roll < 0.1 and body[-1] in SYMBOL:
                    words[i] = body[:-1] + SYMBOL[body[-1]] + sign
                elif roll < 0.2:
                    words[i] = word.lower()
                elif roll < 0.25:
                    words[i] = word + rng.choice(["!", "?!", "!!"])
        sep = "  " if rng.random() < 0.2 else " "
        lead = " " if rng.random() < 0.1 else ""
        out.append(lead + sep.join(words))
    assert_same("\n".join(out) + "\n") or True  # falling back is always allowed; agreeing is checked


@pytest.mark.parametrize("text", [
    '[Players "A B"]\nR1 dealer A pass 1 {c\n',
    '[Players "A B"]\nR1 dealer A pass 1 c}\n',
    '[Players "A B"]\nR1 dealer A pass 1 "c;"\n',
    '[Players "A B"]\nR1 dealer A pass 1 "{c}\n',
    '[Players "A B"]\nR1 dealer A pass 1\n1.\t5H\n',
    '[Players "A B"]\nR1 dealer A\npass 1\n',
    '[Players "A B"]\nR1 dealer A pass 1\n1. 5H 16D\n',
    '[Players "A B"]\nR1 dealer A pass 1\n1. 5H\ndeal A 5H\n',
    '[Players "A B"] R1 dealer A pass 1\n',
])
def test_anything_unusual_goes_to_the_parser(text: str) -> None:
    fast, _ = both(text)
    assert fast is None


def test_a_tag_or_header_line_read_before_is_placed_on_its_own_line() -> None:
    """Lines are remembered by their text; a repeat, lower in the file, still gets its own positions."""
    game = game_text(5, 4, "2e", (), True)
    games = reader.parse_games(game + "\n" + game)
    assert len(games) == 2 and games[1].first_line > 1
    for record in games:
        slow = larkpath.parse_with_lark(record.source, record.first_line, record.index)
        assert record == slow and positions(record) == positions(slow)


def test_when_the_remembered_lines_are_full_lines_are_still_read(monkeypatch) -> None:
    fresh = fastpath.FastReader({t.name: t.pattern.to_regexp() for t in larkpath.parser().lark.terminals})
    monkeypatch.setattr(fastpath, "_REMEMBERED_LINES", 1)
    for seed in (1, 2):
        text = game_text(seed, 3, "bga", (), True)
        fast, slow = fresh.read(text, 1, 1), larkpath.parse_with_lark(text, 1, 1)
        assert fast == slow and positions(fast) == positions(slow)
    assert len(fresh.tag_lines) == 1 and len(fresh.header_lines) == 1
