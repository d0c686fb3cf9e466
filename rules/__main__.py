"""Command line: ``python -m rules check FILE|-`` and ``python -m rules presets``."""

from .cli import main

raise SystemExit(main())
