"""How each detector's cost grows with the length of hostile text (issue 36).

The audit's shapes (repeated call markup, repeated tags, long lines of brackets, special
tokens) and two ordinary ones, at growing lengths. For each shape and length: every
detector's time per character, the slowest detector, and ``run_detectors`` (which caps
the text, ``detectors/budget.py``). ``growth`` is the slowest detector's cost per
character at the largest length over that at the smallest: ~1 for a linear detector,
the length ratio for a quadratic one. Times are also given against one ``json.loads`` of
the same text as a JSON string, measured in the same run (the machine is shared).

    .venv/bin/python benchmarks/detector_scaling.py                 # 10k, 40k, 160k chars
    .venv/bin/python benchmarks/detector_scaling.py --sizes 10000,1000000 --json out.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from leakline.detectors import Exchange, run_detectors
from leakline.detectors.base import default_detectors

SHAPES: dict[str, str] = {
    "prose": "The quick brown fox jumps over the lazy dog. ",
    "korean": "오늘 서울의 날씨는 맑고 기온은 영상 십 도입니다. ",
    "unclosed_call": "<tool_call>",
    "call_json": '<tool_call>{"name": "get_weather", "arguments": {"city": "x"}}</tool_call>',
    "tags": "<a>",
    "think": "<think>",
    "special_tokens": "<|im_start|>",
    "brackets": "[[[[((((<<<<{{{{",
    "braces": '{"a": [',
}


def _exchange(text: str) -> Exchange:
    return Exchange(
        event_id="scaling",
        api="chat.completions",
        stream=False,
        visible_text=text,
        declared_tools={"get_weather": None},
        finish_reason="stop",
    )


def _best(fn: Callable[[Any], object], arg: Any, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        fn(arg)
        best = min(best, time.perf_counter() - started)
    return best


def measure(sizes: Sequence[int], runs: int = 2) -> dict[str, Any]:
    detectors = default_detectors()
    result: dict[str, Any] = {"sizes": list(sizes), "shapes": {}}
    for name, unit in SHAPES.items():
        rows = []
        for size in sizes:
            text = (unit * (size // len(unit) + 1))[:size]
            exchange = _exchange(text)
            encoded = json.dumps(text)
            decode = _best(json.loads, encoded, runs)
            per = {d.id: _best(d.detect, exchange, runs) for d in detectors}
            slowest = max(per, key=per.__getitem__)
            whole = _best(run_detectors, exchange, runs)
            rows.append(
                {
                    "chars": size,
                    "slowest": slowest,
                    "slowest_ns_per_char": round(per[slowest] / size * 1e9, 1),
                    "detectors_ns_per_char": round(sum(per.values()) / size * 1e9, 1),
                    "run_detectors_s": round(whole, 4),
                    "vs_json_decode": round(sum(per.values()) / decode, 1),
                }
            )
        growth = rows[-1]["detectors_ns_per_char"] / max(rows[0]["detectors_ns_per_char"], 1e-9)
        result["shapes"][name] = {"rows": rows, "growth": round(growth, 2)}
        print(_line(name, rows, growth), flush=True)
    return result


def _line(name: str, rows: list[dict[str, Any]], growth: float) -> str:
    cells = "  ".join(
        f"{r['chars']:>8,}: {r['detectors_ns_per_char']:>7.0f} ns/ch ({r['slowest']})" for r in rows
    )
    return f"{name:15s} {cells}  growth {growth:.2f}x"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,40000,160000", help="text lengths (chars)")
    parser.add_argument("--runs", type=int, default=2, help="timed runs per cell (best kept)")
    parser.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    args = parser.parse_args(argv)
    try:
        sizes = sorted(int(s) for s in args.sizes.split(","))
    except ValueError:
        parser.error("--sizes takes comma-separated integers, e.g. 10000,40000")
    print("all detectors, ns per character (slowest detector); growth: last/first per char")
    result = measure(sizes, args.runs)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
