"""Where loaders' records meet a store: the build pipeline and every incremental update.

Each function here reads what a loader needs from the store (through the stored queries in
`queries/state/`), hands it to the loader as plain values, writes the records the loader
yields, and returns a `SyncReport` saying what was written and what was skipped and why.
"""
