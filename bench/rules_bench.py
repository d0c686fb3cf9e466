"""How many tile-checked deals per second the rules engine judges (target: 50,000 on one core),
and how many moves per second the fives judge does (target: 200,000 on one core).

    python bench/rules_bench.py [--matches 3000] [--preset sport] [--seed 1] [--mypyc]
                                [--mypyc-tests] [--fives-matches 600] [--club-matches 300]

Simulated legal matches with every hand written as tiles are judged through the library
(``Judge.fold``, as the web app does) and through the CLI (``python -m rules check --batch`` on one
file holding all the matches, start-up included); simulated fives matches (draws named, hands and
boneyard as tiles) through ``FivesJudge.fold``. ``--mypyc`` then compiles the same source, the
fives games included, with mypyc in a temporary folder (needs mypy and a C compiler) and measures
it the same way; ``--mypyc-tests`` first runs the rules tests against that build. Prints the
figures; asserts nothing about speed. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.contract import check  # noqa: E402
from rules.engine import judge as judge_module  # noqa: E402
from rules.engine.judge import Judge  # noqa: E402
from rules.presets import make_rules  # noqa: E402
from rules.simulate import play_match  # noqa: E402

COMPILED = [
    "tiles.py", "errors.py", "presets.py", "engine/types.py", "engine/base.py",
    "engine/reading.py", "engine/checks.py", "engine/ending.py", "engine/scoring.py",
    "engine/judge.py", "contract.py",
    # the fives games: FivesRules derives from the compiled Seating, and an interpreted class
    # cannot derive from a compiled one, so the package is compiled with the rest
    "fives/types.py", "fives/presets.py", "fives/table.py", "fives/reading.py", "fives/hands.py",
    "fives/after.py", "fives/strong.py", "fives/light.py", "fives/scoring.py", "fives/judge.py",
    "fives/contract.py", "fives/messages.py", "fives/telefon.py",
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=3000)
    parser.add_argument("--preset", default="sport")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--mypyc", action="store_true",
                        help="also measure the same source compiled with mypyc")
    parser.add_argument("--mypyc-tests", action="store_true",
                        help="with --mypyc: first run the rules tests against the compiled build")
    parser.add_argument("--club-matches", type=int, default=300,
                        help="matches of each club game (RULES.md 24-31); 0: skip")
    parser.add_argument("--fives-matches", type=int, default=600,
                        help="fives matches (RULES.md 15-23) judged move by move; 0: skip")
    args = parser.parse_args()
    from rules.fives import strong as fives_strong

    build = "compiled with mypyc" if judge_module.__file__.endswith(".so") else "pure Python"
    fives_build = "compiled" if str(fives_strong.__file__).endswith(".so") else "pure Python"
    print(f"rules package: {build}, rules.fives {fives_build} "
          f"({Path(judge_module.__file__).parent.parent})")

    rules = make_rules(args.preset)
    rng = random.Random(args.seed)
    matches = [play_match(rules, rng, style="tiles", declare=True) for _ in range(args.matches)]
    deals = sum(len(m) for m in matches)
    print(f"preset {args.preset}: {args.matches} matches, {deals} deals with tiles "
          f"(python {sys.version.split()[0]}, one process)")

    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        judge = Judge(rules)
        for m in matches:
            verdict = judge.fold(m)
            assert verdict.ok
        best = min(best, time.perf_counter() - start)
    print(f"library Judge.fold:      {deals / best:,.0f} deals/s (best of {args.repeat})")

    best = float("inf")
    inputs = [{"preset": args.preset, "deals": m} for m in matches]
    for _ in range(args.repeat):
        start = time.perf_counter()
        for payload in inputs:
            out, status = check(payload)
            assert status == 0
        best = min(best, time.perf_counter() - start)
    print(f"library contract.check: {deals / best:,.0f} deals/s incl. JSON-shaped output")

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(inputs, fh)
        path = fh.name
    try:
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "rules", "check", "--batch", path],
                              cwd=ROOT, capture_output=True, check=False)
        elapsed = time.perf_counter() - start
    finally:
        os.unlink(path)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    print(f"CLI check --batch:      {deals / elapsed:,.0f} deals/s "
          f"(one process, start-up, JSON in and out)")
    if args.club_matches:
        from club_deals import measure

        print("club games (pure Python, simple line-play generator, bench/club_deals.py):")
        measure(args.club_matches, args.repeat, args.seed)
    if args.fives_matches:
        _measure_fives(args)
    if args.mypyc:
        _measure_compiled(args)


def _measure_fives(args: argparse.Namespace) -> None:
    """Fives games (target: 200,000 moves/s on one core, pure Python): simulated matches with
    named draws, hands and boneyard as tiles, judged through ``FivesJudge.fold``."""
    from rules.fives import FivesJudge, make_fives_rules
    from rules.simulate import play_fives_match

    # telefon (RULES.md 32): a move may lay several doubles, counted as one move
    for preset, players in (("fives", 2), ("muggins", 2), ("muggins", 4), ("telefon", 2),
                            ("telefon", 4)):
        rules = make_fives_rules(preset, None, players)
        rng = random.Random(args.seed)
        matches = [play_fives_match(rules, rng, style="tiles", declare=True)
                   for _ in range(args.fives_matches)]
        deals = sum(len(m) for m in matches)
        entries = sum(len(d["play"]) for m in matches for d in m)
        moves = sum(1 for m in matches for d in m for e in d["play"] if "tile" in e or "tiles" in e)
        judge = FivesJudge(rules)
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            for m in matches:
                assert judge.fold(m).ok
            best = min(best, time.perf_counter() - start)
        print(f"fives {preset} x{players}: {deals} deals, {moves} moves, {entries} entries: "
              f"{moves / best:,.0f} moves/s, {entries / best:,.0f} entries/s, "
              f"{deals / best:,.0f} deals/s (FivesJudge.fold, best of {args.repeat})")


def _measure_compiled(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        # the build one level down, so that the tests find shared/ beside it as they find it
        # beside the repository (rules/tests/_support.py looks two levels above the tests)
        build = Path(tmp) / "build"
        shutil.copytree(ROOT / "rules", build / "rules",
                        ignore=shutil.ignore_patterns("tests", "*.so", "__pycache__"))
        (build / "bench").mkdir()
        shutil.copy(__file__, build / "bench" / "rules_bench.py")
        print("\ncompiling rules/ with mypyc …", flush=True)
        built = subprocess.run([sys.executable, "-m", "mypyc", *(f"rules/{m}" for m in COMPILED)],
                               cwd=build, capture_output=True, text=True, check=False)
        if built.returncode:
            print("mypyc build failed:\n" + built.stdout[-2000:] + built.stderr[-2000:])
            return
        if args.mypyc_tests:
            shutil.copytree(ROOT / "rules" / "tests", build / "rules" / "tests",
                            ignore=shutil.ignore_patterns("__pycache__"))
            for shared in (ROOT.parent / "shared", ROOT / "shared"):
                if (shared / "examples").is_dir():
                    (Path(tmp) / "shared").symlink_to(shared)
                    break
            print("rules tests against the compiled build …", flush=True)
            tested = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                     "rules/tests"], cwd=build, check=False)
            if tested.returncode:
                print(f"the rules tests failed against the compiled build "
                      f"(exit {tested.returncode})")
                sys.exit(tested.returncode)
        subprocess.run([sys.executable, "bench/rules_bench.py", "--matches", str(args.matches),
                        "--preset", args.preset, "--seed", str(args.seed),
                        "--repeat", str(args.repeat), "--fives-matches", str(args.fives_matches)],
                       cwd=build, check=True)


if __name__ == "__main__":
    main()
