#!/bin/sh
# man/boxbfs.1 in sync with the CLI: every command that `boxbfs --help` lists
# has a section, and every option that `boxbfs COMMAND --help` names appears
# in the page (roff's \- read as -). A new subcommand or option fails here
# until the page says what it does.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"
page="$(dirname "$0")/../man/boxbfs.1"
[ -f "$page" ] || { echo "no $page"; exit 99; }
sed 's/\\-/-/g; s/\\&//g' "$page" >"$tmp/page"

"$BOXBFS" --help >"$tmp/usage"
check "boxbfs --help exit 0" "[ $? -eq 0 ]"
commands=$(sed -n '/^commands:/,/^$/p' "$tmp/usage" | awk 'NF && !/^commands:/ {print $1}')
check "usage lists commands" "[ -n '$commands' ]"
for c in $commands; do
    check "man has section boxbfs $c" "grep -q '^\.SS \"boxbfs $c' '$tmp/page'"
    "$BOXBFS" "$c" --help >"$tmp/help-$c" 2>&1
    check "boxbfs $c --help exit 0" "[ $? -eq 0 ]"
    # the page's section of this command: from its .SS line to the next .SS or .SH
    awk -v c="boxbfs $c" '/^\.S[SH]/ {on = index($0, c) > 0} on' "$tmp/page" >"$tmp/sec-$c"
    for opt in $(grep -o -- '--[a-z0-9][a-z0-9-]*' "$tmp/help-$c" | sort -u); do
        check "man: $c $opt" "grep -q -- '$opt' '$tmp/sec-$c'"
    done
done
check "man has EXIT STATUS" "grep -q '^\.SH EXIT STATUS' '$tmp/page'"
exit $fail
