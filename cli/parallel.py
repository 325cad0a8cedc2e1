"""The parallel map of every command; it lives in `diamonds.io.parallel` (shared with the analysis).

At run time this module *is* that module (not a copy of its names), so that setting
`diamonds.cli.parallel.BATCH_GAMES` sets it there; the names below are for readers and type checkers."""

import sys

from diamonds.io import parallel as _parallel
from diamonds.io.parallel import (  # noqa: F401
    BATCH_BYTES,
    BATCH_GAMES,
    DASK_MISSING,
    IN_FLIGHT_PER_WORKER,
    PARALLEL_FROM_BYTES,
    batches,
    close_clusters,
    connect,
    default_jobs,
    ordered_map,
)

sys.modules[__name__] = _parallel
