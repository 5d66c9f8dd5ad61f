#!/bin/sh
# The documentation as a newcomer meets it: README.md at most 250 lines; every
# relative link (and #anchor) of README.md, docs/, benchmarks/ and python/
# Markdown resolves to a file (and heading) of the tree; every option that
# `boxbfs COMMAND --help` names appears in docs/cli.md; and no file of the
# tree names the work's history (numbered work sessions, folders named after
# them) instead of commits and dates.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
. "$(dirname "$0")/testlib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$top/README.md" ] && [ -f "$top/docs/cli.md" ] || { echo "no README.md or docs/cli.md under $top"; exit 99; }

lines=$(wc -l <"$top/README.md")
check "README.md has at most 250 lines ($lines)" "[ $lines -le 250 ]"
check "README.md starts with the two commands" \
      "head -20 '$top/README.md' | grep -q 'apt-get install -y build-essential' &&
       head -20 '$top/README.md' | grep -q 'make -j\"\$(nproc)\" check'"

# links and anchors (GitHub's heading slugs)
python3 - "$top" >"$tmp/links" 2>&1 <<'EOF'
import os, re, sys
top = sys.argv[1]
files = [os.path.join(top, "README.md")]
for d in ("docs", "benchmarks", "benchmarks/results", "python"):
    p = os.path.join(top, d)
    if os.path.isdir(p):
        files += [os.path.join(p, f) for f in sorted(os.listdir(p)) if f.endswith(".md")]

def slugs(path):
    seen, out = {}, set()
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*$", text, flags=re.M):
        s = m.group(1).strip().lower().replace("`", "")
        s = re.sub(r"[^\w\- ]", "", s).replace(" ", "-")
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else "%s-%d" % (s, n))
    return out

bad = 0
for f in files:
    text = re.sub(r"```.*?```", "", open(f, encoding="utf-8").read(), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    for m in re.finditer(r"!?\[[^\]]*\]\(([^)\s]+)\)", text):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        rel = os.path.relpath(f, top)
        if not os.path.exists(dest):
            print("%s: link to %s: no such file" % (rel, target)); bad += 1
        elif anchor and dest.endswith(".md") and anchor not in slugs(dest):
            print("%s: link to %s: no such heading" % (rel, target)); bad += 1
print("%d broken links" % bad)
sys.exit(1 if bad else 0)
EOF
check "links and anchors in README.md, docs/, benchmarks/ resolve" "[ $? -eq 0 ]"
grep -v '^0 broken' "$tmp/links"

# every option of every command's --help in docs/cli.md
"$BOXBFS" --help >"$tmp/usage" 2>&1
commands=$(sed -n '/^commands:/,/^$/p' "$tmp/usage" | awk 'NF && !/^commands:/ {print $1}')
check "boxbfs --help lists commands" "[ -n '$commands' ]"
missing=""
for c in $commands; do
    check "docs/cli.md has a section for boxbfs $c" "grep -q '^##.*boxbfs $c' '$top/docs/cli.md' ||
           grep -q '^##.*\`$c\`' '$top/docs/cli.md'"
    "$BOXBFS" "$c" --help >"$tmp/help" 2>&1
    for opt in $(grep -o -- '--[a-z0-9][a-z0-9-]*' "$tmp/help" | sort -u); do
        grep -qE -- "$opt([^a-z0-9-]|\$)" "$top/docs/cli.md" || missing="$missing $c:$opt"
    done
done
check "every option of --help is in docs/cli.md${missing:+ (missing:$missing)}" "[ -z '$missing' ]"

# no names of the work's history: numbered work sessions, folders named after them
s=sess; s=${s}ion   # spelled apart so that this file does not match itself
pattern="\\b${s}s?[ -]?[0-9]+|\\b${s}(15|16)?-|\\b(this|that|next|last|previous|earlier|later|one|each|every) ${s}s?\\b"
grep -rnIiE "$pattern" "$top/README.md" "$top/Makefile.am" "$top/configure.ac" \
    "$top/src" "$top/kernels" "$top/peer" "$top/topology" "$top/tests" "$top/tools" \
    "$top/benchmarks" "$top/docs" "$top/python" "$top/man" "$top/examples" "$top/.ci" \
    --exclude='*.log' --exclude='*.trs' 2>/dev/null |
    grep -v -e '/tests/fuzz/corpus/' -e '/tests/fuzz/regress/' >"$tmp/history"
check "no work-history names in the tree" "[ ! -s '$tmp/history' ]"
sed 's/^/  /' "$tmp/history" | head -20
exit $fail
