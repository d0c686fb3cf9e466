"""The rules engine for domino matches: tiles, presets, judging deals, folding them into a match.

Pure Python: imports nothing from Django or the project's apps.
"""
