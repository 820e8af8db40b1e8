#!/usr/bin/env python3
"""Prints criterion's mean times side by side, with ratios to near-rpc (run after
`cargo bench --bench decode`)."""
import json, os, sys
from collections import defaultdict

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "target", "criterion")
rows = defaultdict(dict)
for group in sorted(os.listdir(root)):
    gdir = os.path.join(root, group)
    if not os.path.isdir(gdir) or group == "report":
        continue
    for decoder in sorted(os.listdir(gdir)):
        ddir = os.path.join(gdir, decoder)
        if not os.path.isdir(ddir) or decoder == "report":
            continue
        for payload in sorted(os.listdir(ddir)):
            est = os.path.join(ddir, payload, "new", "estimates.json")
            if os.path.exists(est):
                mean = json.load(open(est))["mean"]["point_estimate"]
                rows[(group, payload)][decoder] = mean
decoders = ["near-rpc", "near-rpc-with-paths", "near-openapi-types", "serde_json-Value"]
print("| payload | " + " | ".join(decoders) + " | peer / near-rpc | Value / near-rpc |")
print("|---|" + "---|" * (len(decoders) + 2))
for (group, payload), times in sorted(rows.items()):
    cells = [f"{times[d] / 1000:.1f} µs" if d in times else "-" for d in decoders]
    ours = times.get("near-rpc")
    ratio = lambda d: f"{times[d] / ours:.2f}×" if ours and d in times else "-"
    print(f"| {group} / {payload.replace('_', ' ')} | " + " | ".join(cells) + f" | {ratio('near-openapi-types')} | {ratio('serde_json-Value')} |")
