"""The words Kirk's records use: deal lines (K2)."""

from diamonds.notation.words import Item, Shape, Words

WORDS = Words(items=(Item("deal", Shape.HAND),))
