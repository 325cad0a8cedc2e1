"""The words Fitzgerald's records use: deal and pass lines, the end-of-round award (`end >Bob`, R16),
and the pass count in the round header (`R1 dealer Ann pass 2`, R6)."""

from diamonds.notation.words import Item, Shape, Words

WORDS = Words(
    items=(Item("deal", Shape.HAND), Item("pass", Shape.HAND), Item("end", Shape.END)),
    header_count="pass",
    header_count_note="in Fitzgerald's games",
)
