#!/usr/bin/env bash
# Makes link/code-order.txt, the functions build.rs asks the linker to place first: those the MCP
# server and the relay run over the benchmark's browser section (`cargo bench --bench figures --
# browser`) and the README's `tabpilot demo`, profiled under valgrind's callgrind. The relay's and
# the server's shared functions come first, then the relay's own, then the server's own, then the
# demo's own, so each process's code is one run of pages. Two builds are profiled, `cargo build --release` (what
# `cargo install --path .` installs) and the benchmark's: their own functions' symbol names
# differ, and the file names both.
#
# Run it after a change to dependencies or the toolchain: their symbol names change, and the file
# then names functions the binary no longer has (the benchmark prints how much of it the binary
# still has). Needs valgrind, python3 and nm.
set -euo pipefail
cd "$(dirname "$0")/.."

# The executable cargo built for the target named $1; the rest is the cargo command.
built() {
  local name=$1
  shift
  cargo "$@" --locked --message-format=json 2>/dev/null | python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == sys.argv[1] and m.get("executable"):
        print(m["executable"])' "$name"
}

bin=target/release/tabpilot
work=$(mktemp -d)
mkdir "$work/release" "$work/bench"
cp "$(built tabpilot build --release)" "$work/release/tabpilot"
figures=$(built figures bench --no-run --bench figures)
cp "$bin" "$work/bench/tabpilot"
trap 'cp -f "$work/bench/tabpilot" "$bin.restored" && mv -f "$bin.restored" "$bin"; rm -rf "$work"' EXIT

# The figures run the binary at $bin: put a wrapper there that runs one build, and whatever it
# starts of itself (the relay), under callgrind; the browser runs as it is.
for build in release bench; do
  cat > "$bin.wrapper" <<WRAP
#!/bin/sh
exec valgrind -q --tool=callgrind --demangle=no --dump-instr=no \
  --callgrind-out-file=$work/$build/profile.%p --trace-children=yes \
  --trace-children-skip='*chrom*,*/sh,*bash*' $work/$build/tabpilot "\$@"
WRAP
  chmod +x "$bin.wrapper"
  mv -f "$bin.wrapper" "$bin"
  "$figures" browser > "$work/$build/figures.log"
  # The demo on a state dir and two ports of its own (its relay takes a pair).
  ports=$(python3 -c 'import socket
while True:
    a, b = socket.socket(), socket.socket()
    a.bind(("127.0.0.1", 0))
    try:
        b.bind(("127.0.0.1", a.getsockname()[1] + 1))
        print(f"{a.getsockname()[1]}-{a.getsockname()[1] + 1}")
        break
    except OSError:
        pass')
  TABPILOT_STATE_DIR="$work/state" TABPILOT_PORTS=$ports TABPILOT_RELAY_IDLE_MS=5000 \
    "$bin" demo > "$work/$build/demo.log"
  # The relay outlives the run by its idle time (5 s in the figures), then writes its profile.
  for _ in $(seq 60); do pgrep -f "callgrind.*$work" > /dev/null || break; sleep 1; done
  nm -S --defined-only "$work/$build/tabpilot" > "$work/$build/symbols"
done

python3 - "$work" link/code-order.txt <<'PY'
import glob, re, sys
work, out = sys.argv[1], sys.argv[2]

def symbols(build):
    size = {}
    for line in open(f"{work}/{build}/symbols"):
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            size[f[3]] = int(f[1], 16)
    return size

def ran(path, size):
    """The binary's functions a callgrind profile names (each run one is named at least once)."""
    named, found = {}, set()
    for line in open(path, errors="replace"):
        m = re.match(r"c?fn=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if m:
            if m[2]:
                named[m[1]] = m[2]
            found.add(named[m[1]])
    return found & size.keys()

try:
    old = set(open(out).read().split())
except FileNotFoundError:
    old = set()
relay, server, demo = set(), set(), set()
for build in ("release", "bench"):
    size = symbols(build)
    mine = {"relay": set(), "mcp": set(), "demo": set()}
    for path in glob.glob(f"{work}/{build}/profile.*"):
        cmd = next((l for l in open(path, errors="replace") if l.startswith("cmd:")), "")
        kind = next((k for k in mine if f" {k}" in cmd), None)
        if kind is None:
            sys.exit(f"order.sh: a profile of another command: {cmd.strip()}")
        mine[kind].update(ran(path, size))
    if not all(mine.values()):
        sys.exit(f"order.sh: no profile of the relay, the MCP server or the demo ({build} build)")
    relay |= mine["relay"]
    server |= mine["mcp"]
    demo |= mine["demo"]
    mb = lambda names: sum(size[n] for n in names) / 1e6
    print(f"{build} build: the relay runs {mb(mine['relay']):.2f} MB of code, the MCP server "
          f"{mb(mine['mcp']):.2f} MB, the demo {mb(mine['demo']):.2f} MB, of {mb(size):.2f} MB; "
          f"the old file had {len(old & size.keys())} of its {len(old)} functions in it")
order = (sorted(relay & server) + sorted(relay - server) + sorted(server - relay)
         + sorted(demo - server - relay))
open(out, "w").write("\n".join(order) + "\n")
print(f"{out}: {len(order)} functions")
PY
