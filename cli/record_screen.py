"""`diamonds record` on a terminal: prompt_toolkit for the line (editing, history, completion on the
legal cards), the family's rich view for the table after each item, and what the last card caused.

prompt_toolkit rather than hand-written terminal code: it gives line editing, history and
completion that behave as users expect on every terminal, and keeps the screen a plain print.
"""

from __future__ import annotations

import argparse
import shutil
import textwrap
from collections.abc import Iterable
from typing import Any

from diamonds.core.viewer import NOBODY
from diamonds.io.escape import visible_lines
from diamonds.replay.recorder import QUIT_WORDS, Recorder
from diamonds.replay.steps import steps_of
from diamonds.views import view_for

from .console import console as make_console
from .errors import CommandError
from .inputs import display_path
from .record_cmd import EXIT_INTERRUPTED, EXIT_OK, enter, open_recorder, status, waiting_notice
from .replay_cmd import Escaped

__all__ = ["run_terminal"]

WIDTH, HEIGHT = 80, 24  # the screen fits a classic terminal

HELP = ("type cards (5H 9H 2S) or DGN lines (pass 2, deal Ann …, 3. 5H 9H 2S, end >Ann) · "
        "undo · fix R1.3.2 9H · swap R1.3.2 R1.3.3 · ? legal now · Ctrl-D or quit saves and leaves")

#: Under a round written without deal lines, played on a stand-in deal: why its hands are counts, and that its
#: cards are checked all the same, each as it is entered, against what the record proves.
STAND_IN = "hands unknown this round: shown as counts; every card is checked as it comes"


def run_terminal(args: argparse.Namespace) -> int:
    try:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import Completer, Completion
    except ImportError:
        raise CommandError('the terminal recorder needs prompt_toolkit: pip install "diamonds[record]" '
                           "(or feed the items through a pipe: line mode needs nothing more)") from None

    session: Any = PromptSession()
    recorder = open_recorder(args, ask=lambda question: session.prompt(question).strip())
    shown = display_path(args.file)

    class LegalCards(Completer):  # type: ignore[misc]
        """The legal cards when the hands are known, the victims or commands otherwise."""

        def get_completions(self, document: Any, complete_event: Any) -> Iterable[Any]:
            word = document.get_word_before_cursor(WORD=True)
            if recorder.question is not None:
                words = list(recorder.question.choices)
            elif recorder.hands_known():
                words = recorder.legal()
            else:
                words = ["undo", "fix", "swap", "?"]
            for candidate in words:
                if candidate.lower().startswith(word.lower()):
                    yield Completion(candidate, start_position=-len(word))

    message = ""
    interrupted = False
    while not recorder.finished:
        if recorder.question is not None:
            question = recorder.question
            rule = f"{question.rule}: " if question.rule else ""
            prompt = textwrap.fill(f"{rule}{question.message}", WIDTH - 1) + f"\n{question.prompt} "
        else:
            prompt = f"{recorder.where()} > "
        draw(recorder, message, prompt.count("\n") + 1)
        message = ""
        try:
            line = session.prompt(prompt, completer=LegalCards())
        except EOFError:
            break
        except KeyboardInterrupt:
            interrupted = True
            break
        if line.strip().lower() in QUIT_WORDS:
            break
        if line.strip().lower() == "help":
            message = HELP
            continue
        outcome = enter(recorder, line, args.deal)
        if outcome.accepted or outcome.info:
            args.saver.save(recorder.text)
        if outcome.refusal is not None:
            message = "refused: " + outcome.refusal.text(shown)
        elif outcome.info:
            message = visible_lines("\n".join(outcome.info))
    if recorder.finished:
        draw(recorder, "", 2)
    args.saver.save(recorder.text)
    if recorder.question is not None:  # the item that waited for its answer is not in the file: say so
        print(waiting_notice(recorder, shown, "interrupted" if interrupted else "left"))
    if interrupted:
        print(f"{shown}: interrupted; {status(recorder)}")
        return EXIT_INTERRUPTED
    print(f"{shown}: {status(recorder)}")
    return EXIT_OK


def draw(recorder: Recorder, message: str, prompt_lines: int) -> None:
    """The table as `replay` draws it at the last item, with its log of what the last cards caused (the
    Suit Actions, the Thief, the winner), the last message, and room left for the prompt: 80x24 at most.

    A round written without deal lines is drawn live, on its stand-in deal (`Recorder.replayed_live`): the
    trick, the tricks won, the Showrooms, the bids and the scores are the record's, but the hands were drawn
    at random, so the table is drawn as a watcher sees it (`NOBODY`): no hand, no secret Vault or score,
    no face-down card, as the server's picture of that round, the scorer's too."""
    size = shutil.get_terminal_size((WIDTH, HEIGHT))
    console = make_console(width=min(WIDTH, size.columns), height=max(8, min(HEIGHT, size.lines) - prompt_lines))
    replayed = recorder.replayed_live
    view = view_for(replayed.config.rules)
    steps = steps_of(replayed) if replayed.game is not None else []
    drawn = replayed.drawn_round is not None and not replayed.complete
    footer = [message] if message else []
    if drawn:
        footer.append(STAND_IN)
    else:  # a family that cannot draw a stand-in deal: the replay says what it could not check, and why
        footer.extend(recorder.notes)
    console.clear()
    if steps:
        as_seen = NOBODY if drawn else None
        console.print(Escaped(view.screen(steps[-1], len(steps) - 1, len(steps), as_seen, "\n".join(footer))))
    elif footer:
        console.print(visible_lines("\n".join(footer)), markup=False, highlight=False)
