"""Scoring: a match at a table, its deals and the protocol's life. Uses rules/ for every judgement.

Knows nothing about tournaments (imports run tournaments → scoring → rules).
"""
