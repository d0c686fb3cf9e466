"""The command line of the rules engine (contract in RULES.md section 13)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from .contract import EXIT_UNUSABLE, check, check_text, unusable
from .errors import RulesError
from .fives.presets import fives_catalogue
from .games import catalogue as games_catalogue
from .presets import catalogue


def _print(obj: Any, compact: bool = False) -> None:
    if compact:  # a batch is for programs: no indentation, which would double its size
        sys.stdout.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
    else:
        sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=1))
    sys.stdout.write("\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules",
                                     description="Judge domino match records.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_check = sub.add_parser("check", help="judge one match (JSON) and print the verdict")
    p_check.add_argument("file", help="a JSON file, or - for standard input")
    p_check.add_argument("--batch", action="store_true",
                         help="the input is a JSON list of matches; print a list of verdicts")
    p_presets = sub.add_parser("presets", help="print every preset and knob as JSON")
    p_presets.add_argument("--fives", action="store_true",
                           help="the fives games' presets (RULES.md 16) instead")
    p_presets.add_argument("--all", action="store_true",
                           help="every game of the registry (rules.games), with its family")
    args = parser.parse_args(argv)

    if args.command == "presets" and args.all:
        _print(games_catalogue())
        return 0
    if args.command == "presets":
        _print(fives_catalogue() if args.fives else catalogue())
        return 0

    try:
        if args.file == "-":
            text: str | bytes = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as fh:
                text = fh.read()
    except OSError as err:
        _print(unusable(RulesError("bad_input", f"cannot read {args.file}: {err}",
                                       f"не читается {args.file}: {err}").problem))
        return EXIT_UNUSABLE

    if not args.batch:
        out, status = check_text(text)
        _print(out)
        return status
    try:
        matches = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        _print(unusable(RulesError("bad_input", f"not JSON: {err}", f"это не JSON: {err}").problem))
        return EXIT_UNUSABLE
    if not isinstance(matches, list):
        _print(unusable(RulesError("bad_input", "--batch needs a JSON list",
                                       "для --batch нужен JSON-список").problem))
        return EXIT_UNUSABLE
    results = [check(m) for m in matches]
    _print([out for out, _ in results], compact=True)
    return max((status for _, status in results), default=0)
