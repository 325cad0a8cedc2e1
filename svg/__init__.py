"""Pictures of the table as SVG: pure functions from a replay stop to SVG text (no rich, no terminal).

Each family draws its own table (`Family.picture`); this package holds what
every picture shares.
"""
