"""The words the bidding game's records use, in the order a hand writes them: deal lines and the kitty (B2),
bids (B3), takes from the kitty with the point card (B4), final bids (B5)."""

from diamonds.notation.words import Item, Shape, Words

WORDS = Words(items=(
    Item("deal", Shape.HAND), Item("kitty", Shape.CARDS), Item("bid", Shape.CALL),
    Item("take", Shape.EXCHANGE, second="point"), Item("final", Shape.CALL),
))
