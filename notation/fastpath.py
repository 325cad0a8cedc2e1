"""The fast reader: games in the plain line-per-item layout, read without a parser.

Most games are written one item per line (that is how the writer and every
program that records games write them, and how clubs write them by hand, with
comments between). For those, cutting each line at spaces and looking every
card up in a table gives the very record the Lark parser would, many times
faster. Comments are found first (the grammar's own comment and tag-value
patterns), blanked with their line breaks kept so every place stays, and then
given to their items as the parser gives them. Whatever this reader does not
recognise exactly (a tab, an item split over lines, an unclosed comment, any
token out of place) makes it give up on the whole game, and the Lark parser,
which is the definition of the notation, reads it instead and reports any error.

The token shapes come from the grammar's own terminals, so the two readers
cannot disagree about what a card, an id or a number looks like; the test
suite checks that both give equal records with equal positions.
"""

from __future__ import annotations

import re
from itertools import accumulate
from operator import itemgetter
from typing import Any, Final

from diamonds.core.cards import AnyCard, spellings

from .comments import attach_comments
from .records import (
    NOWHERE,
    Call,
    Choice,
    Comment,
    EndLine,
    GameRecord,
    HandLine,
    Play,
    Plays,
    Pos,
    Round,
    RoundHeader,
    Tag,
    Take,
    Trick,
    split_play,
    unchecked_constructor,
)
from .words import Shape, vocabulary

__all__ = ["FastReader", "MAX_DIGITS"]

MAX_DIGITS: Final = 6  # round, trick and pass numbers longer than this are left to the parser to refuse

_TOKEN: Final = re.compile(r"\S+")
_BLANK: Final = re.compile(r"[^\n]")  # a comment's characters but its line breaks
_new_pos = tuple.__new__  # Pos(line, column) without the named tuple's keyword handling
_trick = unchecked_constructor(Trick)
_hand_line = unchecked_constructor(HandLine)
_round_header = unchecked_constructor(RoundHeader)
_tag = unchecked_constructor(Tag)
_call_record = unchecked_constructor(Call)
_take_record = unchecked_constructor(Take)
_play = unchecked_constructor(Play)
_choice = unchecked_constructor(Choice)
_REMEMBERED_LINES = 4096


#: What a card token of a take line says (`split_play`) and its length, by its text: the same few recur.
_PlayParts = tuple[AnyCard, Any, Any, Any, Any, int, int]


def _play_parts(text: str) -> _PlayParts:
    card, suit, sign, choice, annotation, choice_at = split_play(text)
    return card, suit, sign, choice, annotation, choice_at, len(text)


def _card_play(parts: _PlayParts, line_no: int, column: int) -> Play:
    """The `Play` of a token read before (`_play_parts`), at its place: as `Play.from_token` makes it."""
    card, suit, sign, choice, annotation, choice_at, length = parts
    made = _choice(choice, _new_pos(Pos, (line_no, column + choice_at))) if choice is not None else None
    return _play(card, made, annotation, (), _new_pos(Pos, (line_no, column)), length, sign, suit)  # type: ignore[no-any-return]


