"""Stages: a final stage after the qualifying rounds (a knock-out of the best of the standings).

Owns: ``services`` (the final stage set up, and started: its seeds frozen from the qualifying
standings), ``bracket`` (the bridge from the knock-out's rounds to the pure bracket of
``tournaments.pairing.knockout``), ``display`` (the bracket and the final ranking as pages show
them), ``forms`` and ``views`` (the organiser's stages page, the public bracket page).

May use: the shared layer, the pure ``pairing`` package, ``scoring`` (a table's match decides a
game). Must not: import rounds (rounds pairs a knock-out round by asking ``bracket``; starting
the stage with its first round paired is ``rounds.services.start_final_stage``).
"""
