"""The shared player registry kept clean: a player's record edited, two records of one person
merged (and the merge undone), by those whose tournaments alone use the player (``rights``)."""
