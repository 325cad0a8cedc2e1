"""The `diamonds` command: thin wiring of `notation` and `diamonds_core`."""
