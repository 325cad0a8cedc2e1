"""A game recorded live at the table: items typed one by one, each checked by replaying the record.

The recorder holds the record being built as plain immutable drafts (rounds
of header, hand and call lines, cards, an `end` line). Every candidate item
is added to a copy of the draft, the draft is written as DGN and replayed
by the family's own bridge (`replay_record`), and the item is accepted only
if the replay reports nothing. So the recorder checks exactly what
`validate` checks, with the same messages and rulings, and never names a
family: what a round header needs (a pass count), who deals, how many cards
a trick holds all come from the configuration and the replay's answers.

Without deal lines a bridge checks an unfinished round only as far as it can
without hands (the deck, a card played twice, the trick size, the pass
count); when the round is complete it infers the hands and the full check
reveals any revoke at its own card, which the recorder reports there.

Nothing here draws or reads a terminal: the command (`cli/record_cmd.py`)
does, in line mode or with prompt_toolkit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from diamonds.core import DEFAULT_RULES, ConfigError, Engine, family_of, rules_for, with_rule
from diamonds.io.escape import quoted, visible
from diamonds.io.write import leftovers, write_text
from diamonds.notation.reader import parse_game
from diamonds.notation.records import GameRecord, Pos, Problem, split_play
from diamonds.notation.tags import parse_players, parse_variants
from diamonds.notation.words import Shape, vocabulary
from diamonds.notation.writer import escape_tag_value, write_game

from .record import game_tags
from .validate import ReplayedGame, Stop, replay_record

__all__ = [
    "MISSING_SECOND", "RoundDraft", "Refusal", "Question", "Outcome", "Saved", "Recorder", "SetupError",
    "write_through", "leftover_temporaries", "QUIT_WORDS",
]

#: The code of the question an exchange's first half asks (`take Jon 9D`: which point card?).
MISSING_SECOND = "missing-second"

#: Words that open a whole movetext line of their own (DGN): the rest of the input line belongs to it.
COMMANDS = ("undo", "fix", "swap", "?", "help", "quit")

#: The words that end a recording session (the scorer's, never the record's): `diamonds record` saves and
#: leaves, on a terminal and in line mode alike.
QUIT_WORDS: Final = ("quit", "q", "exit")

_TRICK_NUMBER = re.compile(r"(\d+)\.\Z")
_HEADER = re.compile(r"R\d+\b", re.IGNORECASE)
_TOKENS = re.compile(r"\{[^}]*\}?|;.*|\S+")
_LABEL = re.compile(r"R(\d+)\.(\d+)\.(\d+)\Z", re.IGNORECASE)
_ROUND_LABEL = re.compile(r"R(\d+)\Z", re.IGNORECASE)


class SetupError(ValueError):
    """The set-up cannot make a game: `tag` names the tag (or option) at fault; for a game read back
    (`Recorder.resume`), `problem` is the first problem of its text `record`, to show where it is."""

    def __init__(self, message: str, tag: str | None = None, rule: str | None = None, *,
                 problem: Problem | None = None, record: GameRecord | None = None) -> None:
        super().__init__(message)
        self.tag = tag
        self.rule = rule
        self.problem = problem
        self.record = record


@dataclass(frozen=True, slots=True)
class RoundDraft:
    """One round as typed so far: its header line, its hand and call lines, its cards, its `end` line.

    Cards are kept one by one (with any comments typed beside them); the tricks and their
    numbers follow from the trick size, so the scorer never has to type them.
    """

    header: str
    lines: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    end: str | None = None


@dataclass(frozen=True, slots=True)
class Refusal:
    """An item not recorded, and why: the problem as the replay reports it, in the text it would make."""

    item: str
    message: str
    code: str
    rule: str | None
    line: int
    column: int
    source_line: str
    length: int = 1
    at: str = ""  # the item the problem stands at (R1.3.2), when it is not the one being entered
    typed: bool = False  # placed in the typed line (a command's words), not in FILE

    def text(self, path: str) -> str:
        """`file:line:col: message (R8)`, the line, a caret: as `validate` shows a problem (`typed:col:` for
        a command's own words, placed in the line as typed)."""
        where = f" [at {self.at}, revealed by {self.item}]" if self.at else ""
        place = f"typed:{self.column}" if self.typed else f"{path}:{self.line}:{self.column}"
        head = visible(with_rule(f"{place}: {self.message}", self.rule) + where)  # typed text: escaped
        if not self.source_line:
            return head
        line, start, width = quoted(self.source_line, self.column - 1, max(1, self.length))
        return f"{head}\n    {line}\n    {' ' * start}{'^' * width}"


@dataclass(frozen=True, slots=True)
class Question:
    """The card just entered needs one more word (a victim, a Joker's suit): it waits for the answer."""

    item: str
    message: str
    code: str
    rule: str | None
    choices: tuple[str, ...]  # what may be answered (`>Ann`, `H+`…), when the recorder can tell
    end: bool = False  # the round's end-of-round award, named on its `end >Name` line (not on the card)
    prompt_word: str = ">"  # what the answer follows: a victim's `>`, an exchange's second word (`point`)

    @property
    def prompt(self) -> str:
        """What the answer completes: `R1.3.2 needs >`, the round's `end >` line, or `take Jon 9D point `."""
        if self.prompt_word != ">":
            return f"{self.item} {self.prompt_word} "
        return f"{self.item} >" if self.end else f"{self.item} needs >"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one input line did: the items recorded, and the refusal or question it stopped at."""

    accepted: tuple[str, ...] = ()
    refusal: Refusal | None = None
    question: Question | None = None
    info: tuple[str, ...] = ()  # answers to `?`, `undo`, `fix`


@dataclass(frozen=True, slots=True)
class Saved:
    """The recorder at one moment (`Recorder.save`), to put back with `Recorder.restore` when a change is
    not kept (a server's refused or uncommitted item): the rounds, their check and the question waiting,
    and the game's opening comments."""

    rounds: tuple[RoundDraft, ...]
    checked: Any
    pending: Any
    preamble: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Checked:
    record: GameRecord
    replayed: ReplayedGame
    text: str
    spans: tuple[tuple[int, int, int, str], ...]  # (line, first column, last column, item label)


class Recorder:
    """The record being built, checked at every item; `text` is always a valid DGN game."""

    def __init__(self, tags: Sequence[tuple[str, str]], rounds: Sequence[RoundDraft] = (),
                 preamble: Sequence[str] = ()) -> None:
        self.tags = tuple(tags)
        self.rounds: tuple[RoundDraft, ...] = tuple(rounds)
        #: The game's opening comments (`{Played to 100 up}`), before its first round: DGN's place for a
        #: comment on the whole game, kept as written.
        self.preamble: tuple[str, ...] = tuple(preamble)
        self.pending: tuple[tuple[RoundDraft, ...], str, Question] | None = None
        self._parsed: dict[tuple[int, RoundDraft], GameRecord] = {}
        #: The engine's state after each run of finished rounds replayed without a problem, keyed by those
        #: rounds' drafts: an item costs the replay of its own round, not of the whole game.
        self._after: dict[tuple[RoundDraft, ...], Any] = {}
        self.config: Any = None  # the family's configuration, once the tags are checked (`_check` reads it)
        checked = self._check(self.rounds)
        due = checked.replayed.still_due
        if due is not None and checked.replayed.problems == [due] and self.rounds and self.rounds[-1].cards:
            # A file that ends at a card whose Clubs victim is still due (R14; `validate` reads it as unfinished
            # there): resumed with that card waiting for its answer, as the recorder asks when one is typed.
            *done, last = self.rounds
            before = (*done, replace(last, cards=last.cards[:-1]))
            held = self._check(before)
            if not held.replayed.problems:
                whole, self.rounds, self._last, self.config = self.rounds, before, held, held.replayed.config
                if self._try(whole, last.cards[-1]) is not None and self.pending is not None:
                    return
                self.rounds, self.pending = whole, None  # (asked nothing: refused as it stands, below)
        if checked.replayed.problems:
            raise SetupError(_problem_text(checked, checked.replayed.problems[0]))
        self._last = checked
        self.config = checked.replayed.config

    # ---------------------------------------------------------------- making one

    @classmethod
    def new(cls, rules: str, players: Iterable[str], *, variants: Iterable[str] = (), dealer: str | None = None,
            options: dict[str, str] | None = None, extra_tags: Sequence[tuple[str, str]] = ()) -> Recorder:
        """A new game from its set-up; a bad set-up raises `SetupError` naming the tag at fault."""
        try:
            rule_set = rules_for(rules)
        except ConfigError as error:
            raise SetupError(str(error), "Rules") from None
        names = tuple(players)
        try:
            rule_set.check_options(options)
        except ConfigError as error:
            raise SetupError(str(error), error.tag) from None
        try:
            if dealer is not None:  # named in any case, as `replay --as` takes a player; written as Players spells it
                dealer = next((name for name in names if name.casefold() == dealer.casefold()), dealer)
            if dealer is not None and dealer not in names:
                raise SetupError(f'the dealer "{dealer}" is not one of the players ({" ".join(names)})',
                                 "Dealer", rule_set.seats_rule)  # the game's own ruling of who is seated
            config = rule_set.configure(names, variants=parse_variants(",".join(variants)), dealer=dealer,
                                        options=options or {})
        except ConfigError as error:
            # A seating error names no ruling of its own: the game's says who is seated (as `validate` cites it).
            raise SetupError(str(error), error.tag or "Players",
                             error.rule or (rule_set.seats_rule if error.tag is None else None)) from None
        return cls([(tag.name, tag.value) for tag in game_tags(Engine(config), extra_tags)])

    @classmethod
    def resume(cls, text: str) -> Recorder:
        """An unfinished game read back from its file: every item in it is checked again, as the recorder
        checks what it records; a problem raises `SetupError` with the problem and the record, to show it."""
        record = parse_game(text)
        refused: Exception | None = None
        if not record.problems:
            try:
                return cls._from_record(record)
            except (SetupError, ConfigError) as error:
                refused = error
        # Refused: the file's own problem, at its place in the file (the recorder's check places it in the text
        # it writes, and a set-up error comes from the configuration). A replay only on this path.
        problems = record.problems or replay_record(record, history=False, events=False, stand_in=True).problems
        if not problems:
            raise SetupError(str(refused)) from None
        problem = problems[0]
        raise SetupError(f"{problem.line}:{problem.column}: {problem.message}", rule=problem.rule,
                         problem=problem, record=record)

    @classmethod
    def _from_record(cls, record: GameRecord) -> Recorder:
        """The recorder of a record read without problems (`resume`): its drafts, checked again."""
        tags = [(tag.name, tag.value) for tag in record.tags]
        rounds = []
        for rnd in record.rounds:
            header = _write_lines(record, rnd.header.pos.line, _header_end(record, rnd))
            lines = tuple(_item_text(record, line.pos, _last_pos(line)) for line in (*rnd.hand_lines, *rnd.calls))
            cards: list[str] = []
            for trick in rnd.tricks:
                lead = " ".join(c.dgn() for c in trick.comments)
                for index, play in enumerate(trick.plays):
                    word = _play_text(play)
                    cards.append(f"{lead} {word}".strip() if index == 0 and lead else word)
            end = _item_text(record, rnd.end.pos, _last_pos(rnd.end)) if rnd.end is not None else None
            rounds.append(RoundDraft(header, lines, tuple(cards), end))
        return cls(tags, rounds, tuple(comment.dgn() for comment in record.comments))

    # ---------------------------------------------------------------- saving, trying, putting back

    def save(self) -> Saved:
        """The recorder now, to `restore` later (nothing is copied: every part is immutable)."""
        return Saved(self.rounds, self._last, self.pending, self.preamble)

    def restore(self, saved: Saved) -> None:
        """Put the recorder back as it was when `saved` was taken."""
        self.rounds, self._last, self.pending = saved.rounds, saved.checked, saved.pending
        self.preamble = saved.preamble

    def probe(self, line: str) -> Outcome | None:
        """What `enter(line)` would answer, with nothing recorded; None if the line makes it fail."""
        saved = self.save()
        try:
            return self.enter(line)
        except Exception:  # a line the recorder cannot take at all: not a choice
            return None
        finally:
            self.restore(saved)

    # ---------------------------------------------------------------- what it is now

    @property
    def record(self) -> GameRecord:
        """The record as checked now (its tags, rounds, comments and source text)."""
        return self._last.record

    @property
    def question(self) -> Question | None:
        """The question the recorder waits on (a victim, a Joker's suit), or None."""
        return self.pending[2] if self.pending is not None else None

    @property
    def waiting_item(self) -> str | None:
        """The item that waits for the answer to `question` (not yet in `text`), or None."""
        return self.pending[1] if self.pending is not None else None

    def current_round(self) -> tuple[int, RoundDraft | None]:
        """The round the next item goes into, and its draft (None for a round not yet started)."""
        return self._current()

    @property
    def text(self) -> str:
        """The game as DGN, canonical, `Result "*"` while unfinished and filled in at the end."""
        return self._last.text

    @property
    def replayed_live(self) -> ReplayedGame:
        """The record replayed in full (every state, event and origin) for the screen, an unfinished round written
        without deal lines played on its stand-in deal (as the recorder checks it): the table live at the last
        item. Its hands are drawn at random (`ReplayedGame.drawn_round`), so whoever shows it must show no hand
        (`diamonds.core.viewer.NOBODY`)."""
        return replay_record(self._last.record, stand_in=True)

    @property
    def finished(self) -> bool:
        return self._last.replayed.complete

    @property
    def notes(self) -> list[str]:
        """What the replay could not check yet, and why (an unfinished round without deal lines)."""
        return list(self._last.replayed.notes)

    @property
    def game(self) -> Engine:
        game = self._last.replayed.game
        assert game is not None
        return game

    def hands_known(self) -> bool:
        """Whether the engine has dealt the round being recorded (deal lines, or a complete round): not a
        stand-in deal, which lets the round be played while its hands stay unknown (`ReplayedGame.drawn_round`)."""
        game = self.game
        if not self.rounds or self.finished or self._round_done(len(self.rounds)):
            return False
        if self._last.replayed.drawn_round == len(self.rounds):
            return False
        _, draft = self._current()
        if draft is not None and draft.cards and self._item_due() is not None:
            return False  # the engine still waits on a line the round leaves out (deal lines and no pass lines: the
            # passes are inferred when it is complete), so its cards are checked as without hands
        return game.state.round_no == len(self.rounds) and bool(game.legal_moves())

    def where(self) -> str:
        """The next item, in words: the round, the trick and its card, who plays it and the trick so far
        (from seat order and the cards, with or without hands), who deals; at a round's start, what to type."""
        if self.finished:
            return "the game is over"
        number, draft = self._current()
        if draft is None:
            dealer = self.config.players[self.config.dealer_of_round(number)]
            word = self._count_word()
            hint = f": type `{word} N` ({dealer}'s {word} count) to start it" if word else ""
            return f"round {number}, dealt by {dealer}{hint}"
        per_trick = self.config.plays_per_trick
        trick, card = divmod(len(draft.cards), per_trick)
        if trick >= self._tricks_per_round():
            return f"round {number}, all its tricks played: its `end` line, if it needs one"
        item = self._item_due() if not draft.cards else None
        if item is not None:  # before the round's cards: a pass line, a bid, a take… (its word and player)
            word, player = item
            return f"round {number}, {player}'s `{word}` line"
        so_far, to_move = self.turn()
        who = ""
        if to_move is not None:
            who = f", {to_move} {'leads' if not so_far else 'to play'}"
        trick_text = f" (trick so far: {', '.join(f'{name} {word}' for name, word in so_far)})" if so_far else ""
        return f"round {number}, trick {trick + 1}, card {card + 1}{who}{trick_text}"

    def turn(self) -> tuple[tuple[tuple[str, str], ...], str | None]:
        """The trick so far, (player, card) in order, and who plays next: from the dealer, seat order and the
        cards, the leaders by the family's own trick-winner rule (`Replayer.seats_and_leader`), so it is
        known without hands; else the engine's player to move when it knows the hands."""
        number, draft = self._current()
        record = self._last.record
        if draft is None or self.finished or len(record.rounds) != len(self.rounds):
            return (), None
        rnd = record.rounds[number - 1]
        names = self.config.players
        replayer = family_of(self.config.rules).part("bridge").replayer(
            ReplayedGame(record, self.config), history=False, events=False)
        found = replayer.seats_and_leader(rnd, self.config.dealer_of_round(number), len(rnd.tricks))
        if found is None:
            to_move = self.game.to_move if self.hands_known() else None
            return (), names[to_move] if to_move is not None else None
        seats, leader = found
        last = rnd.tricks[-1].plays if rnd.tricks else None
        if last is None or len(last.cards) >= self.config.plays_per_trick or not seats or not seats[-1]:
            return (), names[leader]
        played = zip(seats[-1], last, strict=False)
        so_far = tuple((names[seat], _play_text(play).split(" ")[0]) for seat, play in played)
        return so_far, names[(seats[-1][-1] + 1) % len(names)]

    def hint(self) -> str:
        """What `?` says: where the record stands and what may be typed now."""
        number, draft = self._current()
        if draft is None and self._count_word() and not self.finished:
            word = self._count_word()
            return f"next: `{word} N` (the dealer's {word} count), then the round's lines and cards"
        if self.hands_known() or self.finished:
            return "legal now: " + " ".join(self.legal())
        return ("unseen cards, not yet played this round (hands unknown, so any of them may come next): "
                + " ".join(self.legal()))

    def _count_word(self) -> str:
        """The word a round header writes its count with in this family (`pass`), if any."""
        words = family_of(self.config.rules).part("words")
        return str(getattr(words, "header_count", None) or "")

    def _tricks_per_round(self) -> int:
        return int(getattr(self.config, "tricks_per_round", 1 << 30))

    def legal(self) -> list[str]:
        """What may be entered now: the engine's legal moves when it knows the hands, else the
        cards of the deck not yet played this round (the checks possible without hands)."""
        game = self.game
        if self.hands_known():
            words = []
            for move in game.legal_moves():  # the family's own words (a card played alone: its marks are asked)
                text, card = game.rules.move_text(game.state, move), getattr(move, "card", None)
                words.append(str(card) if card is not None and " " not in text else text)
            return sorted(set(words), key=words.index)
        number, draft = self._current()
        played = set()
        for word in draft.cards if draft is not None else ():
            try:
                played.add(split_play(_card_token(word))[0])
            except ValueError:
                pass
        return [str(card) for card in self.config.deck if card not in played]

    # ---------------------------------------------------------------- entering items

    def enter(self, line: str) -> Outcome:
        """One input line: movetext items or bare cards, or a command (`undo`, `fix`, `?`)."""
        words = line.split()
        if not words:
            return Outcome()
        first = words[0].lower()
        if self.pending is not None:
            return self._answer(line)
        if first == "undo":
            return self.undo()
        if first == "fix":
            return self.fix(" ".join(words[1:]))
        if first == "swap":
            return self.swap(" ".join(words[1:]))
        if first in ("?", "help"):
            return Outcome(info=(self.where(), self.hint()))
        half = self._half_exchange(words)
        if half is not None:  # `take Jon 9D`: its second card is asked for (a tap, then a question)
            self.pending = (self.rounds, line.strip(), half)
            return Outcome(question=half)
        if not self.rounds and _only_comments(line):  # the game's opening comments: before its first round
            return self._add_opening(line.strip())
        comments, rest = _leading_comments(line)
        if comments and _opens_line(rest.split()):  # `{night one} R1 dealer Ann`: the comment, then the line
            saved = self.save()
            before = self.enter(comments)
            after = self.enter(rest) if before.refusal is None else before
            if after.refusal is not None:  # the comment goes with the line it opens: kept only if the line is
                self.restore(saved)
                return Outcome(refusal=after.refusal)
            return replace(after, accepted=before.accepted + after.accepted)
        items = self._items(line)
        if len(items) > 1 and all(apply is not None for _, apply in items):
            # The whole line in one check; only if it fails is it taken item by item, to say where.
            try:
                rounds = self.rounds
                for _, apply in items:
                    rounds = apply(rounds)
            except _NotHere:
                pass
            else:
                checked = self._check(rounds)
                if not checked.replayed.problems:
                    self._set(rounds, checked)
                    return Outcome(tuple(item for item, _ in items if not _TRICK_NUMBER.match(item)))
        accepted: list[str] = []
        for item, apply in items:
            if apply is None:
                return Outcome(tuple(accepted), self._bare_refusal(item, f"`{item}` is not a card, a movetext "
                                                                         "line or a command (undo, fix, swap, ?, quit)"))
            try:
                rounds = apply(self.rounds)
            except _NotHere as error:
                return Outcome(tuple(accepted), self._bare_refusal(item, str(error), error.rule))
            if rounds is self.rounds:  # `3.`: checked, nothing to record
                continue
            outcome = self._try(rounds, item)
            if outcome is not None:
                return Outcome(tuple(accepted), outcome.refusal, outcome.question)
            accepted.append(item)
        return Outcome(tuple(accepted))

    def undo(self) -> Outcome:
        """Take back the last item (repeatable): a card, a line, an `end`, or a round's header."""
        if self.pending is not None:
            item = self.pending[1]
            self.pending = None
            return Outcome(info=(f"took back {item}",))
        if not self.rounds and self.preamble:
            item, self.preamble = self.preamble[-1], self.preamble[:-1]
            self._set(self.rounds, self._check(self.rounds))
            return Outcome(info=(f"took back {item}",))
        if not self.rounds:
            return Outcome(info=("nothing to take back",))
        *done, last = self.rounds
        if last.end is not None:
            new, item = replace(last, end=None), last.end
        elif last.cards:
            new, item = replace(last, cards=last.cards[:-1]), last.cards[-1]
        elif last.lines:
            new, item = replace(last, lines=last.lines[:-1]), last.lines[-1]
        else:
            new, item = None, last.header
        rounds = (*done, new) if new is not None else tuple(done)
        checked = self._check(rounds)
        if new is not None and last.end is not None and new.cards and checked.replayed.still_due is not None:
            # The `end >Name` line answered the round's last card (R14, R16): they were recorded together, and
            # go back together, as the file without its end line is read (the card waits for its victim).
            new, item = replace(new, cards=new.cards[:-1]), f"{new.cards[-1]} {item}"
            rounds = (*done, new)
            checked = self._check(rounds)
        self._set(rounds, checked)
        return Outcome(info=(f"took back {item}",))

    def fix(self, text: str) -> Outcome:
        """Correct an earlier item: `fix R1.3.2 9H` (a card) or `fix R1 <line>` (the round's line of that
        kind and player, or its header); everything after it is checked again."""
        words = text.split()
        if len(words) < 2:
            return Outcome(refusal=self._typed_refusal("fix " + text, "fix needs a place and the item: "
                                                       "fix R1.3.2 9H, or fix R1 deal Ann …", "fix " + text))
        label, item = words[0], " ".join(words[1:])
        card = _LABEL.match(label)
        whole = _ROUND_LABEL.match(label)
        per_trick = self.config.plays_per_trick
        rounds = list(self.rounds)
        swap_hint = ""
        if card:
            number, trick, position = (int(g) for g in card.groups())
            index = (trick - 1) * per_trick + position - 1
            if not (1 <= number <= len(rounds) and 1 <= position <= per_trick
                    and 0 <= index < len(rounds[number - 1].cards)):
                return Outcome(refusal=self._typed_refusal(label, f"{label} is not a card of this record yet",
                                                           "fix " + text))
            cards = list(rounds[number - 1].cards)
            other = self._card_at(cards, item, besides=index)
            if other is not None:  # a card of this round at another place: `swap` exchanges the two
                place = f"R{number}.{other // per_trick + 1}.{other % per_trick + 1}"
                swap_hint = f"{_card_token(item)} is at {place}: `swap {label.upper()} {place}` exchanges the two"
            cards[index] = item
            rounds[number - 1] = replace(rounds[number - 1], cards=tuple(cards))
        elif whole and 1 <= int(whole.group(1)) <= len(rounds):
            number = int(whole.group(1))
            draft = rounds[number - 1]
            key = item.split()[:2]
            if key[0].lower() in _end_words():
                draft = replace(draft, end=item)
            elif _HEADER.match(key[0]) or key[0].lower() in _count_words() and key[1:2] and key[1].isdigit():
                header = item if _HEADER.match(key[0]) else _with_pass_count(draft.header, key[1])
                draft = replace(draft, header=header)
            else:
                same = [i for i, old in enumerate(draft.lines) if [w.lower() for w in old.split()[:2]]
                        == [w.lower() for w in key]]
                if not same:
                    return Outcome(refusal=self._typed_refusal(item, f"round {number} has no `{' '.join(key)}` "
                                                                     "line to correct", "fix " + text))
                lines = list(draft.lines)
                lines[same[0]] = item
                draft = replace(draft, lines=tuple(lines))
            rounds[number - 1] = draft
        else:
            return Outcome(refusal=self._typed_refusal(label, f"{label} is not a place in this record "
                                                              "(R1.3.2 for a card, R1 for a line)", "fix " + text))
        outcome = self._try(tuple(rounds), f"fix {label} {item}", ask=False)
        if outcome is not None:
            if outcome.refusal is not None and swap_hint:
                return replace(outcome, refusal=replace(outcome.refusal,
                                                        message=f"{outcome.refusal.message} ({swap_hint})"))
            return outcome
        return Outcome((f"fix {label} {item}",), info=(f"{label} is now {item}; everything after it checked again",))

    def swap(self, text: str) -> Outcome:
        """Exchange two cards of a round (`swap R1.3.2 R1.3.3`), each with its marks, in one step; the
        record is then checked in full again, as after `fix`."""
        typed = "swap " + text
        words = text.split()
        found = [_LABEL.match(word) for word in words]
        if len(words) != 2 or not all(found):
            return Outcome(refusal=self._typed_refusal(typed, "swap needs two cards' places: swap R1.3.2 R1.3.3",
                                                       typed))
        per_trick = self.config.plays_per_trick
        places = []
        for word, match in zip(words, found, strict=True):
            assert match is not None
            number, trick, position = (int(g) for g in match.groups())
            index = (trick - 1) * per_trick + position - 1
            if not (1 <= number <= len(self.rounds) and 1 <= position <= per_trick
                    and 0 <= index < len(self.rounds[number - 1].cards)):
                return Outcome(refusal=self._typed_refusal(word, f"{word} is not a card of this record yet", typed))
            places.append((number, index))
        (first_round, a), (second_round, b) = places
        if first_round != second_round:
            return Outcome(refusal=self._typed_refusal(words[1], "swap exchanges two cards of one round", typed))
        rounds = list(self.rounds)
        cards = list(rounds[first_round - 1].cards)
        cards[a], cards[b] = cards[b], cards[a]
        rounds[first_round - 1] = replace(rounds[first_round - 1], cards=tuple(cards))
        label = f"swap {words[0].upper()} {words[1].upper()}"
        outcome = self._try(tuple(rounds), label, ask=False)
        if outcome is not None:
            return outcome
        return Outcome((label,), info=(f"{words[0].upper()} is now {cards[a]} and {words[1].upper()} is now "
                                       f"{cards[b]}; everything after them checked again",))

    @staticmethod
    def _card_at(cards: Sequence[str], item: str, besides: int) -> int | None:
        """Where else in the round the card of `item` stands (any marks aside), if anywhere."""
        try:
            wanted = split_play(_card_token(item))[0]
        except ValueError:
            return None
        for index, word in enumerate(cards):
            try:
                if index != besides and split_play(_card_token(word))[0] == wanted:
                    return index
            except ValueError:
                continue
        return None

    # ---------------------------------------------------------------- the answers to questions

    def _answer(self, line: str) -> Outcome:
        assert self.pending is not None
        rounds, item, question = self.pending
        answer = line.strip()
        if answer.lower() == "undo":
            return self.undo()
        command = answer.split()[0].lower() if answer else ""
        if command in ("?", "help"):  # the question again, its item still waiting
            answers = f"; the answers: {' '.join(question.choices)}" if question.choices else ""
            return Outcome(info=(f"{item} waits: {with_rule(question.message, question.rule)}",
                                 f"type {question.prompt.strip()}…{answers}; `undo` takes {item} back"))
        if command in ("fix", "swap"):  # another item's change, while this one waits: answer or take it back first
            return Outcome(refusal=self._typed_refusal(
                answer.split()[0], f"{item} waits for its answer ({question.prompt.strip()}…): give it, or `undo` "
                f"to take {item} back, before `{command}`", answer))
        self.pending = None
        outcome = self._answered(rounds, item, question, answer, line)
        if outcome.question is None and not outcome.accepted and self.pending is None:
            self.pending = (rounds, item, question)  # refused, or nothing taken: the item still waits, asked again
        return outcome

    def _answered(self, rounds: tuple[RoundDraft, ...], item: str, question: Question, answer: str,
                  line: str) -> Outcome:
        """`_answer`'s answer given to the waiting `item`: recorded together, or refused with nothing changed."""
        if question.code == MISSING_SECOND:  # `take Jon 9D` + `AS` (or `point AS`): the whole item
            second = question.prompt_word
            whole = self.enter(f"{item} {answer if answer.split()[0] == second else f'{second} {answer}'}")
            if whole.refusal is not None:
                return Outcome(refusal=replace(whole.refusal, item=f"{item} {answer}"))
            return whole
        if question.end and answer.split()[0].lower() not in _end_words():
            # `>Bob` or `Bob` answers `end >`: the waiting card and the round's end line go in together.
            line = f"{_end_words()[0]} >{answer.lstrip('>')}"
            answer = ""
        last = rounds[-1]
        target = len(last.cards) - 1
        asked = _LABEL.match(question.item)
        if asked:  # the trick's winner names the victim: the answer goes on that card
            target = (int(asked.group(2)) - 1) * self.config.plays_per_trick + int(asked.group(3)) - 1
        if re.fullmatch(r"(>[A-Za-z][A-Za-z0-9_-]*|[DHSCdhsc\u2666\u2665\u2660\u2663]?[+-]?)", answer) and answer:
            cards = list(last.cards)
            cards[target] = _attach(cards[target], answer)
            candidate = (*rounds[:-1], replace(last, cards=tuple(cards)))
            done = item if target == len(last.cards) - 1 else f"{item} (and {cards[target]})"
            outcome = self._try(candidate, f"{item}{answer}" if target == len(last.cards) - 1 else done)
            if outcome is None:
                return Outcome((f"{item}{answer}" if target == len(last.cards) - 1 else done,))
            whole_round = len(last.cards) >= self._tricks_per_round() * self.config.plays_per_trick
            if outcome.question is not None or answer[0] != ">" or not whole_round:
                return outcome
            line = f"{_end_words()[0]} {answer}"  # an end-of-round choice is named on the `end` line (R16)
        # The answer is a line of its own (`end >Ann`): the waiting card and it go in together.
        saved, saved_check = self.rounds, self._last
        self.rounds = rounds
        try:
            outcome = self.enter(line)
        except BaseException:
            self.rounds, self._last = saved, saved_check
            raise
        if outcome.refusal is None and outcome.question is None and outcome.accepted:
            return Outcome((item, *outcome.accepted))
        if outcome.question is None:  # refused, or nothing taken: nothing changes
            self.rounds, self._last = saved, saved_check
        if outcome.refusal is not None:
            return Outcome(refusal=replace(outcome.refusal, item=item + " " + outcome.refusal.item))
        return outcome

    def cards_not_named(self) -> list[str]:
        """The deck's cards (in its order) that no line or card of the round being recorded names yet: what
        may still come from a hand that is not known."""
        _, draft = self._current()
        named: set[str] = set()
        for text in (*(draft.lines if draft is not None else ()), *(draft.cards if draft is not None else ())):
            for word in text.split():
                try:
                    named.add(str(split_play(_card_token(word))[0]))
                except ValueError:
                    continue
        return [str(card) for card in self.config.deck if str(card) not in named]

    def _item_due(self, shape: Shape | None = None) -> tuple[str, str] | None:
        """(word, player) of the line due now before a round's cards (`pass`, `bid`, `take`, `final`), from the
        kind of the engine's legal moves for the player to move (its deal known or a stand-in, never its
        cards); only the family's items of `shape`, if given. None when a card or nothing of those words is due."""
        number, _ = self._current()
        game = self.game
        if self.finished or game.state.round_no != number or game.to_move is None:
            return None
        words = {item.word for item in getattr(family_of(self.config.rules).part("words"), "items", ())
                 if shape is None or item.shape is shape}
        kinds = sorted({game.rules.move_text(game.state, move).split()[0] for move in game.legal_moves()} & words)
        return (kinds[0], self.config.players[game.to_move]) if kinds else None

    def exchange_due(self) -> tuple[str, str] | None:
        """(word, player) of the exchange item due now on a round whose hands are not known (B4's `take`, for
        the player to move): `_item_due` of the EXCHANGE items, on the stand-in deal (its cards never read)."""
        if self.finished or self.hands_known() or self._last.replayed.drawn_round != len(self.rounds):
            return None
        return self._item_due(Shape.EXCHANGE)

    def _half_exchange(self, words: Sequence[str]) -> Question | None:
        """`<word> <id> <card>` of an exchange item (the bidding game's `take Jon 9D point AS`, B4) without its
        second part: the question for its second card, whose choices are the cards not yet named this
        round and the first card (the answer is checked as the whole item is). None: not such a half item."""
        if len(words) != 3 or self.finished:
            return None
        item = next((item for item in getattr(family_of(self.config.rules).part("words"), "items", ())
                     if item.shape is Shape.EXCHANGE and item.word == words[0]), None)
        if item is None or self.config.seat_of(words[1]) is None:
            return None
        laid = _card_token(words[2])
        try:
            laid = str(split_play(laid)[0])
        except ValueError:
            pass
        choices = tuple(dict.fromkeys((*self.cards_not_named(), laid)))  # the card taken may be the one laid (B4)
        player = self.config.players[self.config.seat_of(words[1])]
        return Question(" ".join(words), f"{player}'s {item.second} card, with {words[2]}", MISSING_SECOND, None,
                        choices, prompt_word=item.second)

    # ---------------------------------------------------------------- the machinery

    def _current(self) -> tuple[int, RoundDraft | None]:
        """The round the next item goes into: the last one, or a new one when the engine has moved past it."""
        if not self.rounds:
            return 1, None
        if self._round_done(len(self.rounds)):
            return len(self.rounds) + 1, None
        return len(self.rounds), self.rounds[-1]

    def _round_done(self, number: int) -> bool:
        game = self._last.replayed.game
        if game is None:
            return False
        state = game.state
        return bool(game.is_over or state.round_no > number)

    def _new_header(self, number: int, pass_count: str | None = None) -> str:
        dealer = self.config.players[self.config.dealer_of_round(number)]
        count_word = next(iter(_count_words()), "")
        return f"R{number} dealer {dealer}" + (f" {count_word} {pass_count}" if pass_count is not None else "")

    def _items(self, line: str) -> list[tuple[str, Any]]:
        """The items of one input line, each with how it changes the rounds (None: not an item)."""
        stripped = line.strip()
        words = stripped.split()
        kind = _opens_line(words)
        if kind == "header":
            return [(stripped, self._add_header(stripped))]
        if kind == "count":
            return [(stripped, self._add_pass_count(words[1]))]
        if kind == "line":
            return [(stripped, self._add_line(stripped))]
        if kind == "end":
            return [(stripped, self._add_end(stripped))]
        items: list[tuple[str, Any]] = []
        tokens = _TOKENS.findall(stripped)
        comments: list[str] = []  # comments before the next card (`1. {Ann leads} 4C`): they stay before it
        card_last = False  # whether the last item is a card, which a comment written after it joins
        for token in tokens:
            if token.startswith(("{", ";")):
                if card_last and not comments:
                    word, _ = items[-1]
                    items[-1] = (f"{word} {token}", self._add_card(f"{word} {token}"))
                else:
                    comments.append(token)
                continue
            card_last = False
            number = _TRICK_NUMBER.match(token)
            if number:
                items.append((token, self._check_trick_number(int(number.group(1)))))
                continue
            try:
                split_play(token)
            except ValueError:
                items.append((token, None))
                break
            word = " ".join([*comments, token])
            comments = []
            items.append((word, self._add_card(word)))
            card_last = True
        if comments and card_last:
            word = items[-1][0] + " " + " ".join(comments)
            items[-1] = (word, self._add_card(word))
        elif comments:  # a comment of its own: it is recorded where it was written, never dropped
            text = " ".join(comments)
            items.append((text, self._add_comment(text)))
        return items

    def _open(self, rounds: tuple[RoundDraft, ...]) -> tuple[list[RoundDraft], RoundDraft]:
        """The rounds with the one the next item goes into last (a new one, headed as the rules say)."""
        number, draft = self._current() if rounds is self.rounds else (len(rounds), rounds[-1] if rounds else None)
        listed = list(rounds)
        if draft is None:
            draft = RoundDraft(self._new_header(number))
            listed.append(draft)
        return listed, draft

    def _add_header(self, text: str) -> Any:
        def apply(rounds: tuple[RoundDraft, ...]) -> tuple[RoundDraft, ...]:
            number, draft = self._current()
            if draft is not None and not draft.lines and not draft.cards and draft.end is None:
                return (*rounds[:-1], RoundDraft(text))
            if draft is not None:
                # The replay stops at an unfinished round without hands and would check nothing after it.
                raise _NotHere(f"round {number} is not finished ({self.where()}): the next round starts "
                               "after its last card (and its `end` line, when it needs one)")
            return (*rounds, RoundDraft(text))
        return apply

    def _add_pass_count(self, count: str) -> Any:
        def apply(rounds: tuple[RoundDraft, ...]) -> tuple[RoundDraft, ...]:
            number, draft = self._current()
            if draft is None:
                return (*rounds, RoundDraft(self._new_header(number, count)))
            if draft.lines or draft.cards:
                raise _NotHere(f"round {number} is under way: its pass count is said before its first pass "
                               f"(fix R{number} pass {count} corrects it)")
            return (*rounds[:-1], replace(draft, header=_with_pass_count(draft.header, count)))
        return apply

    def _add_line(self, text: str) -> Any:
        return self._grow_round(lambda draft: replace(draft, lines=(*draft.lines, text)))

    def _add_end(self, text: str) -> Any:
        def apply(rounds: tuple[RoundDraft, ...]) -> tuple[RoundDraft, ...]:
            if not rounds:
                raise _NotHere("no round has started: `end` closes a round")
            return (*rounds[:-1], replace(rounds[-1], end=text))
        return apply

    def _add_opening(self, text: str) -> Outcome:
        """A line of comments before the first round: the game's opening comments, one per line as written
        (`write_game` puts each on its own line)."""
        comments = tuple(_TOKENS.findall(text))
        preamble = self.preamble
        self.preamble = (*preamble, *comments)
        checked = self._check(self.rounds)
        if checked.replayed.problems:  # a comment no reader takes whole (an unclosed `{`): not recorded
            self.preamble = preamble
            problem = checked.replayed.problems[0]
            return Outcome(refusal=self._bare_refusal(text, problem.message, problem.rule, problem.code))
        self._set(self.rounds, checked)
        return Outcome(comments)

    def _add_comment(self, text: str) -> Any:
        """A comment typed on its own: after the round's last card, or its last line, where it was written
        (in the file it follows that item); before any round, `_add_opening` keeps it for the game."""
        def apply(rounds: tuple[RoundDraft, ...]) -> tuple[RoundDraft, ...]:
            if not rounds:
                raise _NotHere("a comment goes with an item: type it beside a card or a line of a round")
            *done, draft = rounds
            if draft.end is not None:
                return (*done, replace(draft, end=f"{draft.end} {text}"))
            if draft.cards:
                return (*done, replace(draft, cards=(*draft.cards[:-1], f"{draft.cards[-1]} {text}")))
            return (*done, replace(draft, lines=(*draft.lines, text)))
        return apply

    def _add_card(self, word: str) -> Any:
        return self._grow_round(lambda draft: replace(draft, cards=(*draft.cards, word)))

    def _grow_round(self, grow: Callable[[RoundDraft], RoundDraft]) -> Any:
        """A hand or call line and a card both go into the round the next item goes into (`_open`)."""
        def apply(rounds: tuple[RoundDraft, ...]) -> tuple[RoundDraft, ...]:
            listed, draft = self._open(rounds)
            listed[-1] = grow(draft)
            return tuple(listed)
        return apply

    def _check_trick_number(self, written: int) -> Any:
        """A typed `3.`: it must be the trick that comes next (the recorder numbers tricks itself)."""
        def apply(rounds: tuple[RoundDraft, ...]) -> tuple[RoundDraft, ...]:
            _, draft = self._current() if rounds is self.rounds else (0, rounds[-1] if rounds else None)
            per_trick = self.config.plays_per_trick
            count = len(draft.cards) if draft is not None else 0
            expected = count // per_trick + 1
            if count % per_trick or written != expected:
                why = (f"trick {expected} still needs {per_trick - count % per_trick} card(s)" if count % per_trick
                       else f"the next trick is {expected}.")
                raise _NotHere(f"expected {'a card' if count % per_trick else f'trick {expected}.'}, "
                               f"found {written}. ({why})")
            return rounds
        return apply

    def _try(self, rounds: tuple[RoundDraft, ...], item: str, ask: bool = True) -> Outcome | None:
        """Accept `rounds` if its replay finds nothing wrong; else the refusal or the question."""
        checked = self._check(rounds)
        problems = checked.replayed.problems
        if not problems:
            self._set(rounds, checked)
            return None
        problem = problems[0]
        label = _label_at(checked, problem.pos)
        last = checked.spans[-1][3] if checked.spans else ""
        trick = last.rsplit(".", 1)[0] + "."
        if ask and self._asks(problem.code) and (label == last or label.startswith(trick) and last.count(".") == 2):
            # The card just entered, or one of its trick the answer goes on (a Clubs winner's victim, R14):
            # ask, not refuse.
            question = Question(label if label != last else item, problem.message, problem.code, problem.rule,
                                self._choices(problem, checked.replayed.game))
            if label == last and self._asks_end(rounds, question):
                number, end = len(rounds), _end_words()[0]
                question = replace(question, item=end, end=True,
                                   message=f"round {number} is over: its `{end} >Name` line gives the answer; "
                                           f"{problem.message}")
            self.pending = (rounds, item, question)
            return Outcome(question=question)
        source = checked.record.source_line(problem.line).rstrip("\n")
        at = label if label and label != last and not item.startswith("fix") else ""
        return Outcome(refusal=Refusal(item, problem.message, problem.code, problem.rule, problem.line,
                                       problem.column, source, problem.length, at))

    def _asks_end(self, rounds: tuple[RoundDraft, ...], question: Question) -> bool:
        """Whether a victim asked for at a round's last card belongs to the round's `end` line (an
        end-of-round award) rather than to the card: with an `end` line naming one, the card is no longer
        waiting (the family's replay says which, no rule is copied here)."""
        draft = rounds[-1] if rounds else None
        words = _end_words()
        if (draft is None or draft.end is not None or not words or not question.choices
                or len(draft.cards) < self._tricks_per_round() * self.config.plays_per_trick):
            return False
        probe = (*rounds[:-1], replace(draft, end=f"{words[0]} {question.choices[0]}"))
        return not any(self._asks(p.code) for p in self._check(probe).replayed.problems)

    def _asks(self, code: str) -> bool:
        """Whether a refusal with this code asks for one more word on its card (the family's `question_words`:
        a Clubs victim, R14; a Joker's suit and sign, B7) rather than refusing it."""
        return rules_for(self.config.rules).question_words(self.config, code) is not None

    def _choices(self, problem: Problem, game: Engine | None = None) -> tuple[str, ...]:
        """The words the family offers as answers to the question `problem` asks (none: any is tried): where the
        replay stopped at the move the question is for (a Clubs victim), those the rules allow there, so that
        neither the actor nor their side is offered (R14)."""
        words = rules_for(self.config.rules).question_words(self.config, problem.code) or ()
        if game is None or not words or game.is_over:
            return words
        allowed = {game.rules.move_text(game.state, move) for move in game.legal_moves()}
        offered = tuple(word for word in words if word in allowed)
        return offered or words

    def _bare_refusal(self, item: str, message: str, rule: str | None = None, code: str = "not-an-item") -> Refusal:
        """A refusal before any replay (not an item, not here): at the line and column where the item would
        stand in FILE, as the next card of the record, with that line and a caret under it."""
        word = item.strip() or "?"
        try:
            rounds = self._add_card(word)(self.rounds)
        except _NotHere:
            rounds = self.rounds
        lines, spans = self._layout(rounds)
        if rounds is self.rounds or not spans:  # nowhere for a card: the line after the record
            return Refusal(item, message, code, rule, len(lines) + 1, 1, word, len(word))
        line, first, _, _ = spans[-1]
        return Refusal(item, message, code, rule, line, first, lines[line - 1], len(word))

    def _typed_refusal(self, item: str, message: str, typed: str) -> Refusal:
        """A refusal of a command's own words (`fix R9.1.1 …`): at their column in the typed line."""
        column = typed.find(item) + 1 if item in typed else 1
        return Refusal(item, message, "not-an-item", None, 0, column, typed, max(1, len(item)), typed=True)

    def refusal_here(self, item: str, message: str, code: str, rule: str | None = None) -> Refusal:
        """A refusal the command makes itself (`--deal`), placed as the recorder places its own."""
        return self._bare_refusal(item, message, rule, code)

    def _layout(self, rounds: tuple[RoundDraft, ...]) -> tuple[list[str], list[tuple[int, int, int, str]]]:
        """The lines `_check_once` writes for `rounds`, and where each item stands, without a replay."""
        lines = [f'[{name} "' + escape_tag_value(value) + '"]' for name, value in self.tags]
        lines.append("")
        lines.extend(self.preamble)
        spans: list[tuple[int, int, int, str]] = []
        for number, draft in enumerate(rounds, 1):
            if number > 1:
                lines.append("")
            lines.extend(self._round_lines(number, draft, self.config.plays_per_trick, len(lines) + 1, spans))
        return lines, spans

    def _set(self, rounds: tuple[RoundDraft, ...], checked: _Checked) -> None:
        self.rounds = rounds
        self._last = checked

    def _check(self, rounds: tuple[RoundDraft, ...]) -> _Checked:
        """Write `rounds` as DGN and replay it. Each round is parsed on its own and remembered, so
        that an item costs the parse of its round and one replay, not the parse of the whole game."""
        checked = self._check_once(rounds, self.tags)
        replayed = checked.replayed
        if replayed.complete and not replayed.problems and replayed.game is not None:
            result = [tag.value for tag in game_tags(replayed.game) if tag.name == "Result"]
            tags = tuple((n, result[0] if n == "Result" and result else v) for n, v in self.tags)
            checked = self._check_once(rounds, tags)
        return checked

    def _check_once(self, rounds: tuple[RoundDraft, ...], tags: Sequence[tuple[str, str]]) -> _Checked:
        lines = [f'[{name} "' + escape_tag_value(value) + '"]' for name, value in tags]
        lines.append("")
        lines.extend(self.preamble)
        head = parse_game("\n".join(lines) + "\n")
        config = self.config
        per_trick = config.plays_per_trick if config is not None else _plays_per_trick(tags)
        spans: list[tuple[int, int, int, str]] = []
        parsed: list[Any] = []
        problems = list(head.problems)
        for number, draft in enumerate(rounds, 1):
            if number > 1:
                lines.append("")
            first_line = len(lines) + 1
            chunk = self._round_lines(number, draft, per_trick, first_line, spans)
            lines.extend(chunk)
            key = (first_line, draft)
            record = self._parsed.get(key)
            if record is None:
                record = parse_game("\n".join(chunk) + "\n", first_line=first_line)
                self._parsed[key] = record
            problems.extend(record.problems)
            parsed.extend(record.rounds)
        text = "\n".join(lines) + "\n"
        record = GameRecord(tags=head.tags, rounds=tuple(parsed), comments=head.comments, problems=tuple(problems),
                            source=text)
        if len(self._parsed) > 4 * len(rounds) + 16:  # keep only what the next items can reuse
            keep = {(line, draft) for line, draft in self._parsed if draft in rounds}
            self._parsed = {k: v for k, v in self._parsed.items() if k in keep}
        replayed = self._validate(record, rounds)
        if replayed.still_due is not None and not replayed.problems:
            # A card whose Clubs victim is due is written with it (R14): what a reader takes as the end of an
            # unfinished record, the recorder asks for (`_try`) before it writes the card.
            replayed.problems.append(replayed.still_due)
        return _Checked(record, replayed, write_game(record), tuple(spans))

    def _validate(self, record: GameRecord, rounds: tuple[RoundDraft, ...]) -> ReplayedGame:
        """`validate_record(record)`, starting from the state after the longest run of leading rounds
        already replayed without a problem (the rounds before the one being recorded), so that recording
        a game costs time in proportion to its length rather than to its square.

        The family's bridge plays each round with `Replayer.read_round`, the same call a full replay
        makes, after `resume_from` the saved state; a first check (no configuration yet) or a record whose
        rounds are not the drafts one to one is replayed in full. A round is remembered only once the engine has moved
        past it, and the
        `last` flag a bridge is given matters only for a round it cannot finish, so the result is the
        full replay's (the tests compare the two)."""
        config = self.config
        if config is None or record.problems or len(record.rounds) != len(rounds):
            return replay_record(record, history=False, events=False, stand_in=True)  # the checks only
        replayed = ReplayedGame(record, config)
        replayer = family_of(config.rules).part("bridge").replayer(replayed, history=False, events=False,
                                                                   stand_in=True)
        game = replayer.game
        start = next((k for k in range(len(rounds), 0, -1) if rounds[:k] in self._after), 0)
        if start:
            replayer.resume_from(self._after[rounds[:start]])
        try:
            for number in range(start + 1, len(rounds) + 1):
                if not replayer.read_round(number, record.rounds[number - 1], last=number == len(rounds)):
                    break
                if game.is_over or game.state.round_no > number:
                    self._after[rounds[:number]] = game.table.freeze()
            replayer.check_result()
        except Stop:
            pass
        if len(self._after) > 2 * len(rounds) + 8:  # keep only what the next items can reuse
            self._after = {k: v for k, v in self._after.items() if rounds[:len(k)] == k}
        return replayed

    @staticmethod
    def _round_lines(number: int, draft: RoundDraft, per_trick: int, first_line: int,
                     spans: list[tuple[int, int, int, str]]) -> list[str]:
        """The round as DGN lines, numbering its tricks; `spans` gets where each item stands."""
        lines = [draft.header]
        spans.append((first_line, 1, len(draft.header), f"R{number}"))
        for text in draft.lines:
            lines.append(text)
            spans.append((first_line + len(lines) - 1, 1, len(text), f"R{number} {' '.join(text.split()[:2])}"))
        for start in range(0, len(draft.cards), per_trick):
            trick = start // per_trick + 1
            line = f"{trick}."
            for offset, word in enumerate(draft.cards[start:start + per_trick]):
                if ";" in line:  # a `;` comment runs to the end of its line: the trick goes on below
                    lines.append(line)
                    line = "  "
                first = len(line) + 2
                line += " " + word
                spans.append((first_line + len(lines), first, len(line), f"R{number}.{trick}.{offset + 1}"))
            lines.append(line)
        if draft.end is not None:
            lines.append(draft.end)
            spans.append((first_line + len(lines) - 1, 1, len(draft.end), f"R{number} end"))
        return lines


class _NotHere(Exception):
    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


def _plays_per_trick(tags: Sequence[tuple[str, str]]) -> int:
    values = dict(tags)
    rule_set = rules_for(values.get("Rules", DEFAULT_RULES))
    players = parse_players(values.get("Players", ""))
    config: Any = rule_set.configure(players, variants=parse_variants(values.get("Variant", "")),
                                options={k: v for k, v in values.items() if k in rule_set.option_tags})
    return int(config.plays_per_trick)


def _label_at(checked: _Checked, pos: Pos) -> str:
    found = ""
    for line, first, last, label in checked.spans:
        if line == pos.line and (first <= pos.column <= last or label.count(".") < 2):
            return label
        if (line, first) <= (pos.line, pos.column):
            found = label
    return found


def _with_pass_count(header: str, count: str) -> str:
    """A round header with its count (`R1 dealer Ann pass 2`), the count's word as the families declare it."""
    words = header.split()
    counts = _count_words()
    lowered = [w.lower() for w in words]
    written = next((w for w in lowered if w in counts), None)
    if written is not None:
        words = words[: lowered.index(written)]
    return " ".join([*words, written or next(iter(counts), ""), count])


def _count_words() -> tuple[str, ...]:
    """The words a round header writes its count with (`pass`), from the registered families."""
    return vocabulary().header_counts


def _end_words() -> tuple[str, ...]:
    """The words of an end-of-round line (`end`), from the registered families."""
    return vocabulary().words(Shape.END)


def _attach(word: str, answer: str) -> str:
    """`15C` + `>Ann` → `15C>Ann`; `Jo` + `H+` → `JoH+` (before any comment typed after the card)."""
    parts = word.split(" ")
    for index, part in enumerate(parts):
        if not part.startswith(("{", ";")):
            try:
                split_play(part)
            except ValueError:
                continue
            if answer.startswith(">"):
                parts[index] = part + answer
            else:
                match = re.match(r"(.*?)(!!|\?\?|!\?|\?!|!|\?)?\Z", part)
                assert match is not None
                parts[index] = match.group(1) + answer + (match.group(2) or "")
            return " ".join(parts)
    return word + answer


def _only_comments(line: str) -> bool:
    """Whether `line` holds comments and nothing else (`{…}`, or `; …` to the end of the line)."""
    tokens = _TOKENS.findall(line.strip())
    return bool(tokens) and all(token.startswith(("{", ";")) for token in tokens)


def _leading_comments(line: str) -> tuple[str, str]:
    """`line` split after the closed `{…}` comments it opens with (`_TOKENS`' reading): (`{night one}`,
    `R1 dealer Ann`); ("", the line) if none."""
    stripped, comments, end = line.strip(), [], 0
    for match in _TOKENS.finditer(stripped):
        token = match.group()
        if not (token.startswith("{") and token.endswith("}")):
            break
        comments.append(token)
        end = match.end()
    return " ".join(comments), stripped[end:].lstrip()


def _opens_line(words: Sequence[str]) -> str | None:
    """Which line of a round `words` open, by their first words: "header" (`R2 dealer Ann`), "count"
    (`pass 2`), "line" (a family's hand, cards, call or exchange line), "end"; None for cards or a command."""
    if not words:
        return None
    first = words[0].lower()
    if _HEADER.match(words[0]) and len(words) > 1 and words[1].lower() == "dealer":
        return "header"
    if first in _count_words() and len(words) >= 2 and words[1].isdigit():
        return "count"
    if first in vocabulary().line_words:
        return "line"
    if first in _end_words():
        return "end"
    return None


def _card_token(word: str) -> str:
    for part in word.split():
        if not part.startswith(("{", ";")):
            return part
    return word


def _problem_text(checked: _Checked, problem: Problem) -> str:
    return with_rule(f"{problem.line}:{problem.column}: {problem.message}", problem.rule)


def _last_pos(item: Any) -> Pos:
    return item.pos


def _header_end(record: GameRecord, rnd: Any) -> int:
    return int(rnd.header.pos.line)


def _write_lines(record: GameRecord, first: int, last: int) -> str:
    return " ".join(record.source_line(n).strip() for n in range(first, last + 1))


def _item_text(record: GameRecord, pos: Pos, _end: Pos) -> str:
    return record.source_line(pos.line).strip()


def _play_text(play: Any) -> str:
    word = play.card_word
    if play.choice is not None:
        word += f">{play.choice.player}"
    if play.annotation:
        word += play.annotation
    for comment in play.comments:
        word += " " + comment.dgn()
    return word


#: The end of the name of the temporary file `write_through` writes beside FILE
#: (`.FILE.<pid>.<random>.record-tmp`, by `diamonds.io.write`).
TEMPORARY_SUFFIX = ".record-tmp"


def leftover_temporaries(path: str, *, dead_only: bool = True) -> list[str]:
    """Temporary files of `write_through` for `path` that a killed recorder left behind: `path` itself is
    whole (the old text or the new), so they hold nothing that is not in it or was not yet accepted.
    Only those whose owner (the pid in the name) is gone, unless `dead_only=False`: the temporary file
    of a recorder still running is its own business."""
    return leftovers(path, TEMPORARY_SUFFIX, dead_only=dead_only)


def write_through(path: str, text: str, encoding: str = "utf-8", *, force: bool = False) -> None:
    """Replace `path` by `text` so that a crash at any moment leaves the old file or the new one
    (`diamonds.io.write.write_text`: beside the symlink's target, fsynced, renamed, the folder fsynced;
    the file's mode kept)."""
    write_text(path, text, encoding=encoding, newline="", force=force, suffix=TEMPORARY_SUFFIX)
