"""Admin of the scoring app: nothing registered until the match tables exist."""
