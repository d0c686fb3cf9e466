"""«Генерал» played «на вылет» (RULES.md section 35): teams queue at one table; a team that
loses a stint (the set number of lost deals, or a general, as the match's ``end`` knob says)
gives its place to the next team in the queue and goes to its end.

    queue.py       the queue after each stint (pure)
    tables.py      the stints read from the tournament's rounds, the next table's pairing
    standings.py   each team's stints, generals and lost deals, ranked
    views.py       the public page: who is at the table, who waits, the standings

The score sheet judges each stint's deals (``rules.club``, ``general``); the queue, its order
and the ranking are kept here.
"""
