"""The knock-out as its pages show it: the bracket level by level, and the final ranking.

    bracket_page(tournament, stage) -> BracketPage     a few queries, whatever the bracket; the
                                                       groups' tables and a final round robin's
                                                       table too
    final_ranking(tournament, stage, bracket, names) -> [RankLine]

The final ranking puts the knock-out's places first (the champion, the runner-up, the match for
third place, then the losers of each earlier level by seed) and then every other entry by the
qualifying standings (the snapshot of the last qualifying round). Reads only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tournaments.models import Entry, Round, Stage, Standing, Tournament
from tournaments.pairing import knockout
from tournaments.pairing.knockout import Bracket, Tie
from tournaments.stages import bracket as brackets
from tournaments.stages import tables as stage_tables


@dataclass
class Side:
    entry: int | None
    name: str
    seed: int | None
    wins: int = 0
    winner: bool = False


@dataclass
class GameLine:
    round: int
    winner: str  # the winner's name; "" for a draw or a game in play
    done: bool


@dataclass
class TieView:
    label: str
    sides: list[Side]
    games: list[GameLine] = field(default_factory=list)
    state: str = "waiting"  # waiting, in_play, decided, bye
    third_place: bool = False


@dataclass
class LevelView:
    number: int
    name: str
    ties: list[TieView]


@dataclass
class RankLine:
    place: int
    entry: int
    name: str
    reached: str
    qualifying_rank: int | None


@dataclass
class BracketPage:
    stage: Stage | None
    bracket: Bracket | None
    levels: list[LevelView]
    ranking: list[RankLine]
    champion: str
    finished: bool
    groups: list[stage_tables.GroupTable] = field(default_factory=list)
    final_table: list[stage_tables.FinalLine] = field(default_factory=list)


def _tie_view(tie: Tie, br: Bracket, names: dict[int, str], label: str) -> TieView:
    sides = [Side(e, names.get(e, "?") if e is not None else _("bye"),
                  br.seeds.get(e) if e is not None else None, tie.wins.get(e or 0, 0),
                  tie.decided and e is not None and e == tie.winner)
             for e in (tie.a, tie.b)]  # fmt: skip
    games = [GameLine(g.round, names.get(g.winner, "") if g.winner else "", g.done)
             for g in tie.games]  # fmt: skip
    if tie.bye:
        state = "bye"
    elif tie.decided:
        state = "decided"
    elif tie.in_play or tie.games:
        state = "in_play"
    else:
        state = "waiting"
    return TieView(label, sides, games, state, tie.third_place)


def _levels(br: Bracket, names: dict[int, str]) -> list[LevelView]:
    levels = []
    for number in range(1, br.depth + 1):
        name = brackets.level_name(br, number)
        if number <= len(br.levels):
            ties = [_tie_view(t, br, names, _("Tie %(n)s") % {"n": t.slot + 1})
                    for t in br.levels[number - 1]]  # fmt: skip
        else:  # not built yet: the winners of the level before
            count = br.size >> number
            ties = [TieView(_("Tie %(n)s") % {"n": i + 1},
                            [Side(None, _("to be decided"), None),
                             Side(None, _("to be decided"), None)])
                    for i in range(count)]  # fmt: skip
        if number == br.depth and br.third is not None:
            ties.append(_tie_view(br.third, br, names, _("Third place")))
        levels.append(LevelView(number, name, ties))
    return levels


def _qualifying_order(tournament: Tournament) -> list[tuple[int, int]]:
    """(entry, rank) of the last finished qualifying round's snapshot."""
    last = (tournament.round_set.filter(stage__isnull=True, status=Round.Status.FINISHED)
            .order_by("-number").values_list("number", flat=True).first())  # fmt: skip
    if last is None:
        return []
    return list(Standing.objects.filter(round__tournament=tournament, round__number=last,
                                        scope=Standing.Scope.ENTRIES)
                .order_by("rank").values_list("entry_id", "rank"))  # fmt: skip


def final_ranking(tournament: Tournament, br: Bracket, names: dict[int, str]) -> list[RankLine]:
    qualifying = _qualifying_order(tournament)
    rank_of = dict(qualifying)
    third = br.third if br.third is not None and br.third.decided else None
    lines = []
    for entry, out in knockout.placings(br):
        if out > br.depth:
            reached = _("Champion")
        elif third is not None and entry == third.winner:
            reached = _("Third place")
        elif third is not None and entry == third.loser:
            reached = _("Fourth place")
        else:
            reached = brackets.level_name(br, out)
        lines.append(RankLine(len(lines) + 1, entry, names.get(entry, "?"), reached,
                              rank_of.get(entry)))  # fmt: skip
    for entry, rank in qualifying:
        if entry not in br.seeds:
            lines.append(RankLine(len(lines) + 1, entry, names.get(entry, "?"),
                                  _("Qualifying stage"), rank))  # fmt: skip
    return lines


def bracket_page(tournament: Tournament, stage: Stage | None) -> BracketPage:
    first = tournament.stages.filter(number=1, kind=Stage.Kind.GROUPS).first()
    groups = []
    if first is not None and first.members:
        per_group = stage.per_group if stage is not None else first.per_group
        groups = stage_tables.group_tables(tournament, first, per_group)
    if stage is None or not stage.started:
        return BracketPage(stage, None, [], [], "", False, groups)
    if stage.kind == Stage.Kind.ROUND_ROBIN:
        return _round_robin_page(tournament, stage, groups)
    br = brackets.load(stage)
    names = dict(Entry.objects.filter(tournament=tournament).values_list("pk", "name"))
    champion = names.get(br.champion, "") if br.champion is not None else ""
    ranking = final_ranking(tournament, br, names) if br.finished else []
    return BracketPage(stage, br, _levels(br, names), ranking, champion, br.finished, groups)


def _round_robin_page(tournament: Tournament, stage: Stage,
                      groups: list[stage_tables.GroupTable]) -> BracketPage:  # fmt: skip
    """A final round robin: its table; over once its every round is finished."""
    table = stage_tables.final_table(tournament, stage)
    done = stage.rounds.filter(status=Round.Status.FINISHED).count()
    finished = done >= brackets.final_rounds(stage)
    ranking: list[RankLine] = []
    champion = ""
    if finished:
        rank_of = dict(_qualifying_order(tournament))
        ranking = [RankLine(n, line.entry, line.name, _("Final round robin"),
                            rank_of.get(line.entry)) for n, line in enumerate(table, 1)]
        names = dict(Entry.objects.filter(tournament=tournament).values_list("pk", "name"))
        for entry, rank in _qualifying_order(tournament):
            if entry not in stage.seeds:
                ranking.append(RankLine(len(ranking) + 1, entry, names.get(entry, "?"),
                                        _("Qualifying stage"), rank))  # fmt: skip
        champion = table[0].name if table else ""
    return BracketPage(stage, None, [], ranking, champion, finished, groups, table)
