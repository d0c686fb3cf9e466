"""Prizes: categories of players, category standings, the club classification and the prize
list (issue 30).

Owns: ``allocation`` and ``membership`` (pure: who belongs to a category, who wins which prize,
clubs by their best entries; no Django), ``lists`` (the bridge: the final standings cut into
those lists in a handful of queries), ``services`` (the organiser's changes, each one
transaction), ``sheets`` (the lists as CSV/XLSX/PDF rows), ``forms``, ``organiser`` (the
organiser's page) and ``views`` (the public pages and files).

May use: the shared layer, ``results`` (the standings it cuts) and ``stages`` (a final stage's
ranking comes first). Must not: hold standings arithmetic (``tournaments.standings``) or write
anything but categories, prizes and the players' sex and year of birth.
"""
