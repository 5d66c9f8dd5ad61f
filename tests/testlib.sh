# Sourced by the shell tests (. "$(dirname "$0")/testlib.sh"): a temporary
# folder $tmp removed on exit, and `check NAME CONDITION`, which prints
# "ok   NAME" or "FAIL NAME" and remembers a failure in $fail.
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
