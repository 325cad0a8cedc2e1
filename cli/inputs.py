"""The text opener of every command; it lives in `diamonds.io.text` (shared with the analysis)."""

from diamonds.io.text import (  # noqa: F401
    BOM, DEFAULT_ENCODING, DecodedText, NotDecodable, display_path, encoding_name, games_in, open_text,
)

__all__ = ["open_text", "games_in", "display_path", "encoding_name", "DecodedText", "NotDecodable",
           "DEFAULT_ENCODING", "BOM"]