class FastReader:
    """Built once from the grammar's terminals; `read` returns a record or None (use the parser)."""

    def __init__(self, terminals: dict[str, str]) -> None:
        def full(name: str) -> re.Pattern[str]:
            return re.compile(f"(?:{terminals[name]})\\Z")

        self.round = full("ROUND")
        self.trick = full("TRICK")
        self.count = full("COUNT")
        self.player = full("PLAYER")
        self.choice = full("CHOICE")
        self.play = full("PLAY")
        # What may hide a comment character: a tag value (skipped whole), a comment, or a lone `{`, `}` or `"`.
        self.commentish = re.compile(
            f"{terminals['TAG_VALUE']}|{terminals['BRACE_COMMENT']}|{terminals['LINE_COMMENT']}|[{{}}\"]"
        )
        ws = "[ \\t\\f\\r]*"
        self.tag = re.compile(
            f"{ws}\\[{ws}({terminals['TAG_NAME']}){ws}({terminals['TAG_VALUE']}){ws}\\]{ws}\\Z"
        )
        # Every spelling of a plain card (no choice, no annotation), checked against PLAY,
        # and the usual trick numbers, checked against TRICK: table lookups instead of regexes.
        self.cards: dict[str, AnyCard] = {
            text: card for text, card in spellings().items() if self.play.match(text)
        }
        self.trick_numbers: dict[str, int] = {
            f"{n}.": n for n in range(1000) if self.trick.match(f"{n}.")
        }
        words = vocabulary()  # the registered families' words, by the shape of item each opens
        self.hand_words = frozenset(words.words(Shape.HAND))
        self.card_words = frozenset(words.words(Shape.CARDS))
        self.call_words = frozenset(words.words(Shape.CALL))
        self.exchange_words = {word: words.second_of(word) for word in words.words(Shape.EXCHANGE)}
        self.call_heads = self.call_words | frozenset(self.exchange_words)  # the words that open a call line
        self.end_words = frozenset(words.words(Shape.END))
        self.count_words = frozenset(words.header_counts)
        self.players: set[str] = set()  # ids already matched against PLAYER
        self.decorated: dict[str, AnyCard] = {}  # tokens like 12C>Bob or AH-, already matched against PLAY
        self.token_parts: dict[str, _PlayParts] = {}  # what a take line's card tokens say (`split_play`)
        # What a tag line or a round header says, by its text: an archive repeats them ([Rules "2e"],
        # R1 dealer Ann pass 1), so most are read once. Bounded, for archives of any size.
        self.tag_lines: dict[str, tuple[str, str, int, int] | tuple[()]] = {}
        self.header_lines: dict[str, tuple[int, str, int | None, int, int, int, int, str] | tuple[()]] = {}
        self.call_lines: dict[str, tuple[Any, ...]] = {}  # a bid or take line's words and columns, once read

    def read(self, text: str, first_line: int, index: int) -> GameRecord | None:
        comments: list[Comment] = []
        source = text
        if "{" in text or ";" in text or "}" in text:
            found = self._without_comments(text, first_line)
            if found is None:
                return None  # an unclosed `{`, a `}` or `"` out of place: the parser's job, and its error
            text, comments = found
        if not text.replace("\n", "").isprintable():
            return None  # a tab, a carriage return, a control character: the parser's job
        lines = text.split("\n")
        tags: list[Tag] = []
        rounds: list[Round] = []
        header: RoundHeader | None = None
        hand_lines: list[HandLine] = []
        calls: list[Call | Take] = []
        tricks: list[Trick] = []
        end: EndLine | None = None
        stage = 0  # within a round: 1 hand lines, 2 calls, 3 tricks, 4 end (the grammar's order)
        hand_words, card_words, call_heads = self.hand_words, self.card_words, self.call_heads
        cards_of = self.cards
        trick_numbers = self.trick_numbers
        players = self.players
        from_line = Plays.from_line
        getter = itemgetter
        line_no = first_line - 1
        for line in lines:
            line_no += 1
            tokens = line.split()
            if not tokens:
                continue
            head = tokens[0]
            number = trick_numbers.get(head)
            if number is not None or head[0].isdigit():
                if header is None or stage > 3:
                    return None
                if number is None:
                    if not self.trick.match(head) or len(head) > MAX_DIGITS + 1:
                        return None
                    number = int(head[:-1])
                try:  # itemgetter looks up several keys in one C call, and returns a tuple
                    plays = from_line(getter(*tokens[1:])(cards_of) if len(tokens) > 2 else
                                      tuple([cards_of[t] for t in tokens[1:]]), line, line_no, 1)
                except KeyError:
                    decorated = self._plays(tokens, 1, line, line_no)
                    if decorated is None:
                        return None
                    plays = decorated
                column = 1 if line[0] != " " else line.index(head) + 1
                tricks.append(_trick(number, plays, (), _new_pos(Pos, (line_no, column))))
                stage = 3
            elif head in hand_words:
                if header is None or stage > 1 or len(tokens) < 2:
                    return None
                player = tokens[1]
                if player not in players:
                    if not self.player.match(player):
                        return None
                    players.add(player)
                try:  # the lookup above, written out again: as a shared method it cost 5% more (callgrind)
                    plays = from_line(getter(*tokens[2:])(cards_of) if len(tokens) > 3 else
                                      tuple([cards_of[t] for t in tokens[2:]]), line, line_no, 2)
                except KeyError:
                    decorated = self._plays(tokens, 2, line, line_no)
                    if decorated is None:
                        return None
                    plays = decorated
                column = 1 if line[0] != " " else line.index(head) + 1
                player_column = column + len(head) + 1
                if line[player_column - 2] != " " or line[player_column - 1] == " ":
                    player_column = line.index(player, player_column - 2) + 1
                hand_lines.append(_hand_line(head, player, plays, (), _new_pos(Pos, (line_no, column)),
                                             _new_pos(Pos, (line_no, player_column))))
                stage = 1
            elif head in call_heads:
                if header is None or stage > 2:
                    return None
                call = self._call(head, line, line_no, tokens)
                if call is None:
                    return None
                calls.append(call)
                stage = 2
            elif head in card_words:
                if header is None or stage > 1:
                    return None
                cards_line = self._cards_line(head, line, line_no, tokens)
                if cards_line is None:
                    return None
                hand_lines.append(cards_line)
                stage = 1
            elif head[0] == "[":
                if header is not None:
                    return None
                tag = self._tag(line, line_no)
                if tag is None:
                    return None
                tags.append(tag)
            elif head[0] == "R":
                new = self._header(line, line_no, tokens)
                if new is None:
                    return None
                if header is not None:
                    rounds.append(Round(header, tuple(hand_lines), tuple(tricks), end, tuple(calls)))
                header, hand_lines, calls, tricks, end, stage = new, [], [], [], None, 0
            elif head in self.end_words:
                if header is None or stage > 3:
                    return None
                end = self._end(line, line_no, tokens)
                if end is None:
                    return None
                stage = 4
            else:
                return None
        if header is not None:
            rounds.append(Round(header, tuple(hand_lines), tuple(tricks), end, tuple(calls)))
        if not comments:
            return GameRecord(tuple(tags), tuple(rounds), (), source=source, first_line=first_line, index=index)
        placed, leading = attach_comments(tuple(rounds), comments)
        return GameRecord(tuple(tags), placed, leading, source=source, first_line=first_line, index=index)

    def _without_comments(self, text: str, first_line: int) -> tuple[str, list[Comment]] | None:
        """The text with each comment blanked (its line breaks kept, so every place stays), and the comments.

        Tag values are skipped whole, so a `;` or `{` inside one is not a comment (as in the grammar,
        where the lexer reads a value as one token). None when a `{`, `}` or `"` stands alone: an error."""
        pieces: list[str] = []
        comments: list[Comment] = []
        done = 0
        line, line_start, counted = first_line, 0, 0  # lines counted up to `counted` only: one pass over the text
        for match in self.commentish.finditer(text):
            found = match.group()
            if found[0] == '"':
                if len(found) == 1:
                    return None
                continue  # a tag value, kept as it is
            if len(found) == 1 and found in "{}":
                return None
            start = match.start()
            breaks = text.count("\n", counted, start)
            if breaks:
                line += breaks
                line_start = text.rfind("\n", counted, start) + 1
            counted = start
            column = start - line_start + 1
            braced = found[0] == "{"
            body = found[1:-1] if braced else found[1:].rstrip("\r")
            comments.append(Comment(body, braced, Pos(line, column)))
            pieces += (text[done:start], _BLANK.sub(" ", found))
            done = match.end()
        if not comments:
            return text, comments
        pieces.append(text[done:])
        return "".join(pieces), comments

    # ---------------------------------------------------------------- items

    def _tag(self, line: str, line_no: int) -> Tag | None:
        known = self.tag_lines.get(line)
        if known is None:
            known = self._read_tag(line)
            if len(self.tag_lines) < _REMEMBERED_LINES:
                self.tag_lines[line] = known
        if not known:
            return None
        name, value, name_column, value_column = known
        return _tag(name, value, _new_pos(Pos, (line_no, name_column)), _new_pos(Pos, (line_no, value_column)))

    def _read_tag(self, line: str) -> tuple[str, str, int, int] | tuple[()]:
        match = self.tag.match(line)
        if match is None:
            return ()
        value = match.group(2)[1:-1]
        if "\\" in value:
            value = re.sub(r"\\([\"\\])", r"\1", value)
        return match.group(1), value, match.start(1), match.start(2) + 1

    def _header(self, line: str, line_no: int, tokens: list[str]) -> RoundHeader | None:
        known = self.header_lines.get(line)
        if known is None:
            known = self._read_header(line, tokens)
            if len(self.header_lines) < _REMEMBERED_LINES:
                self.header_lines[line] = known
        if not known:
            return None
        number, dealer, count, first, second, keyword, third, word = known
        if count is None:
            return _round_header(number, dealer, None, (), _new_pos(Pos, (line_no, first)),
                                 _new_pos(Pos, (line_no, second)), NOWHERE, NOWHERE, "")
        return _round_header(number, dealer, count, (), _new_pos(Pos, (line_no, first)),
                             _new_pos(Pos, (line_no, second)), _new_pos(Pos, (line_no, third)),
                             _new_pos(Pos, (line_no, keyword)), word)

    def _read_header(self, line: str, tokens: list[str]) -> tuple[int, str, int | None, int, int, int, int, str] | tuple[()]:
        if (len(tokens) not in (3, 5) or tokens[1] != "dealer" or not self.round.match(tokens[0])
                or len(tokens[0]) > MAX_DIGITS + 1 or not self.player.match(tokens[2])):
            return ()
        spans = [m.start() + 1 for m in _TOKEN.finditer(line)]
        if len(tokens) == 3:
            return int(tokens[0][1:]), tokens[2], None, spans[0], spans[2], 0, 0, ""
        if tokens[3] not in self.count_words or not self.count.match(tokens[4]) or len(tokens[4]) > MAX_DIGITS:
            return ()
        return int(tokens[0][1:]), tokens[2], int(tokens[4]), spans[0], spans[2], spans[3], spans[4], tokens[3]

    def _end(self, line: str, line_no: int, tokens: list[str]) -> EndLine | None:
        matches = list(_TOKEN.finditer(line))
        choices = []
        for match in matches[1:]:
            if not self.choice.match(match.group()):
                return None
            choices.append(Choice(match.group()[1:], Pos(line_no, match.start() + 1)))
        return EndLine(tuple(choices), pos=Pos(line_no, matches[0].start() + 1), kind=tokens[0])

    def _call(self, head: str, line: str, line_no: int, tokens: list[str]) -> Call | Take | None:
        """`bid <id> <n>` (a call) or `take <id> <card> point <card>` (an exchange), as the grammar reads them.

        The same lines recur in every game (`bid Cat 9`): what a line says is read once and remembered."""
        known = self.call_lines.get(line)
        if known is None:
            known = self._call_shape(head, line, tokens)
            if len(self.call_lines) < _REMEMBERED_LINES:
                self.call_lines[line] = known
        if not known:
            return None
        if known[0] == "call":
            _, player, amount, at, player_at, amount_at = known
            return _call_record(head, player, amount, (), _new_pos(Pos, (line_no, at)),  # type: ignore[no-any-return]
                                _new_pos(Pos, (line_no, player_at)), _new_pos(Pos, (line_no, amount_at)))
        _, player, card, point, at, player_at, card_at, point_at, second = known
        return _take_record(player, _card_play(card, line_no, card_at), _card_play(point, line_no, point_at),  # type: ignore[no-any-return]
                            (), _new_pos(Pos, (line_no, at)), _new_pos(Pos, (line_no, player_at)), head, second)

    def _call_shape(self, head: str, line: str, tokens: list[str]) -> tuple[Any, ...]:
        """What a call or exchange line says, with its columns; () if the grammar must read it.

        Exchange lines are mostly new (`take Bob 8S point JD`: a player, two cards), so this is quick
        too: the columns from the tokens' lengths when one space parts them, each card token read once."""
        player = tokens[1] if len(tokens) > 1 else ""
        if player not in self.players:
            if not self.player.match(player):
                return ()
            self.players.add(player)
        if line == " ".join(tokens):
            spans = list(accumulate([len(token) + 1 for token in tokens], initial=1))
        else:
            spans = [m.start() + 1 for m in _TOKEN.finditer(line)]
        second = self.exchange_words.get(head)
        if second is None:
            if len(tokens) != 3 or not self.count.match(tokens[2]) or len(tokens[2]) > MAX_DIGITS:
                return ()
            return ("call", tokens[1], int(tokens[2]), spans[0], spans[1], spans[2])
        if len(tokens) != 5 or tokens[3] != second:
            return ()
        card, point = self._token_parts(tokens[2]), self._token_parts(tokens[4])
        if card is None or point is None:
            return ()
        return ("exchange", tokens[1], card, point, spans[0], spans[1], spans[2], spans[4], second)

    def _token_parts(self, text: str) -> _PlayParts | None:
        """What a card token says (`split_play`), once matched against PLAY; None if it is no card."""
        parts = self.token_parts.get(text)
        if parts is None:
            if not self.play.match(text):
                return None
            parts = _play_parts(text)
            if len(self.token_parts) < 100_000:  # a few cards and marks, however many games
                self.token_parts[text] = parts
        return parts

    def _cards_line(self, head: str, line: str, line_no: int, tokens: list[str]) -> HandLine | None:
        """`kitty <cards>`: a line of cards that names no player."""
        cards_of = self.cards
        plays: Plays | None
        try:  # plain cards, as in a deal line
            plays = Plays.from_line(itemgetter(*tokens[1:])(cards_of) if len(tokens) > 2 else
                                    tuple([cards_of[t] for t in tokens[1:]]), line, line_no, 1)
        except KeyError:
            plays = self._plays(tokens, 1, line, line_no)
            if plays is None:
                return None
        where = _new_pos(Pos, (line_no, 1 if line[0] != " " else line.index(head) + 1))
        return _hand_line(head, "", plays, (), where, where)

    def _plays(self, tokens: list[str], skip: int, line: str, line_no: int) -> Plays | None:
        """A line where some card carries a mark (a choice, a sign, an annotation), or a token is no card."""
        cards = []
        for text in tokens[skip:]:
            card = self.cards.get(text) or self.decorated.get(text)
            if card is None:
                if not self.play.match(text):
                    return None
                card = split_play(text)[0]
                if len(self.decorated) < 100_000:  # a few cards and victims, however many games
                    self.decorated[text] = card
            cards.append(card)
        return Plays.from_line(tuple(cards), line, line_no, skip, plain=False)
