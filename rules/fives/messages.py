"""Messages of the error codes that only the fives games have (RULES.md sections 21 and 32).

The codes the fives judge shares with section 12 (``bad_tile``, ``missing_hand`` …) keep their
meaning and their messages in ``rules.errors``. The new ones are added to the same table at import,
so a ``Problem`` words them like any other; a code already there is never overwritten.
"""

from __future__ import annotations

from ..errors import MESSAGES

FIVES_MESSAGES: dict[str, tuple[str, str]] = {
    "not_your_turn": (
        "Entry {entry}: it is {expected_seat}'s turn, not {seat}'s",
        "Запись {entry}: сейчас ход места {expected_seat}, а не {seat}",
    ),
    "tile_already_played": (
        "Entry {entry}: tile {tile} is already on the table",
        "Запись {entry}: кость {tile} уже на столе",
    ),
    "bad_end": (
        "Entry {entry}: tile {tile} cannot be laid there: {detail}",
        "Запись {entry}: кость {tile} туда не ставится: {detail_ru}",
    ),
    "tile_does_not_match_end": (
        "Entry {entry}: tile {tile} does not show the number of {end}",
        "Запись {entry}: на кости {tile} нет числа конца {end}",
    ),
    "points_mismatch": (
        "Entry {entry}: {tile} scores {expected}, but {points} is written",
        "Запись {entry}: ход {tile} даёт {expected}, а записано {points}",
    ),
    "play_after_end": (
        "Entry {entry}: the play was already over ({detail})",
        "Запись {entry}: игра уже закончилась ({detail_ru})",
    ),
    "bad_draw": (
        "Draw: {detail}",
        "Добор: {detail_ru}",
    ),
    "must_draw": (
        "Entry {entry}: seat {seat} passes while {left} {left|tile is|tiles are} left to draw",
        "Запись {entry}: место {seat} пропускает ход, а в базаре ещё {left} "
        "{left|кость|кости|костей}",
    ),
    "draw_mismatch": (
        "Drawn tile {tile} (seat {seat}): {detail}",
        "Взятая из базара кость {tile} (место {seat}): {detail_ru}",
    ),
    "could_play": (
        "Entry {entry}: seat {seat} could play {tile} instead of drawing or passing",
        "Запись {entry}: место {seat} могло сходить {tile}, а не брать из базара или пропускать",
    ),
    "impossible_points": (
        "Entry {entry}: no move scores {points} (a positive multiple of 5, at most {limit})",
        "Запись {entry}: ни один ход не даёт {points} (кратно 5, больше 0, не больше {limit})",
    ),
    "target_not_reached": (
        "The deal is recorded as stopped at the target, but no move reached {target}",
        "Раздача записана как остановленная на цели, но ни один ход не довёл до {target}",
    ),
    "bad_multi_move": (
        "Entry {entry}: {tiles} cannot be laid in one move: only 2 to 4 different doubles, "
        "each on an end of its own",
        "Запись {entry}: {tiles} нельзя выставить одним ходом: только от 2 до 4 разных дублей, "
        "каждый на свой конец",
    ),
    "hand_too_small": (
        "Seat {seat} holds {count} {count|tile|tiles}, but the play leaves it {expected}",
        "У места {seat} {count} {count|кость|кости|костей}, а по записи ходов должно остаться "
        "{expected}",
    ),
}

for _code, _texts in FIVES_MESSAGES.items():
    MESSAGES.setdefault(_code, _texts)
