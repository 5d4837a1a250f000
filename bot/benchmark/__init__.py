"""``parlbot bench``: a synthetic corpus anyone can generate, and a benchmark anyone can run on their own
dataset and queries (docs/benchmarks.md). No Discord here: everything runs through ``bot.library``."""
