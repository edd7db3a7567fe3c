#!/usr/bin/env python3
"""Captures the example replies of Docs/PROTOCOL.md from a real svcd, or checks them.

    swift build -c release --product svcd
    python3 Scripts/capture-protocol-examples.py            # rewrite the example replies
    python3 Scripts/capture-protocol-examples.py --check    # exit 1 if a reply differs

Needs Python 3 and pyzmq. It starts the given svcd (default .build/release/svcd) with
`--seed-sample`, a fresh temporary `--data-dir` and `--port-base 0`, reads the ports from
DIR/endpoints.json, and sends every example request of the "Use cases" part of the document to
the use case its section names (`EventLog`: the event log). A section is `### Name  (offset N)`;
inside it, ```json blocks come in pairs: a request (one line, sent as written) followed by its
reply.

Capture mode rewrites each reply block with the reply svcd gave, pretty-printed with a 2-space
indent in svcd's member order and with svcd's number spelling (4.0 stays 4.0).

Values that change from run to run — generated ids (UUIDs), times taken from the clock during
the run and the trace contexts (`traceparent`) of events whose requests started a trace — are
matched up (an event's `at` is only checked to be such a time): when a reply carries a new value where the document had another one,
every later occurrence of the document's value (in requests and, when capturing, anywhere in the
document) stands for the new one. So examples chain: the user id RegisterUser returned is the one
UpdateUserProfile sends, and the second ListRestaurants request carries the cursor the first
reply returned. In capture mode a changed `nextCursor` is matched up the same way; in check mode a
cursor must be exactly the documented one (the examples' cursors end on sample rows, so they are
deterministic), which is how a change of the cursor format is caught.

--check sends the same requests and compares each reply with the document. It passes when they
are equal apart from the varying values above, each of which must map one to one (the document's
user id always stands for the same live user id). Exit status: 0 equal, 1 a reply differs,
2 the document or svcd could not be used.

Examples run in document order, except as listed in RUN_BEFORE, and the requests in UNPRINTED
(which the document describes in words) are sent too.

--schemas SVCCTL (with --check) also asks the svcd for its JSON Schemas (`SVCCTL describe --json`)
and validates, with the jsonschema package: the params of every example request answered ok and
every ok result (live and documented) against their use case's schemas, every error code against
the codes its use case lists, and every event of the whole log at the end against its type's data
schema; every use case must have an example answered ok, and each section's params table must
list exactly its schema's members, required where the schema requires them. Each validated object must also fail its schema with any one required member removed or
given a value of another type (a schema is never vacuous).
"""

import argparse
import difflib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

import zmq

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Examples that the document shows earlier than they were taken, keyed (use case, n) with n
# counting the section's request/reply pairs from 1; each runs just before the example named by
# its value (in document order among themselves). The document says so in its introduction.
RUN_BEFORE = {
    ("GetRestaurant", 2): ("RemoveFavoriteRestaurant", 1),
    ("GetFavoriteRestaurants", 1): ("RemoveFavoriteRestaurant", 1),
}

# Requests the document describes in words but does not print: sent right after the named
# example; `derive` makes the request from that example's request (as sent); `expect` is the
# result the prose states, checked in both modes.
UNPRINTED = [
    {
        "after": ("SaveFavoriteRestaurant", 1),
        "useCase": "SaveFavoriteRestaurant",
        "derive": lambda request: request.replace('"r-000001"', '"r-000002"'),
        "expect": {"favoriteCount": 2},
    },
]

