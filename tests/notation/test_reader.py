"""notation.reader: every form of DGN.md is read, with exact positions and errors in plain words.

The reader knows the words of a game, not its rules: the games here need not
be legal (that is test_replay's business), only well written.
"""

from __future__ import annotations

import io
import re
import types

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diamonds.core import Card
from diamonds.io.escape import display_width, quoted
from diamonds.notation import Comment, Pos, parse_games, read_games, split_games
from diamonds.notation.diagnostics import format_problem

HEAD = '[Players "Ann Bob Cat"]\n\n'


def at(text: str, needle: str, nth: int = 0) -> Pos:
    """The 1-based line:column of the nth occurrence of `needle` in `text`."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    return Pos(line, index - (text.rfind("\n", 0, index) + 1) + 1)


def card(text: str) -> Card:
    return Card.parse(text)


def only(text: str):  # type: ignore[no-untyped-def]
    games = parse_games(text)
    assert len(games) == 1
    assert games[0].readable, games[0].problems
    return games[0]


def problem_of(text: str):  # type: ignore[no-untyped-def]
    games = parse_games(text)
    assert len(games) == 1
    assert len(games[0].problems) == 1
    return games[0], games[0].problems[0]


# --------------------------------------------------------------------------- tags


def test_tags_are_kept_in_order_with_their_values_unescaped():
    text = ('[Event "The \\"Thursday\\" Club"]\n[Site "C:\\\\games\\\\club"]\n[My_Tag2 ""]\n'
            '[Players "Ann Bob Cat"]\n[Date "2026.??.??"]\n')
    record = only(text)
    assert [(t.name, t.value) for t in record.tags] == [
        ("Event", 'The "Thursday" Club'),
        ("Site", "C:\\games\\club"),
        ("My_Tag2", ""),
        ("Players", "Ann Bob Cat"),
        ("Date", "2026.??.??"),
    ]
    assert record.tag_value("Site") == "C:\\games\\club"
    assert record.tag_value("Rules", "2e") == "2e"
    assert record.rounds == ()


def test_tag_positions_are_those_of_the_bracket_and_of_the_value():
    text = '[Event "Club"]\n  [Players   "Ann Bob"]\n'
    record = only(text)
    event, players = record.tags
    assert (event.pos, event.value_pos) == (Pos(1, 1), Pos(1, 8))
    assert (players.pos, players.value_pos) == (at(text, "[Players"), at(text, '"Ann'))
    assert players.value_pos == Pos(2, 14)


def test_a_value_with_spaces_semicolons_braces_and_brackets_is_one_value():
    record = only('[Event "a ; b {c} [d] e"]\n[Players "Ann Bob"]\n')
    assert record.tag_value("Event") == "a ; b {c} [d] e"
    assert record.comments == ()


@pytest.mark.parametrize(("text", "column", "message"), [
    ('[Site "Leeds]\n', 7, 'the tag value is not closed: no closing " before the end of the line'),
    ('[Site "a \\x b"]\n', 10, '"\\x" is not an escape in a tag value (only \\" for a quote and \\\\ for a backslash)'),
    ('[1Site "Leeds"]\n', 2, 'expected a tag name, found "1Site"'),
    ('[Site Leeds]\n', 7, "expected a tag value in double quotes, found \"Leeds\""),
    ('[Site "Leeds"\n[Players "Ann Bob"]\n', 14, "expected `]` closing the tag, found the end of the line"),
])
def test_tag_syntax_errors_say_what_is_wrong_where(text, column, message):
    record, problem = problem_of(text)
    assert (problem.line, problem.column, problem.message) == (1, column, message)
    assert problem.code == "syntax"


# --------------------------------------------------------------------------- cards


@pytest.mark.parametrize(("written", "canonical"), [
    ("1D", "1D"), ("15C", "15C"), ("7d", "7D"), ("12h", "12H"), ("3s", "3S"), ("10c", "10C"),
    ("4♦", "4D"), ("9♥", "9H"), ("13♠", "13S"), ("1♣", "1C"),
])
def test_suits_are_read_as_letters_in_either_case_or_symbols(written, canonical):
    record = only(HEAD + f"R1 dealer Ann pass 1\ndeal Ann {written}\npass Ann {written}\n1. {written}\n")
    rnd = record.rounds[0]
    assert rnd.hand_lines[0].cards[0].card == card(canonical)
    assert rnd.hand_lines[1].cards[0].card == card(canonical)
    assert rnd.tricks[0].plays[0].card == card(canonical)
    assert rnd.tricks[0].plays[0].length == len(written)


def test_every_card_of_the_deck_is_read():
    cards = [f"{rank}{suit}" for suit in "DHSC" for rank in range(1, 16)]
    record = only(HEAD + "R1 dealer Ann pass 1\n1. " + " ".join(cards) + "\n")
    assert [str(p.card) for p in record.rounds[0].tricks[0].plays] == cards


@pytest.mark.parametrize("bad", ["16D", "07D", "0H", "7X", "20S", "115C", "5HH", "12"])
def test_what_is_not_a_card_is_a_syntax_error_at_it(bad):
    text = HEAD + f"R1 dealer Ann pass 1\n1. 5H {bad} 2S\n"
    record, problem = problem_of(text)
    assert problem.pos == at(text, bad)
    assert problem.message == f'expected a card (such as 7D, 15C, 10H, QS or Jo), found "{bad}"'
    assert problem.length == len(bad)
    assert record.rounds == () and record.tags == ()  # an unreadable game has no items


def test_a_word_that_is_no_card_at_all_lists_what_may_stand_there():
    text = HEAD + "R1 dealer Ann pass 1\n1. 5H D7 2S\n"
    record, problem = problem_of(text)
    assert problem.pos == at(text, "D7")
    assert problem.message == ('expected a card (such as 7D, 15C, 10H, QS or Jo), a trick number such as `2.`, '
                               'a round header `R<k> dealer <id>` (with `pass <n>` in Fitzgerald\'s games), '
                               '`end` or the end of the '
                               'game, found "D7"')


def test_the_message_for_16D_reads_as_the_contract_says():
    text = HEAD + "R1 dealer Ann pass 1\n1. 5H 16D 2S\n"
    record, problem = problem_of(text)
    assert format_problem("club.dgn", record, problem) == (
        'club.dgn:4:7: expected a card (such as 7D, 15C, 10H, QS or Jo), found "16D"\n'
        "    1. 5H 16D 2S\n"
        "          ^^^"
    )


# --------------------------------------------------------------------------- choices and annotations


def test_choices_stand_straight_after_their_card_and_after_end():
    text = HEAD + "R1 dealer Ann pass 1\n1. 5H 13C>Bob 2C>cat\nend >Cat >ann\n"
    record = only(text)
    trick = record.rounds[0].tricks[0]
    assert trick.plays[0].choice is None
    assert trick.plays[1].choice.player == "Bob"
    assert trick.plays[1].choice.pos == at(text, ">Bob")
    assert trick.plays[2].choice.player == "cat"  # ids are matched ignoring case by the replay
    end = record.rounds[0].end
    assert [c.player for c in end.choices] == ["Cat", "ann"]
    assert [c.pos for c in end.choices] == [at(text, ">Cat"), at(text, ">ann")]
    assert end.pos == at(text, "end")


def test_end_may_stand_alone():
    record = only(HEAD + "R1 dealer Ann pass 1\n1. 5H\nend\n")
    assert record.rounds[0].end.choices == ()


@pytest.mark.parametrize("annotation", ["!", "?", "!!", "??", "!?", "?!"])
def test_all_six_annotations_are_read_with_or_without_a_choice(annotation):
    text = HEAD + f"R1 dealer Ann pass 1\n1. 5H{annotation} 13C>Bob{annotation} 2S\n"
    record = only(text)
    plays = record.rounds[0].tricks[0].plays
    assert (plays[0].card, plays[0].choice, plays[0].annotation) == (card("5H"), None, annotation)
    assert (plays[1].card, plays[1].choice.player, plays[1].annotation) == (card("13C"), "Bob", annotation)
    assert plays[2].annotation is None
    assert plays[1].length == len(f"13C>Bob{annotation}")


@pytest.mark.parametrize("bad", ["5H!>Bob", "5H!!!", "5H?!?", "5H>", "5H>1ab"])
def test_a_choice_after_an_annotation_or_a_broken_suffix_is_an_error(bad):
    text = HEAD + f"R1 dealer Ann pass 1\n1. {bad} 2S\n"
    record, problem = problem_of(text)
    assert problem.pos == at(text, bad)
    assert problem.message.startswith("expected a card")


@pytest.mark.parametrize("bad", [">Bob", "!", "!?"])
def test_a_choice_or_annotation_with_a_space_before_it_is_an_error_at_it(bad):
    text = HEAD + f"R1 dealer Ann pass 1\n1. 5H 13C {bad} 2S\n"
    record, problem = problem_of(text)
    assert problem.pos == at(text, bad, 0)
    assert f'found "{bad}"' in problem.message


# --------------------------------------------------------------------------- comments


COMMENTED = HEAD + """{before the first round} ; and a line comment
R1 {a} dealer {b} Ann {c} pass {d} 2 ; e
deal {f} Ann 1D 4D {g} 9D
pass Bob 9D {h} 12H ; i
1. {j} 5H ; k
   9H>Bob!? {l} 2S??
