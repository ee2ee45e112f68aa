"""Views: rows of stored queries shaped into graphs, styles, exports and the study report.

Used by both the CLI and the HTTP API, and importing neither.
"""