SECTION = re.compile(r"^### (\w+)  \(offset (\d+)\)$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
TRACEPARENT = re.compile(r"^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$")
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


class Fail(Exception):
    """The document or svcd cannot be used (exit status 2)."""


# --- JSON that keeps member order and number spelling ---------------------------------------

class Num(str):
    """A JSON number, kept as svcd spelled it."""


class Obj(list):
    """A JSON object: its (key, value) members in order."""


def parse(text):
    return json.loads(text, object_pairs_hook=Obj, parse_float=Num, parse_int=Num, parse_constant=Num)


def pretty(value, indent=0):
    pad = " " * indent
    if isinstance(value, Obj):
        if not value:
            return "{}"
        members = [f'{pad}  {json.dumps(k, ensure_ascii=False)}: {pretty(v, indent + 2)}' for k, v in value]
        return "{\n" + ",\n".join(members) + "\n" + pad + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(f"{pad}  {pretty(v, indent + 2)}" for v in value) + "\n" + pad + "]"
    if isinstance(value, Num):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return {True: "true", False: "false", None: "null"}[value]


# --- the document ----------------------------------------------------------------------------

def read_examples(lines):
    """Finds the request/reply pairs: [(use case, n, request line index, reply start, reply end)]
    with reply start/end the indices of the reply's fence lines."""
    examples, name, blocks = [], None, []

    def close_section():
        if name is None:
            return
        if len(blocks) % 2:
            raise Fail(f"section {name}: {len(blocks)} json blocks, not request/reply pairs")
        for n in range(len(blocks) // 2):
            (rs, re_), (ps, pe) = blocks[2 * n], blocks[2 * n + 1]
            if re_ - rs != 2:
                raise Fail(f"section {name}, example {n + 1}: the request must be one line (line {rs + 2})")
            examples.append((name, n + 1, rs + 1, ps, pe))

    i = 0
    while i < len(lines):
        line = lines[i]
        match = SECTION.match(line)
        if match or line.startswith("## ") or line.startswith("### "):
            close_section()
            name, blocks = (match.group(1), []) if match else (None, [])
        elif line == "```json" and name is not None:
            end = i + 1
            while end < len(lines) and lines[end] != "```":
                end += 1
            if end == len(lines):
                raise Fail(f"unterminated ```json block at line {i + 1}")
            blocks.append((i, end))
            i = end
        i += 1
    close_section()
    return examples


def run_order(examples):
    keys = [(e[0], e[1]) for e in examples]
    for moved, before in RUN_BEFORE.items():
        if moved not in keys or before not in keys:
            raise Fail(f"RUN_BEFORE names an example the document does not have: {moved} or {before}")
    order = [e for e in examples if (e[0], e[1]) not in RUN_BEFORE]
    for example in examples:
        key = (example[0], example[1])
        if key in RUN_BEFORE:
            target = RUN_BEFORE[key]
            # right before the target, so after those moved in front of it already
            index = next(i for i, e in enumerate(order) if (e[0], e[1]) == target)
            order.insert(index, example)
    return order


# --- comparing replies -----------------------------------------------------------------------

class Matcher:
    """Matches documented values with live ones; `mapping` is document value -> live value."""

    def __init__(self, run_started, capture):
        self.mapping, self.reverse = {}, {}
        self.earliest = run_started - 5  # seconds: live times from the clock are at least this
        self.capture = capture

    def clock_time(self, text):
        if not TIME.match(text):
            return False
        moment = datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
        return moment.timestamp() >= self.earliest

    def varies(self, key, documented, live):
        if UUID.match(documented) and UUID.match(live):
            return True
        if key == "traceparent" and TRACEPARENT.match(documented) and TRACEPARENT.match(live):
            return True
        if TIME.match(documented) and self.clock_time(live):
            return True
        return self.capture and key == "nextCursor"

    def match(self, documented, live, key=None, path="$", differences=None):
        """Records varying values; returns the list of paths where the two differ otherwise."""
        differences = [] if differences is None else differences
        if isinstance(documented, Obj) and isinstance(live, Obj):
            if [k for k, _ in documented] != [k for k, _ in live]:
                differences.append(f"{path}: members {[k for k, _ in documented]} != {[k for k, _ in live]}")
            live_members = dict(live)
            for k, v in documented:
                if k in live_members:
                    self.match(v, live_members[k], k, f"{path}.{k}", differences)
        elif isinstance(documented, list) and isinstance(live, list) and not isinstance(documented, Obj) \
                and not isinstance(live, Obj):
            if len(documented) != len(live):
                differences.append(f"{path}: {len(documented)} elements != {len(live)}")
            for i, (d, l) in enumerate(zip(documented, live)):
                self.match(d, l, key, f"{path}[{i}]", differences)
        elif key == "at" and type(documented) is str and type(live) is str and TIME.match(documented) \
                and self.clock_time(live):
            # An event's time is its write's, a moment after the times its reply carried: it
            # matches no earlier value, and nothing later refers to it.
            pass
        elif type(documented) is str and type(live) is str and documented != live \
                and self.varies(key, documented, live):
            known, known_back = self.mapping.get(documented), self.reverse.get(live)
            if (known is not None and known != live) or (known_back is not None and known_back != documented):
                differences.append(f"{path}: {documented!r} -> {live!r} contradicts an earlier match")
            else:
                self.mapping[documented], self.reverse[live] = live, documented
                if not UUID.match(documented) and not TIME.match(documented) and not TRACEPARENT.match(documented):
                    # a cursor (capture mode only): used from here on, but it is a real change
                    differences.append(f"{path}: {documented!r} -> {live!r}")
        elif type(documented) is not type(live) or documented != live:
            differences.append(f"{path}: {pretty(documented)} != {pretty(live)}")
        return differences

    def substitute(self, text, times=True):
        # longest first, so no value is replaced inside a longer one
        for documented in sorted(self.mapping, key=len, reverse=True):
            if times or not TIME.match(documented):
                text = text.replace(documented, self.mapping[documented])
        return text


# --- svcd ------------------------------------------------------------------------------------

class Svcd:
    def __init__(self, binary, timeout):
        self.data_dir = tempfile.mkdtemp(prefix="protocol-examples-")
        self.log = open(os.path.join(self.data_dir, "svcd.log"), "w+b")
        self.process = subprocess.Popen(
            [binary, "--seed-sample", "--data-dir", self.data_dir, "--port-base", "0"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
        self.context = zmq.Context()
        self.timeout_ms = int(timeout * 1000)
        self.sockets = {}
        self.use_cases = {}

    def wait_for_endpoints(self, timeout):
        path = os.path.join(self.data_dir, "endpoints.json")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise Fail(f"svcd exited with status {self.process.returncode}:\n{self.output()}")
            try:
                with open(path, encoding="utf-8") as file:
                    description = json.load(file)
                if description.get("pid") == self.process.pid:
                    self.use_cases = description["useCases"]
                    # The event log's section is named like a use case's and speaks its envelope.
                    self.use_cases["EventLog"] = description["eventLog"]
                    return
            except (OSError, ValueError):
                pass
            time.sleep(0.05)
        raise Fail(f"svcd wrote no endpoints.json within {timeout} s:\n{self.output()}")

    def call(self, use_case, body):
        if use_case not in self.use_cases:
            raise Fail(f"svcd has no use case {use_case} (endpoints.json lists {', '.join(self.use_cases)})")
        socket = self.sockets.get(use_case)
        if socket is None:
            socket = self.context.socket(zmq.REQ)
            socket.setsockopt(zmq.LINGER, 0)
            socket.connect(self.use_cases[use_case])
            self.sockets[use_case] = socket
        socket.send(body.encode("utf-8"))
        if not socket.poll(self.timeout_ms):
            raise Fail(f"{use_case}: no reply within {self.timeout_ms} ms to {body}")
        return socket.recv().decode("utf-8")

    def output(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")[-4000:]

    def stop(self):
        for socket in self.sockets.values():
            socket.close(0)
        self.context.term()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.data_dir, ignore_errors=True)


# --- schemas ---------------------------------------------------------------------------------

class SchemaCheck:
    """Validates requests, replies and events against the schemas `svcctl describe` printed."""

    def __init__(self, description):
        import jsonschema  # only this mode needs it
        self.validator = jsonschema.Draft202012Validator
        for entry in description["useCases"]:
            for key in ("params", "result"):
                self.validator.check_schema(entry[key])
        self.use_cases = {entry["name"]: entry for entry in description["useCases"]}
        self.use_cases["EventLog"] = description["eventLog"]
        self.events = {event["type"]: event["data"] for event in description["events"]}
        self.validated, self.problems = 0, []
        self.answered_ok = set()

    def validate(self, label, schema, instance):
        errors = list(self.validator(schema).iter_errors(instance))
        self.validated += 1
        if errors:
            self.problems.append(f"{label}: {errors[0].message} at {list(errors[0].absolute_path)}")
            return
        self.expect_strict(label, schema, instance)

    def expect_strict(self, label, schema, instance):
        """Removing any required member, or giving it another type, must fail the schema."""
        if not isinstance(instance, dict):
            return
        validator = self.validator(schema)
        for name in schema.get("required", []):
            without = {key: value for key, value in instance.items() if key != name}
            if validator.is_valid(without):
                self.problems.append(f"{label}: still valid without its required member {name}")
            wrong = 12345 if instance[name] is None or isinstance(instance[name], str) else "wrong type"
            if validator.is_valid({**instance, name: wrong}):
                self.problems.append(f"{label}: still valid with {name} = {wrong!r}")

    def check_exchange(self, label, name, request_text, reply_text, documented_text=None):
        entry = self.use_cases[name]
        request, reply = json.loads(request_text), json.loads(reply_text)
        if not reply.get("ok"):
            code = reply["error"]["code"]
            if name != "EventLog" and code not in entry["errors"]:
                self.problems.append(f"{label}: answered {code}, which {name}'s errors do not list")
            return
        self.answered_ok.add(name)
        self.validate(f"{label} params", entry["params"], request.get("params") or {})
        replies = [("live", reply)]
        if documented_text is not None:
            replies.append(("documented", json.loads(documented_text)))
        for which, answer in replies:
            self.validate(f"{label} {which} result", entry["result"], answer["result"])
            if name == "EventLog":
                for event in answer["result"]["events"]:
                    self.check_event(f"{label} {which}", event)

    def check_param_tables(self, lines):
        """Each section's `| param | type | required | rules |` table names the members its
        params schema has, required exactly where the schema requires them."""
        section, in_table, tables = None, False, {}
        for line in lines:
            heading = SECTION.match(line)
            if heading:
                section, in_table = heading.group(1), False
                continue
            if section is None:
                continue
            if line.startswith("| param | type | required |"):
                in_table = section not in tables
                tables.setdefault(section, {})
                continue
            if in_table and line.startswith("|---"):
                continue
            if in_table and line.startswith("| `"):
                cells = [cell.strip() for cell in line.strip("|").split("|")]
                tables[section][cells[0].strip("`")] = cells[2] == "yes"
                continue
            in_table = False
        for name, entry in self.use_cases.items():
            documented = tables.get(name)
            if documented is None:
                self.problems.append(f"{name}: the document has no params table")
                continue
            schema = entry["params"]
            described = {member: member in schema.get("required", []) for member in schema.get("properties", {})}
            if documented != described:
                self.problems.append(f"{name}: the document's params table says {documented}, the schema {described}")

    def check_event(self, label, event):
        schema = self.events.get(event["type"])
        if schema is None:
            self.problems.append(f"{label}: event type {event['type']} is not described")
        else:
            self.validate(f"{label} event {event['seq']} ({event['type']}) data", schema, event["data"])


# --- main ------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of rewriting; exit 1 on a difference")
    parser.add_argument("--svcd", default=os.path.join(REPO, ".build", "release", "svcd"), help="the svcd binary (default: .build/release/svcd)")
    parser.add_argument("--doc", default=os.path.join(REPO, "Docs", "PROTOCOL.md"), help="the document (default: Docs/PROTOCOL.md)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for svcd to start, and for each reply")
    parser.add_argument("--schemas", metavar="SVCCTL", help="with --check: validate against the schemas SVCCTL describe --json prints")
    args = parser.parse_args()
    if args.schemas and not args.check:
        raise Fail("--schemas works with --check only")

    if not os.access(args.svcd, os.X_OK):
        raise Fail(f"{args.svcd} is not an executable; build it: swift build -c release --product svcd")
    with open(args.doc, encoding="utf-8") as file:
        lines = file.read().split("\n")
    examples = read_examples(lines)
    if not examples:
        raise Fail(f"{args.doc}: no examples found")
    unprinted_after = {}
    for step in UNPRINTED:
        unprinted_after.setdefault(step["after"], []).append(step)

    matcher = Matcher(time.time(), capture=not args.check)
    new_replies, sent_requests, differing = {}, {}, []
    svcd = Svcd(args.svcd, args.timeout)
    try:
        svcd.wait_for_endpoints(args.timeout)
        schemas = None
        if args.schemas:
            described = subprocess.run([args.schemas, "describe", "--json", "--data-dir", svcd.data_dir], capture_output=True, text=True, timeout=60)
            if described.returncode != 0:
                raise Fail(f"svcctl describe exited {described.returncode}: {described.stderr}")
            schemas = SchemaCheck(json.loads(described.stdout))
            schemas.check_param_tables(lines)
        for name, n, request_line, reply_start, reply_end in run_order(examples):
            label = f"{name} example {n}"
            request = matcher.substitute(lines[request_line])
            try:
                parse(request)
            except ValueError as error:
                raise Fail(f"{label}: the request is not JSON ({error}): {request}")
            reply_text = svcd.call(name, request)
            live = parse(reply_text)
            documented_text = "\n".join(lines[reply_start + 1:reply_end])
            try:
                documented = parse(documented_text)
            except ValueError:
                documented = None
            differences = matcher.match(documented, live) if documented is not None else ["$: not JSON"]
            sent_requests[request_line] = request
            if schemas:
                schemas.check_exchange(label, name, request, reply_text, documented_text if documented is not None else None)
            new_replies[(reply_start, reply_end)] = pretty(live)
            if differences:
                differing.append(label)
                expected = matcher.substitute(documented_text).split("\n")
                print(f"{'DIFFERS' if args.check else 'changed'}  {label}: " + "; ".join(differences[:5]))
                sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(
                    expected, pretty(live).split("\n"), "document", "svcd", lineterm="", n=2))
            else:
                print(f"same     {label}")
            for step in unprinted_after.get((name, n), []):
                body = step["derive"](request)
                got = json.loads(svcd.call(step["useCase"], body))
                if got.get("result") != step["expect"]:
                    differing.append(f"unprinted {step['useCase']} after {label}")
                    print(f"DIFFERS  unprinted {step['useCase']} {body}: expected result {step['expect']}, got {got}")
                else:
                    print(f"same     unprinted {step['useCase']} after {label}")
        if schemas:
            # Every event the session appended, whatever its type.
            after = 0
            while True:
                page = json.loads(svcd.call("EventLog", json.dumps({"v": 1, "id": "all", "params": {"after": after, "limit": 1000}})))
                events = page["result"]["events"]
                for event in events:
                    schemas.check_event("the session's log", event)
                if not events:
                    break
                after = events[-1]["seq"]
    finally:
        svcd.stop()

    if args.check:
        print(f"{len(examples)} examples, {len(differing)} differ" + (": " + ", ".join(differing) if differing else ""))
        if schemas:
            for name in sorted(set(schemas.use_cases) - schemas.answered_ok):
                schemas.problems.append(f"{name}: no example answered ok, so nothing checked its schemas")
            for problem in schemas.problems:
                print(f"SCHEMA   {problem}")
            print(f"{schemas.validated} objects validated against the schemas, {len(schemas.problems)} problems")
        return 1 if differing or (schemas and schemas.problems) else 0

    for request_line, request in sent_requests.items():
        lines[request_line] = request
    for (start, end), text in sorted(new_replies.items(), reverse=True):
        lines[start + 1:end] = text.split("\n")
    # Ids and cursors matched up may also be quoted elsewhere in the document (times in prose
    # are only illustrations, so they stay).
    text = matcher.substitute("\n".join(lines), times=False)
    with open(args.doc, "w", encoding="utf-8") as file:
        file.write(text)
    print(f"{len(examples)} examples captured into {os.path.relpath(args.doc)}; {len(differing)} had changed")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Fail as failure:
        print(f"error: {failure}", file=sys.stderr)
        sys.exit(2)