2. 3C {m} {n} 4C ; o
end {p} >Cat {q}
{r}
R2 dealer Bob pass 1 { s }
"""


def test_comments_anywhere_go_to_the_item_they_follow():
    record = only(COMMENTED)

    def texts(comments):  # type: ignore[no-untyped-def]
        return [(c.text, c.braced) for c in comments]

    assert texts(record.comments) == [("before the first round", True), (" and a line comment", False)]
    r1, r2 = record.rounds
    assert texts(r1.header.comments) == [("a", True), ("b", True), ("c", True), ("d", True), (" e", False)]
    assert (r1.header.number, r1.header.dealer, r1.header.pass_count) == (1, "Ann", 2)
    deal, pass_ = r1.hand_lines
    assert texts(deal.comments) == [("f", True), ("g", True)]  # a hand line keeps its comments itself
    assert texts(pass_.comments) == [("h", True), (" i", False)]
    assert [str(p.card) for p in deal.cards] == ["1D", "4D", "9D"]
    t1, t2 = r1.tricks
    assert texts(t1.comments) == [("j", True)]  # after `1.`, before its first card
    assert [texts(p.comments) for p in t1.plays] == [[(" k", False)], [("l", True)], []]
    assert [texts(p.comments) for p in t2.plays] == [[("m", True), ("n", True)], [(" o", False)]]
    assert texts(r1.end.comments) == [("p", True), ("q", True), ("r", True)]
    assert [c.player for c in r1.end.choices] == ["Cat"]
    assert texts(r2.header.comments) == [(" s ", True)]


def test_comment_positions_are_exact():
    record = only(COMMENTED)
    comments = [c for c in record.comments] + list(record.rounds[0].header.comments)
    assert comments[0].pos == at(COMMENTED, "{before")
    assert comments[1].pos == at(COMMENTED, "; and")
    assert comments[2].pos == at(COMMENTED, "{a}")
    assert comments[6].pos == at(COMMENTED, "; e")


def test_a_comment_may_span_lines_and_hold_brackets_and_semicolons():
    text = HEAD + "R1 dealer Ann pass 1\n1. 5H {a long note;\n[Event \"x\"] R2 dealer\n} 9H 2S\n"
    record = only(text)
    play = record.rounds[0].tricks[0].plays[0]
    assert play.comments == (Comment('a long note;\n[Event "x"] R2 dealer\n', True),)
    assert [str(p.card) for p in record.rounds[0].tricks[0].plays] == ["5H", "9H", "2S"]


def test_a_line_comment_ends_at_the_line_break_also_with_windows_line_ends():
    text = (HEAD + "R1 dealer Ann pass 1 ; note {not a brace\n1. 5H\n").replace("\n", "\r\n")
    record = only(text)
    assert record.rounds[0].header.comments == (Comment(" note {not a brace", False),)
    assert record == only(text.replace("\r\n", "\n"))


def test_an_unclosed_brace_comment_is_reported_at_its_brace():
    text = HEAD + "R1 dealer Ann pass 1\n1. 5H {forgot to close\n2. 9H\n"
    record, problem = problem_of(text)
    assert problem.pos == at(text, "{forgot")
    assert problem.message == 'a {comment} is not closed: no "}" follows it in this game'


# --------------------------------------------------------------------------- movetext


def test_deal_and_pass_lines_are_optional_and_kept_in_written_order():
    bare = only(HEAD + "R1 dealer Ann pass 1\n1. 5H 9H 2S\n2. 3D 4D 5D\n")
    assert bare.rounds[0].hand_lines == ()
    assert [t.number for t in bare.rounds[0].tricks] == [1, 2]
    text = HEAD + "R1 dealer Ann pass 1\npass Cat 1C\ndeal Bob 2H 3H\npass Ann 3H\n1. 5H\n"
    record = only(text)
    rnd = record.rounds[0]
    assert [(line.kind, line.player) for line in rnd.hand_lines] == [("pass", "Cat"), ("deal", "Bob"), ("pass", "Ann")]
    assert [line.player for line in rnd.lines("deal")] == ["Bob"]
    assert [line.player for line in rnd.lines("pass")] == ["Cat", "Ann"]
    assert rnd.hand_lines[1].pos == at(text, "deal Bob")
    assert rnd.hand_lines[1].player_pos == at(text, "Bob 2H")
    assert rnd.hand_lines[1].cards[1].pos == at(text, "3H 3H".split()[0], 0)


def test_positions_of_headers_tricks_and_cards_are_exact():
    text = '[Players "Ann Bob_2-x Cat"]\n\nR12 dealer Bob_2-x pass 3\n\n  10.   15C>Ann!   1D\n'
    record = only(text)
    header = record.rounds[0].header
    assert (header.number, header.dealer, header.pass_count) == (12, "Bob_2-x", 3)
    assert header.pos == Pos(3, 1) == at(text, "R12")
    assert header.dealer_pos == at(text, "Bob_2-x p")
    assert header.count_pos == at(text, "3\n")
    trick = record.rounds[0].tricks[0]
    assert (trick.number, trick.pos) == (10, Pos(5, 3))
    first, second = trick.plays
    assert (first.pos, first.length, first.choice.pos) == (Pos(5, 9), len("15C>Ann!"), Pos(5, 12))
    assert second.pos == Pos(5, 20)


def test_layout_is_free_one_line_or_many():
    canonical = HEAD + "R1 dealer Ann pass 1\npass Ann 3H\n1. 5H 9H 2S\nend >Bob\n"
    squeezed = HEAD + "R1 dealer Ann pass 1 pass Ann 3H 1. 5H 9H 2S end >Bob"
    spread = HEAD + "\n\nR1\n  dealer\tAnn\n\npass\n1\n  pass Ann\n3H 1.\n5H\n\n9H 2S\nend\n>Bob\n\n\n"
    assert only(squeezed) == only(canonical) == only(spread)


@pytest.mark.parametrize(("movetext", "needle", "message"), [
    ("R1 dealer Ann 1\n", "1\n", 'expected a trick number such as `2.`, a round header `R<k> dealer <id>` '
                                  "(with `pass <n>` in Fitzgerald's games), `deal`, `pass`, `kitty`, `bid`, `take`, "
                                  '`final`, `end` or the end of the game, found "1"'),
    ("R1 Dealer Ann pass 1\n", "Dealer", 'expected `dealer`, found "Dealer"'),
    ("R1 dealer Ann pass 1\ndeal 5H\n", "5H", 'expected a player id, found "5H"'),
    ("r1 dealer Ann pass 1\n", "r1", "expected a round header `R<k> dealer <id>` (with `pass <n>` in Fitzgerald's "
                                      'games), a tag `[Name "value"]` '
                                      'or the end of the game, found "r1"'),
])
def test_movetext_errors_are_at_the_token_in_plain_words(movetext, needle, message):
    text = HEAD + movetext
    record, problem = problem_of(text)
    assert (problem.pos, problem.message) == (at(text, needle), message)


def test_a_game_cut_short_is_reported_at_its_end():
    text = HEAD + "R1 dealer"
    record, problem = problem_of(text)
    assert problem.message == "expected a player id, found the end of the game"
    assert problem.pos == Pos(3, len("R1 dealer") + 1)


# --------------------------------------------------------------------------- many games


GAME = '[Event "{name}"]\n[Players "Ann Bob Cat"]\n\nR1 dealer Ann pass 1\n1. 5H 9H 2S\n'


def test_many_games_in_a_file_are_cut_where_a_tag_section_follows_movetext():
    text = "\n".join(GAME.format(name=f"g{i}") for i in (1, 2, 3))
    games = parse_games(text)
    assert [g.tag_value("Event") for g in games] == ["g1", "g2", "g3"]
    assert [g.index for g in games] == [1, 2, 3]
    assert [g.first_line for g in games] == [1, 7, 13]
    assert all(g.readable for g in games)
    third = games[2].rounds[0].tricks[0].plays[1]
    assert third.pos == at(text, "9H", 2) == Pos(17, 7)  # positions are lines of the file


def test_split_games_cuts_a_stream_of_lines_and_a_comment_before_tags_stays_with_the_game_before():
    text = GAME.format(name="a") + "{scorer: jpk}\n\n" + GAME.format(name="b")
    chunks = list(split_games(io.StringIO(text)))
    assert [start for start, _ in chunks] == [1, 8]
    first, second = parse_games(text)
    assert first.rounds[0].tricks[0].plays[-1].comments == (Comment("scorer: jpk", True),)
    assert second.tag_value("Event") == "b"


def test_a_bracket_inside_a_brace_comment_does_not_start_a_game():
    text = (GAME.format(name="one") + "{the next line is not a game:\n[Event \"fake\"]\n}\n"
            + '[Event "two"] {a comment on a tag line [Event "no"]\n[Site "still in the comment"]}\n'
            + '[Players "Ann Bob"]\n\nR1 dealer Ann pass 1\n')
    games = parse_games(text)
    assert [g.tag_value("Event") for g in games] == ["one", "two"]
    assert games[0].rounds[0].tricks[0].plays[-1].comments[0].text == 'the next line is not a game:\n[Event "fake"]\n'
    assert games[1].tag_value("Site") is None
    assert games[1].readable


def test_a_broken_game_is_reported_with_its_place_and_the_next_game_is_still_read():
    text = GAME.format(name="ok") + "\n" + GAME.format(name="broken").replace("9H", "16H") + "\n" + GAME.format(name="ok too")
    first, broken, last = parse_games(text)
    assert first.readable and last.readable
    assert last.tag_value("Event") == "ok too"
    assert last.rounds[0].tricks[0].plays[0].pos == at(text, "5H", 2)
    (problem,) = broken.problems
    assert problem.pos == at(text, "16H") == Pos(11, 7)
    assert broken.index == 2 and broken.first_line == 7
    assert format_problem("f.dgn", broken, problem).splitlines()[1:] == ["    1. 5H 16H 2S", "          ^^^"]


# --------------------------------------------------------------------------- streaming


def test_read_games_is_lazy_over_a_stream_of_lines():
    """Asking for one game reads that game and the line that ends it, never past the second game."""
    lines = (GAME.format(name="first") + "\n" + GAME.format(name="second")).splitlines(keepends=True)
    read = []

    def stream():  # type: ignore[no-untyped-def]
        for line in lines:
            read.append(line)
            yield line
        raise AssertionError("read past the second game")

    games = read_games(stream())
    assert isinstance(games, types.GeneratorType)
    assert read == []  # nothing is read before a game is asked for
    first = next(games)
    assert first.tag_value("Event") == "first"
    assert len(read) <= GAME.count("\n") + 2  # the first game, the blank line, and the line that ends it
    games.close()


def test_the_last_game_of_a_stream_is_yielded_at_its_end():
    lines = (GAME.format(name="first") + "\n" + GAME.format(name="second")).splitlines(keepends=True)
    assert [g.tag_value("Event") for g in read_games(iter(lines))] == ["first", "second"]


def test_read_games_reads_a_file_object(tmp_path):
    path = tmp_path / "night.dgn"
    path.write_text(GAME.format(name="a") + "\n" + GAME.format(name="b"), encoding="utf-8")
    with path.open(encoding="utf-8") as handle:
        games = read_games(handle)
        assert next(games).tag_value("Event") == "a"
        assert [g.tag_value("Event") for g in games] == ["b"]


def test_an_empty_file_or_one_of_comments_only_has_no_game_or_a_game_of_comments():
    assert parse_games("") == []
    assert parse_games("\n\n   \n") == []
    (game,) = parse_games("; nothing recorded yet\n")
    assert game.readable and game.comments == (Comment(" nothing recorded yet", False),)


# --------------------------------------------------------------------------- error messages


TERMINAL = re.compile(r"__ANON|\$END|\b(?:PLAY|TRICK|ROUND|PLAYER|COUNT|CHOICE|DEAL|PASS|END|LSQB|RSQB|"
                      r"TAG_NAME|TAG_VALUE|_DEALER|BRACE_COMMENT|LINE_COMMENT|WS)\b")
VALID = ('[Event "Club \\"night\\""]\n[Players "Ann Bob Cat"]\n[Rules "1e"]\n\n'
         "R1 dealer Ann pass 2 {c}\ndeal Ann 1D 4D\npass Ann 1D 4D\n1. 5H 13C>Bob! 2S ; x\n2. 3D 4D 5D\nend >Cat\n")
PIECES = ["[", "]", '"', "{", "}", ";", ">", ">Bob", "!", "!!!", "16D", "07D", "R", "R1", "1.", ".", "dealer",
          "pass", "deal", "end", "5H", "x", "\\", "\n", " ", "[Event", "99", "♦", "#", "Ann", "3"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(["del", "ins", "rep"]),
                                st.sampled_from(PIECES)), min_size=1, max_size=3))
def test_syntax_errors_never_name_lark_terminals_and_point_into_the_text(edits):
    tokens = re.findall(r"\S+|\s+", VALID)
    for where, op, piece in edits:
        k = where % len(tokens)
        if op == "del":
            del tokens[k]
        elif op == "ins":
            tokens.insert(k, piece)
        else:
            tokens[k] = piece
        if not tokens:
            tokens = [" "]
    text = "".join(tokens)
    lines = text.split("\n")
    for record in parse_games(text):
        for problem in record.problems:
            shown = re.sub(r'found ".*"\Z', "", problem.message)
            assert not TERMINAL.search(shown), problem.message
            assert problem.code == "syntax"
            assert 1 <= problem.line <= len(lines)
            assert 1 <= problem.column <= len(lines[problem.line - 1]) + 1
            format_problem("x.dgn", record, problem)  # always printable


@pytest.mark.parametrize("text, column", [
    ("R1 dealer e pass 3\n" + "1" * 5000 + ". 5H\n", 1),
    ("R1 dealer t pass " + "9" * 5000 + "\n", 18),
    ("R" + "1" * 5000 + " dealer A pass 1\n", 1),
], ids=["trick", "pass-count", "round"])
def test_numbers_too_long_for_int_are_a_syntax_error_not_a_crash(text: str, column: int) -> None:
    """Found by the fuzz campaign: Python refuses int() of over 4,300 digits."""
    [record] = parse_games(text)
    [problem] = record.problems
    assert problem.code == "syntax" and "too large" in problem.message
    assert problem.column == column


def test_a_result_score_too_long_for_int_is_reported_on_the_tag() -> None:
    from diamonds.replay import replay_record

    [record] = parse_games('[Players "Ann Bob"]\n[Result "Ann ' + "9" * 5000 + ', Bob 1"]\n')
    problems = replay_record(record).problems
    assert problems and problems[0].code == "bad-result" and problems[0].line == 2


# --------------------------------------------------------------------------- cutting a stream into games


def _games_by_characters(text: str) -> list[tuple[int, str]]:
    """The splitting rule, walked one character at a time: the test's own reading of DGN.md.

    A game starts at a tag line (a `[` first on its line, outside a `{…}` comment)
    that follows movetext (anything but white space and comments outside a tag line).
    """
    games: list[tuple[int, str]] = []
    start, begin, line_no = 1, 0, 1
    in_brace = has_movetext = False
    i = 0
    while i < len(text):
        line_end = text.find("\n", i)
        line_end = len(text) if line_end < 0 else line_end + 1
        line = text[i:line_end]
        is_tag = not in_brace and line.lstrip(" \t\ufeff")[:1] == "["
        if is_tag and has_movetext:
            games.append((start, text[begin:i]))
            start, begin, has_movetext = line_no, i, False
        in_string = False
        for ch in line:
            if in_brace:
                in_brace = ch != "}"
            elif is_tag and in_string:
                in_string = ch != '"'  # an escaped quote ends nothing: see below
            elif ch == ";":
                break
            elif ch == "{":
                in_brace = True
            elif is_tag:
                in_string = ch == '"'
            elif not ch.isspace():
                has_movetext = True
        i, line_no = line_end, line_no + 1
    if begin < len(text):
        games.append((start, text[begin:]))
    return games


_PIECES = st.sampled_from([
    '[Event "a"]\n', '[Players "Ann Bob"]\n', '  [Site "x;y"]\n', "\n", "   \n", "R1 dealer Ann pass 1\n",
    "1. 5H 9H\n", "; a comment [Event \"no\"]\n", "{a [comment\n", "still inside ]\n", "}\n",
    "2. 3S {x} 4S\n", '[Note "{"]\n', "[Event {c}]\n", "end\n", "\ufeff[Event \"bom\"]\n", "3. 1D",
])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, max_size=25), st.lists(st.integers(1, 40), min_size=1, max_size=10))
def test_games_are_cut_the_same_whatever_the_blocks_the_text_arrives_in(pieces, sizes):
    text = "".join(pieces)
    if '\\"' in text:  # the oracle above does not know escapes; the pieces have none
        return
    expected = _games_by_characters(text)
    blocks, at = [], 0
    while at < len(text):  # the text cut into blocks of the drawn sizes, in turn
        size = sizes[len(blocks) % len(sizes)]
        blocks.append(text[at:at + size])
        at += size
    assert list(split_games(blocks)) == expected
    assert list(split_games(io.StringIO(text))) == expected
    assert list(split_games(text.splitlines(keepends=True))) == expected


@pytest.mark.parametrize(("before", "columns"), [("{日本語♥} 2H ", 13), ("{e\u0301} ", 4), ("{café} ", 7)])
def test_the_caret_stands_under_its_token_in_a_terminal_s_columns(before: str, columns: int) -> None:
    """A wide (CJK) character takes two columns and a combining accent none: the caret was placed by
    characters, left of a token after a comment in Japanese."""
    line, start, width = quoted(f"2. {before}16H 5H", 3 + len(before), 3)
    assert (start, width) == (3 + columns, 3) and display_width(line[:3 + len(before)]) == start
    assert quoted("2. 9H 16H", 6, 3) == ("2. 9H 16H", 6, 3)  # ASCII: columns are characters
