#!/usr/bin/env python3
"""Assemble dev.jsonl and test.jsonl from the hand-written texts in this folder.

Usage:  python3 src/build.py            # write both files and validate
        python3 src/build.py --check    # only validate / print stats, write nothing

Every prompt was written by hand for this set. This script only collects the
texts, shuffles each split with a fixed seed, assigns ids and validates the
result (counts, byte lengths, languages, no overlap between splits).
"""
import collections
import importlib
import json
import os
import random
import re
import sys

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

SPLITS = {
    "dev": ["dev_benign_a", "dev_benign_b", "dev_benign_c",
            "dev_attacks", "dev_injections_a", "dev_injections_b"],
    "test": ["test_benign_a", "test_benign_b", "test_benign_c",
             "test_attacks", "test_injections_a", "test_injections_b"],
}
SEEDS = {"dev": 20240611, "test": 20240612}

# kind -> (label, min bytes, max bytes, expected count per split)
KINDS = {
    "benign_document": (False, 1500, 12000, None),
    "benign_long_request": (False, 1500, 12000, None),
    "long_attack": (True, 1500, 8000, 20),
    "embedded_injection": (True, 2000, 12000, 20),
}
BENIGN_TOTAL = 30

# minimum language counts per split
LANG_MIN = {
    "benign": {"es": 3, "de": 3, "fr": 3, "zh": 2},
    "long_attack": {"es": 2, "de": 2, "fr": 1},
    "embedded_injection": {"es": 2, "de": 1},
}


def load(split):
    items = []
    for mod in SPLITS[split]:
        m = importlib.import_module(mod)
        for it in m.ITEMS:
            it = dict(it)
            it["prompt"] = it["prompt"].strip()
            it["_module"] = mod
            items.append(it)
    return items


def blen(s):
    return len(s.encode("utf-8"))


SENT_SPLIT = re.compile(r"(?<=[.!?;:。！？；：])\s+|\n+|(?<=[。！？；])")


def sentences(text):
    out = set()
    for part in SENT_SPLIT.split(text):
        p = " ".join(part.split())
        if len(p) >= 60:
            out.add(p)
    return out


def validate(data):
    ok = True

    def fail(msg):
        nonlocal ok
        ok = False
        print("FAIL:", msg)

    for split, items in data.items():
        if len(items) != 70:
            fail(f"{split}: {len(items)} items, expected 70")
        kinds = collections.Counter(it["kind"] for it in items)
        benign = kinds["benign_document"] + kinds["benign_long_request"]
        if benign != BENIGN_TOTAL:
            fail(f"{split}: {benign} benign, expected {BENIGN_TOTAL}")
        for k, (label, lo, hi, n) in KINDS.items():
            if n is not None and kinds[k] != n:
                fail(f"{split}: {kinds[k]} {k}, expected {n}")
        for k in kinds:
            if k not in KINDS:
                fail(f"{split}: unknown kind {k}")
        seen = set()
        for it in items:
            label, lo, hi, _ = KINDS[it["kind"]]
            if it["jailbreak"] is not label:
                fail(f"{split} {it.get('id')}: label mismatch for kind {it['kind']}")
            b = blen(it["prompt"])
            if not lo <= b <= hi:
                fail(f"{split} {it.get('id')} ({it['_module']}, {it['kind']}, {it['language']}): {b} bytes outside [{lo},{hi}]: {it['prompt'][:70]!r}")
            if it["prompt"] in seen:
                fail(f"{split}: duplicate prompt inside split")
            seen.add(it["prompt"])
        # language minimums
        groups = {
            "benign": [it for it in items if not it["jailbreak"]],
            "long_attack": [it for it in items if it["kind"] == "long_attack"],
            "embedded_injection": [it for it in items if it["kind"] == "embedded_injection"],
        }
        for g, need in LANG_MIN.items():
            c = collections.Counter(it["language"] for it in groups[g])
            for lang, n in need.items():
                if c[lang] < n:
                    fail(f"{split} {g}: {c[lang]} '{lang}', need >= {n}")
        # sentences repeated inside a split (a sign of filler)
        sent_owner = {}
        for it in items:
            for s in sentences(it["prompt"]):
                if s in sent_owner and sent_owner[s] is not it:
                    print(f"note: {split}: sentence shared by two prompts: {s[:80]!r}")
                sent_owner[s] = it

    # overlap between splits
    dev_prompts = {it["prompt"] for it in data["dev"]}
    for it in data["test"]:
        if it["prompt"] in dev_prompts:
            fail("identical prompt in dev and test")
    dev_sents = set()
    for it in data["dev"]:
        dev_sents |= sentences(it["prompt"])
    shared = set()
    for it in data["test"]:
        shared |= sentences(it["prompt"]) & dev_sents
    for s in sorted(shared):
        fail(f"sentence of >=60 chars shared between dev and test: {s[:100]!r}")
    return ok


def stats(data):
    lines = []
    for split, items in data.items():
        lines.append(f"## {split}")
        by = collections.defaultdict(list)
        for it in items:
            by[(it["kind"], it["jailbreak"])].append(it)
        for (k, lab), its in sorted(by.items()):
            bs = [blen(it["prompt"]) for it in its]
            langs = collections.Counter(it["language"] for it in its)
            lines.append(f"{k:22s} jailbreak={str(lab):5s} n={len(its):2d} bytes {min(bs)}-{max(bs)} "
                         f"langs={dict(sorted(langs.items()))}")
        lines.append(f"total {len(items)}")
    return "\n".join(lines)


def main():
    check_only = "--check" in sys.argv
    data = {}
    for split in SPLITS:
        items = load(split)
        random.Random(SEEDS[split]).shuffle(items)
        for i, it in enumerate(items, 1):
            it["id"] = f"{split}-long-{i:03d}"
        data[split] = items
    print(stats(data))
    ok = validate(data)
    if check_only:
        sys.exit(0 if ok else 1)
    if not ok:
        print("validation failed, not writing")
        sys.exit(1)
    for split, items in data.items():
        path = os.path.join(OUT, f"{split}.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for it in items:
                rec = {"id": it["id"], "prompt": it["prompt"], "jailbreak": it["jailbreak"],
                       "kind": it["kind"], "language": it["language"]}
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        print("wrote", path)


if __name__ == "__main__":
    main()
