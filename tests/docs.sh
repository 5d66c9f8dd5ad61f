#!/bin/sh
# The documentation as a newcomer meets it: README.md at most 250 lines; its C
# and Python examples, run against this build's library, print what the README
# shows below them; every relative link (and #anchor) of README.md, docs/, benchmarks/ and python/
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

# the README's examples: the first ```c and ```python blocks, each followed by
# the ```text block of what it prints; the C one built by this build's
# compiler (CC_FOR_TESTS, LDFLAGS_FOR_TESTS from make check), the Python one
# with the tree's bindings (tests/python.sh installs them as the README does)
lib=$(dirname "$BOXBFS")/.libs
python3 - "$top/README.md" "$tmp" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
blocks = re.findall(r"^```(\w*)\n(.*?)^```$", text, flags=re.M | re.S)
for lang in ("c", "python"):
    at = [i for i, (name, _) in enumerate(blocks) if name == lang]
    if not at or at[0] + 1 == len(blocks) or blocks[at[0] + 1][0] != "text":
        sys.exit("README.md: no ```%s block followed by a ```text block" % lang)
    open("%s/readme.%s" % (sys.argv[2], lang), "w").write(blocks[at[0]][1])
    open("%s/readme_%s.want" % (sys.argv[2], lang), "w").write(blocks[at[0] + 1][1])
EOF
check "README.md has a C and a Python example, each with what it prints" "[ $? -eq 0 ]"
example() {   # LANG COMMAND...: run it in $tmp, compare with the README's output
    lang=$1; shift
    ( cd "$tmp" && LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$@" ) \
        >"$tmp/readme_$lang.out" 2>&1
    cmp -s "$tmp/readme_$lang.want" "$tmp/readme_$lang.out" ||
        diff "$tmp/readme_$lang.want" "$tmp/readme_$lang.out"
    check "README's example in $lang prints what the README shows" \
          "cmp -s '$tmp/readme_$lang.want' '$tmp/readme_$lang.out'"
}
if [ ! -f "$lib/libboxbfs.so" ]; then
    echo "no shared library in $lib: the README's examples are not run"
elif [ -f "$tmp/readme.c" ]; then
    # shellcheck disable=SC2086
    ${CC_FOR_TESTS:-cc} -I"$top/src" -o "$tmp/readme_c" "$tmp/readme.c" -L"$lib" -lboxbfs \
        ${LDFLAGS_FOR_TESTS:-} >"$tmp/cc.log" 2>&1
    check "README's C example compiles" "[ $? -eq 0 ]"
    cat "$tmp/cc.log"
    example c ./readme_c
    # the first of $PYTHON, python3, /usr/bin/python3 with numpy; a sanitizer
    # build's library cannot be loaded into python (the runtime must come first)
    py=""
    for p in ${PYTHON:-} python3 /usr/bin/python3; do
        "$p" -c 'import numpy' 2>/dev/null && { py=$p; break; }
    done
    if ldd "$lib/libboxbfs.so" | grep -q 'libasan\|libubsan\|libtsan'; then
        echo "sanitizer build: the Python example runs in the plain builds"
    elif [ -z "$py" ]; then
        echo "no python3 with numpy: the Python example is not run"
    else
        example python env PYTHONDONTWRITEBYTECODE=1 BOXBFS_LIBRARY="$lib/libboxbfs.so" \
            PYTHONPATH="$top/python" "$py" readme.python
    fi
fi

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
