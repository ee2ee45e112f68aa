"""Uptake: a graph knowledge base of RL post-training methods, papers and frameworks."""

__version__ = "0.1.0"
