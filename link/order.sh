#!/usr/bin/env bash
# Makes link/code-order.txt, the functions build.rs asks the linker to place first: those the MCP
# server and the relay run over the benchmark's browser section (`cargo bench --bench figures --
# browser`), profiled under valgrind's callgrind. The relay's and the server's shared functions
# come first, then the relay's own, then the server's own, so each process's code is one run of
# pages. Run it after a change to dependencies or the toolchain (their symbol names change, and
# the file then names functions the binary no longer has); it prints how much of the old file the
# binary still had. Needs valgrind, python3 and nm.
set -euo pipefail
cd "$(dirname "$0")/.."

figures=$(cargo bench --locked --no-run --bench figures --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "figures" and m.get("executable"):
        print(m["executable"])')
bin=target/release/tabpilot
work=$(mktemp -d)
trap 'mv -f "$work/tabpilot" "$bin" 2>/dev/null; rm -rf "$work"' EXIT

# The figures run the binary at $bin: put a wrapper there that runs it, and whatever it starts of
# itself (the relay), under callgrind; the browser runs as it is.
mv "$bin" "$work/tabpilot"
cat > "$bin" <<WRAP
#!/bin/sh
exec valgrind -q --tool=callgrind --demangle=no --dump-instr=no \
  --callgrind-out-file=$work/profile.%p --trace-children=yes \
  --trace-children-skip='*chrom*,*/sh,*bash*' $work/tabpilot "\$@"
WRAP
chmod +x "$bin"
"$figures" browser > "$work/figures.log"
# The relay outlives the run by its idle time (5 s in the figures) and writes its profile then.
for _ in $(seq 60); do pgrep -f "callgrind.*$work" > /dev/null || break; sleep 1; done

nm -S --defined-only "$work/tabpilot" > "$work/symbols"
python3 - "$work" link/code-order.txt <<'PY'
import glob, re, sys
work, out = sys.argv[1], sys.argv[2]
size = {}
for line in open(f"{work}/symbols"):
    f = line.split()
    if len(f) == 4 and f[2] in "tTwW":
        size[f[3]] = int(f[1], 16)

def ran(path):
    """The binary's functions a callgrind profile names (each run one is named at least once)."""
    named, found = {}, set()
    for line in open(path, errors="replace"):
        m = re.match(r"c?fn=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if m:
            if m[2]:
                named[m[1]] = m[2]
            found.add(named[m[1]])
    return found & size.keys()

relay, server = set(), set()
for path in glob.glob(f"{work}/profile.*"):
    cmd = next((l for l in open(path, errors="replace") if l.startswith("cmd:")), "")
    (relay if " relay" in cmd else server).update(ran(path))
if not relay or not server:
    sys.exit("order.sh: no profile of the relay or of the MCP server")
try:
    old = set(open(out).read().split())
    print(f"the old file named {len(old)} functions, {len(old & size.keys())} still in the binary")
except FileNotFoundError:
    pass
order = sorted(relay & server) + sorted(relay - server) + sorted(server - relay)
open(out, "w").write("\n".join(order) + "\n")
mb = lambda names: sum(size[n] for n in names) / 1e6
print(f"{out}: {len(order)} functions; the relay runs {mb(relay):.2f} MB of code, "
      f"the MCP server {mb(server):.2f} MB, of {mb(size):.2f} MB")
PY
