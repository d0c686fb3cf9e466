"""Template filters of the scoring pages."""
