"""Coverage tables for the corpus (printed by the build and the validation scripts)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .shapes import HARDNEG_KINDS, LABELS

LANGS = ("en", "ko", "zh", "ja")


def api_key(event: dict[str, Any]) -> str:
    return f"{event['api']}{' (stream)' if 'chunks' in event else ''}"


def coverage(cases: list[dict[str, Any]]) -> str:
    n = len(cases)
    clean = sum(1 for c in cases if not c["expected_labels"])
    per_label = Counter(label for c in cases for label in c["expected_labels"])
    per_lang = Counter(c["lang"] for c in cases)
    per_api = Counter(api_key(c["event"]) for c in cases)
    per_family = Counter(c["family"] for c in cases)
    label_api: dict[str, Counter[str]] = {label: Counter() for label in LABELS}
    label_lang: dict[str, Counter[str]] = {label: Counter() for label in LABELS}
    for c in cases:
        for label in c["expected_labels"]:
            label_api[label][c["event"]["api"]] += 1
            label_lang[label][c["lang"]] += 1

    lines = [
        f"cases: {n}   clean: {clean} ({100 * clean / max(n, 1):.0f}%)   labeled: {n - clean}",
        "",
    ]
    lines.append("| label | cases | chat | responses | messages | en | ko | zh | ja |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label in LABELS:
        a, g = label_api[label], label_lang[label]
        lines.append(
            f"| {label} | {per_label[label]} | {a['chat.completions']} | {a['responses']} "
            f"| {a['messages']} | {g['en']} | {g['ko']} | {g['zh']} | {g['ja']} |"
        )
    lines.append("")
    lines.append("| lang | cases |")
    lines.append("|---|---:|")
    for lang, k in sorted(per_lang.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {lang} | {k} |")
    lines.append("")
    lines.append("| api | cases |")
    lines.append("|---|---:|")
    for api, k in sorted(per_api.items()):
        lines.append(f"| {api} | {k} |")
    lines.append("")
    lines.append("| family | cases |")
    lines.append("|---|---:|")
    for fam, k in sorted(per_family.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"| {fam} | {k} |")

    forms: dict[str, Counter[str]] = {"tagged": Counter(), "untagged": Counter()}
    for c in cases:
        if "reasoning_form" in c:
            forms[c["reasoning_form"]][c["lang"]] += 1
    lines += [
        "",
        "| reasoning_leak form | cases | en | ko | zh | ja |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for form, g in forms.items():
        lines.append(
            f"| {form} | {sum(g.values())} | " + " | ".join(str(g[x]) for x in LANGS) + " |"
        )

    kinds: dict[str, Counter[str]] = {k: Counter() for k in HARDNEG_KINDS}
    for c in cases:
        if "kind" in c:
            kinds[c["kind"]][c["lang"]] += 1
    total = sum(sum(g.values()) for g in kinds.values())
    lines += ["", f"| hard negative kind ({total}) | cases | en | ko | zh | ja |"]
    lines.append("|---|---:|---:|---:|---:|---:|")
    for kind, g in kinds.items():
        lines.append(
            f"| {kind} | {sum(g.values())} | " + " | ".join(str(g[x]) for x in LANGS) + " |"
        )

    groups: dict[str, list[dict[str, Any]]] = {}
    for c in cases:
        if "group" in c:
            groups.setdefault(c["group"], []).append(c)
    lines += ["", "| group | family | lang | leaking variant | labels |", "|---|---|---|---|---|"]
    for name, members in sorted(groups.items()):
        leaky = [c for c in members if c["expected_labels"]]
        variants = ", ".join(
            f"{'stream' if 'chunks' in c['event'] else 'non-stream'}"
            f"{'+stop' if c['event']['request'].get('stop') else ''}"
            for c in leaky
        )
        labels = sorted({label for c in leaky for label in c["expected_labels"]})
        lines.append(
            f"| {name} | {members[0]['family']} | {members[0]['lang']} | {variants} | "
            f"{', '.join(labels)} |"
        )
    return "\n".join(lines)
