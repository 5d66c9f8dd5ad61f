#!/bin/sh
# The engine's files in layers without circles (docs/architecture.md "The
# engine"): for every file of src/engine/, the other files whose functions
# it calls; any circle among them (a strategy calling back up into
# engine.c, a service calling a strategy, two services calling each other)
# fails, naming the files and the functions on each step of the circle.
set -u
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
top=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$top/src/engine" ] || { echo "no src/engine under $top"; exit 99; }
python3 - "$top/src/engine" <<'PY'
import os, re, sys
engine = sys.argv[1]
files = sorted(f for f in os.listdir(engine) if f.endswith(".c"))
text = {}
for f in files:
    src = open(os.path.join(engine, f), encoding="utf-8").read()
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)            # comments
    src = re.sub(r'"(\\.|[^"\\])*"', '""', src)                 # strings
    text[f] = src
# a definition: a name and its parameters at the start of a line, then a body
define = re.compile(r"^(?!static\b)[A-Za-z_][\w \*]*?\b((?:bb|boxbfs)_\w+)\s*\([^;{]*\)\s*\{",
                    re.M | re.S)
owner = {}
for f in files:
    for m in define.finditer(text[f]):
        owner[m.group(1)] = f
if not owner:
    print("FAIL no functions found in src/engine/*.c")
    sys.exit(1)
calls = {f: {} for f in files}   # file -> {callee file: a function it calls there}
for f in files:
    for m in re.finditer(r"\b((?:bb|boxbfs)_\w+)\s*\(", text[f]):
        g = owner.get(m.group(1))
        if g and g != f:
            calls[f].setdefault(g, m.group(1))
print("ok   %d files, %d functions, %d calls between files" %
      (len(files), len(owner), sum(len(c) for c in calls.values())))
state, stack, circles = {}, [], []
def visit(f):
    state[f] = 1
    stack.append(f)
    for g in sorted(calls[f]):
        if state.get(g) == 1:
            loop = stack[stack.index(g):] + [g]
            circles.append(" -> ".join("%s (%s)" % (a, calls[a][b]) for a, b in zip(loop, loop[1:]))
                           + " -> " + g)
        elif g not in state:
            visit(g)
    stack.pop()
    state[f] = 2
for f in files:
    if f not in state:
        visit(f)
for c in circles:
    print("FAIL circle: " + c)
if not circles:
    print("ok   no circle among the engine's files")
sys.exit(1 if circles else 0)
PY
