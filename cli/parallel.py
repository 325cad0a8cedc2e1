"""The parallel map of every command; it lives in `diamonds.io.parallel` (shared with the analysis).

This module is that module itself (not a copy of its names), so that setting `parallel.BATCH_GAMES`
here sets it there."""

import sys

from diamonds.io import parallel as _parallel

sys.modules[__name__] = _parallel
