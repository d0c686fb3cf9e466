"""Tournaments: clubs, players, tournaments, entries; later rounds, pairings and standings.

Creates scoring matches and reads their confirmed results; never the other way round.
"""
