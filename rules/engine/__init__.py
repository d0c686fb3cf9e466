"""The engine: judging deals and folding them into a match (``Judge`` in ``judge.py``).

The ``Judge`` is one class built in layers, one module per stage of judging a deal; each layer is
a subclass of the one above it here:

    base.JudgeBase        the rules in force, read once into the settings every stage uses
    reading.RecordReader  a deal record read into tile masks and checked seats
    checks.DealChecks     the tile-level checks: the hands' structure, then the line, the block,
                          the redeal, the leader, the lead tile and the finishing tiles
    ending.MatchEnding    the end of the match: deals, target, time, the Морской козёл instant win
    scoring.DealScoring   the scoring of a deal: values, lone doubles, eggs, hanging, minimums
    judge.Judge           judges deal after deal and folds a whole match

A single chain rather than mixins because mypyc compiles single inheritance only (``python
bench/rules_bench.py --mypyc``); the end of the match sits below the scoring because the scoring
calls it. ``types.py`` holds the match state and the verdicts, and the record and the refusal the
stages pass each other. The public names are exported by the ``rules`` package.
"""
