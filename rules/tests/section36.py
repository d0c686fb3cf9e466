"""Reading RULES.md section 36's worked examples (not a test module): each example's title, input
and expected output, as the committed copies in ``contract_examples/section36`` hold them."""

from __future__ import annotations

import json
import re
from typing import Any

_HEAD = re.compile(r"^(\d+)\. \*\*`(\w+)`: (.*?)\*\*", re.M)
_BLOCK = re.compile(r"```json\n(.*?)```", re.S)
_STATUS = re.compile(r"Output \(exit status (\d)\)")


def examples(rules_md: str) -> list[dict[str, Any]]:
    """Section 36's examples: ``{"note", "preset", "input", "output", "status"}`` each."""
    start = rules_md.index("## 36. Worked examples")
    end = rules_md.find("\n## ", start + 10)
    text = rules_md[start:end if end > 0 else None]
    heads = list(_HEAD.finditer(text))
    out = []
    for i, head in enumerate(heads):
        body = text[head.end(): heads[i + 1].start() if i + 1 < len(heads) else None]
        blocks = _BLOCK.findall(body)
        status = _STATUS.search(body)
        assert len(blocks) == 2 and status, head.group(0)
        out.append({"note": f"RULES.md section 36, example {head[1]}: {head[3]}",
                    "preset": head[2], "input": json.loads(blocks[0]),
                    "output": json.loads(blocks[1]), "status": int(status[1])})
    return out


def file_name(example: dict[str, Any]) -> str:
    number = int(example["note"].split("example ")[1].split(":")[0])
    return f"{number:02d}-{example['preset']}.json"
