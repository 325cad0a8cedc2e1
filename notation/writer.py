"""Writing DGN in canonical form: one item per line, tags first, comments kept.

The writer is total: any record, readable or not, becomes text. Cards are
written `7D`, player ids as the `Players` tag spells them, `Result` in seat
order. `parse(write(r)) == r` for every canonical record, and writing twice
changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from .records import Comment, GameRecord, Play, Round, Tag, Take
from .tags import TagSyntaxError, format_result, parse_players, parse_result
from .words import Shape, vocabulary

__all__ = ["write_game", "write_games", "escape_tag_value"]


def escape_tag_value(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


class _Line:
    """Builds one output line; a `;` comment forces the next word onto a new line."""

    def __init__(self, out: list[str], indent: str = "") -> None:
        self.out = out
        self.indent = indent
        self.words: list[str] = []
        self.broken = False

    def add(self, word: str) -> None:
        self.words.append(word)

    def comments(self, comments: Iterable[Comment]) -> None:
        for comment in comments:
            self.words.append(comment.dgn())
            if not comment.braced:
                self.flush()
                self.broken = True

    def flush(self) -> None:
        if self.words:
            lead = self.indent if self.broken else ""
            self.out.append(lead + " ".join(self.words))
            self.words = []

    def end(self) -> None:
        self.flush()


def write_game(record: GameRecord) -> str:
    """One game, ending in a newline. An unreadable game is written back exactly as it was read.

    Exactly, but for the blank lines at its end: in a file they separate it from the next game,
    and `write_games` puts that separation back (keeping them would add a line at every rewrite).
    """
    if record.problems:
        lines = record.source.split("\n")
        while lines and not lines[-1].strip():
            lines.pop()
        return "\n".join(lines) + "\n"
    players: tuple[str, ...] = ()
    tag = record.tag("Players")
    if tag is not None:
        players = parse_players(tag.value)
    spelling = {name.casefold(): name for name in players}

    def player(name: str) -> str:
        return spelling.get(name.casefold(), name)

    out: list[str] = [_tag_line(t, players) for t in record.tags]
    if record.tags:
        out.append("")
    for comment in record.comments:
        out.append(comment.dgn())
    for index, rnd in enumerate(record.rounds):
        if index:
            out.append("")
        _write_round(out, rnd, player)
    return "\n".join(out).rstrip("\n") + "\n"


def _tag_line(tag: Tag, players: tuple[str, ...]) -> str:
    value = tag.value
    if tag.name == "Result":
        try:
            value = format_result(parse_result(value), players)
        except TagSyntaxError:
            pass
    return f'[{tag.name} "{escape_tag_value(value)}"]'


def _write_round(out: list[str], rnd: Round, player) -> None:  # type: ignore[no-untyped-def]
    header = rnd.header
    line = _Line(out, "  ")
    words = vocabulary()
    count_word = header.count_word or (words.header_counts[0] if words.header_counts else "")
    count = "" if header.pass_count is None else f" {count_word} {header.pass_count}"
    line.add(f"R{header.number} dealer {player(header.dealer)}{count}")
    line.comments(header.comments)
    line.end()
    for hand in rnd.hand_lines:
        line = _Line(out, "  ")
        line.add(f"{hand.kind} {player(hand.player)}" if hand.player else hand.kind)
        for card in hand.cards:
            _play(line, card, player)
        line.comments(hand.comments)
        line.end()
    for call in rnd.calls:
        line = _Line(out, "  ")
        if isinstance(call, Take):
            kind = call.kind or words.words(Shape.EXCHANGE)[0]
            line.add(f"{kind} {player(call.player)}")
            _play(line, call.card, player)
            line.add(call.second or words.second_of(kind))
            _play(line, call.point, player)
        else:
            line.add(f"{call.kind} {player(call.player)} {call.amount}")
        line.comments(call.comments)
        line.end()
    for trick in rnd.tricks:
        line = _Line(out, "   ")
        line.add(f"{trick.number}.")
        line.comments(trick.comments)
        for play in trick.plays:
            _play(line, play, player)
        line.end()
    if rnd.end is not None:
        line = _Line(out, "  ")
        line.add(rnd.end.kind or words.words(Shape.END)[0])
        for choice in rnd.end.choices:
            line.add(f">{player(choice.player)}")
        line.comments(rnd.end.comments)
        line.end()


def _play(line: _Line, play: Play, player) -> None:  # type: ignore[no-untyped-def]
    word = play.card_word  # a high ace is written `AH`
    if play.choice is not None:
        word += f">{player(play.choice.player)}"
    if play.annotation:
        word += play.annotation
    line.add(word)
    line.comments(play.comments)


def write_games(records: Iterable[GameRecord]) -> str:
    return "\n".join(write_game(record) for record in records)
