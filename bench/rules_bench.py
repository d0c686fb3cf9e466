"""How many tile-checked deals per second the rules engine judges (target: 50,000 on one core).

    python bench/rules_bench.py [--matches 3000] [--preset sport] [--seed 1]

Simulated legal matches with every hand written as tiles are judged through the library
(``Judge.fold``, as the web app does) and through the CLI (``python -m rules check --batch`` on one
file holding all the matches, start-up included). Prints the figures; asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.contract import check  # noqa: E402
from rules.engine import Judge  # noqa: E402
from rules.presets import make_rules  # noqa: E402
from rules.simulate import play_match  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=3000)
    parser.add_argument("--preset", default="sport")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

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


if __name__ == "__main__":
    main()
