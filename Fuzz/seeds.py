#!/usr/bin/env python3
"""Writes the raw seed inputs of the fuzz targets (Fuzz/Targets), one file per input:

    python3 Fuzz/seeds.py OUT        # OUT/JSONParser, OUT/WireRequest, OUT/UseCaseParams

Fuzz/Corpus/<target> is the smallest set of these seeds and of the inputs the long runs found
that reaches every edge they reach together (libFuzzer's set cover, hit counts ignored). Run this
again when the protocol's examples change, and merge its output in, for each target T:

    python3 Fuzz/seeds.py /tmp/seeds && FUZZ_SECONDS=0 .ci/fuzz
    mkdir /tmp/merged && .build-fuzz/T -use_counters=0 -set_cover_merge=1 /tmp/merged \
        Fuzz/Corpus/T /tmp/seeds/T [.build-fuzz/corpus/T, a run's finds]
    rm -r Fuzz/Corpus/T && mv /tmp/merged Fuzz/Corpus/T

- JSONParser: every JSONTestSuite parsing file (Tests/WireJSONTests/JSONTestSuite/test_parsing,
  nst/JSONTestSuite at 1ef36fa), every ```json block of Docs/PROTOCOL.md (requests, and replies
  pretty-printed), the WireRequest seeds and a number near the length limit.
- WireRequest: every example request of Docs/PROTOCOL.md as written, and envelopes that reach each
  member's rules (null members, wrong types, lengths at and past the limits, escapes, repeated
  and unknown members, other spellings of 1, admin `op`).
- UseCaseParams: for each example request of a use case, a byte choosing that use case (its
  index in UseCaseName.allCases: its section's port offset - 1) and its params; and `{}` for
  every use case.
"""

import json
import os
import re
import sys
import hashlib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTION = re.compile(r"^### (\w+)  \(offset (\d+)\)$")
USE_CASE_COUNT = 23  # checked below against the sections found


def json_blocks(lines):
    """[(section name or None, offset or None, block text)] for every ```json block."""
    blocks, name, offset, i = [], None, None, 0
    while i < len(lines):
        line = lines[i]
        match = SECTION.match(line)
        if match:
            name, offset = match.group(1), int(match.group(2))
        elif line.startswith("## ") or line.startswith("### "):
            name, offset = None, None
        elif line == "```json":
            end = i + 1
            while lines[end] != "```":
                end += 1
            blocks.append((name, offset, "\n".join(lines[i + 1:end])))
            i = end
        i += 1
    return blocks


def envelope_seeds():
    long_id = "i" * 128
    seeds = [
        '{"v":1}', '{"v":1,"id":null,"params":null,"deadlineMs":null,"idempotencyKey":null}',
        '{"v":1,"id":"a","params":{},"deadlineMs":0,"idempotencyKey":"k"}',
        ' { "v" : 1 , "id" : "x" , "params" : { "a" : [ 1 , { } ] } } \n',
        '{"params":{"userId":"u-000001"},"id":"1","v":1}',
        '{"v":1,"id":"%s","idempotencyKey":"%s"}' % (long_id, long_id),
        '{"v":1,"id":"%sx"}' % long_id, '{"v":1,"idempotencyKey":""}', '{"v":1,"idempotencyKey":"%sx"}' % long_id,
        '{"v":1,"id":"caf\\u00e9 \\ud83d\\ude00"}', '{"v":1,"id":"e\u0301\u00e9"}', '{"v":1,"id":"\\"\\\\\\/\\b\\f\\n\\r\\t"}',
        '{"v":1.0}', '{"v":1e0}', '{"v":10e-1}', '{"v":2}', '{"v":0}', '{"v":-1}', '{"v":"1"}', '{"v":null}', '{}',
        '{"v":1,"v":1}', '{"v":2,"v":1}', '{"v":1,"id":"a","id":"b"}', '{"v":1,"params":{},"params":{"a":1}}',
        '{"v":1,"deadlineMs":999999999999999999}', '{"v":1,"deadlineMs":9223372036854775807}', '{"v":1,"deadlineMs":9223372036854775808}',
        '{"v":1,"deadlineMs":-0}', '{"v":1,"deadlineMs":1.5}', '{"v":1,"deadlineMs":1e3}', '{"v":1,"deadlineMs":"5"}', '{"v":1,"deadlineMs":01}',
        '{"v":1,"id":5}', '{"v":1,"params":[]}', '{"v":1,"params":"x"}', '{"v":1,"idempotencyKey":7}',
        '{"v":1,"op":"stats"}', '{"v":1,"op":5,"id":"a"}', '{"v":1,"extra":{"nested":[true,false,null]}}',
        '{"v":1,"params":{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":[[[[[[[[[[]]]]]]]]]]}}}}}}}}}',
        '{"v":1,"params":{"s":"}]{[\\"\\\\"}}', '{"v":1,"params":{"x":"\\u0000"}}',
        '[]', '[{"v":1}]', '"v"', '1', 'null', '', ' ', '{"v":1', '{"v":1}}', '{"v":1},', '\ufeff{"v":1}',
        '{"v":1,"id":"\x7f"}', '{"v":1,"id":"\t"}', '{"v" :1,"params" :{"a":1} ,"id":"z"}',
    ]
    return seeds


def write(directory, seeds):
    os.makedirs(directory, exist_ok=True)
    for seed in seeds:
        data = seed if isinstance(seed, bytes) else seed.encode("utf-8")
        with open(os.path.join(directory, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    with open(os.path.join(REPO, "Docs", "PROTOCOL.md"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks = json_blocks(lines)

    offsets = {name: offset for name, offset, _ in blocks if name is not None and name != "EventLog"}
    if sorted(set(offsets.values())) != list(range(1, USE_CASE_COUNT + 1)):
        sys.exit(f"Docs/PROTOCOL.md: expected use-case sections at offsets 1…{USE_CASE_COUNT}, found {sorted(set(offsets.values()))}")

    requests, params = [], []
    for name, offset, text in blocks:
        if name is None or "\n" in text or not text.startswith("{"):
            continue
        request = json.loads(text)
        if "ok" in request:
            continue
        requests.append(text)
        if name != "EventLog":
            params.append(bytes([offset - 1]) + json.dumps(request.get("params") or {}, ensure_ascii=False).encode())
    params += [bytes([index]) + b"{}" for index in range(USE_CASE_COUNT)]

    suite = os.path.join(REPO, "Tests", "WireJSONTests", "JSONTestSuite", "test_parsing")
    parsing = []
    for name in sorted(os.listdir(suite)):
        with open(os.path.join(suite, name), "rb") as f:
            parsing.append(f.read())

    envelopes = requests + envelope_seeds()
    # A number near the 1,000-byte limit whose canonical (exact) spelling is longer than it.
    long_number = "[" + "1" * 500 + "." + "1" * 498 + "]"
    write(os.path.join(out, "JSONParser"), parsing + [text for _, _, text in blocks] + envelopes + [long_number])
    write(os.path.join(out, "WireRequest"), envelopes)
    write(os.path.join(out, "UseCaseParams"), params)


if __name__ == "__main__":
    main()
