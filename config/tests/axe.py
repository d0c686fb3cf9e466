"""axe-core in the browser tests: installs the pinned npm package once (``npm ci`` in
config/tests/axe/) and runs it in a Playwright page, keeping the violations that matter.

The package is pinned in config/tests/axe/package-lock.json so every run judges the pages by the
same rules; ``node_modules`` is not committed. Without npm the test is skipped with the reason,
and under ``CI=true`` it fails instead (config.testing.service_unavailable)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from config.testing import service_unavailable

FOLDER = Path(__file__).resolve().parent / "axe"
SCRIPT = FOLDER / "node_modules" / "axe-core" / "axe.min.js"
#: the impacts the accessibility test refuses (moderate and minor ones are reported by axe too)
BLOCKING = ("critical", "serious")
RUN = """async () => {
    const result = await axe.run(document, {resultTypes: ["violations"]});
    return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        targets: v.nodes.map(n => n.target.join(" "))}));
}"""


def install() -> str:
    """axe.min.js's source, installed from the lockfile when it is not there yet."""
    if not SCRIPT.exists():
        npm = shutil.which("npm")
        if npm is None:
            service_unavailable("needs npm to install axe-core (apt-get install npm)")
        done = subprocess.run(  # noqa: S603 - a fixed command in the project's own folder
            [str(npm), "ci", "--no-audit", "--no-fund"], cwd=FOLDER, capture_output=True,
            text=True, timeout=300, check=False,
        )  # fmt: skip
        if done.returncode != 0 or not SCRIPT.exists():
            service_unavailable(f"npm ci of axe-core failed:\n{done.stderr[-2000:]}")
    return SCRIPT.read_text(encoding="utf-8")


def violations(page: Any, source: str) -> list[dict[str, Any]]:
    """The critical and serious violations on the page as it is now (axe is injected first; the
    browser context must bypass the site's CSP, which forbids inline scripts)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(content=source)
    return [v for v in page.evaluate(RUN) if v["impact"] in BLOCKING]
