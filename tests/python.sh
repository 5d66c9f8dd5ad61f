#!/bin/sh
# The Python bindings installed as the README installs them on Debian 12
# (PEP 668): a virtual environment that sees the system's packages (python3 -m
# venv --system-site-packages), a copy of python/ installed into it with
# `pip install --no-build-isolation` (--no-index: no network; numpy, wheel
# and pytest come from apt: python3-numpy python3-wheel python3-pytest), then
# pytest over python/tests with that environment's python against this build's
# libboxbfs.so (a failure fails this test). Skipped (77) only where python3 or
# its venv module is absent (apt-get install python3-venv), in a build without
# the shared library, or in a sanitizer build.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
lib=$(dirname "$BOXBFS")/.libs/libboxbfs.so
[ -f "$lib" ] || { echo "no shared library $lib (--disable-shared?)"; exit 77; }
# a sanitizer build's library cannot be loaded into python (the runtime must come first)
if ldd "$lib" 2>/dev/null | grep -q 'libasan\|libubsan\|libtsan'; then
    echo "sanitizer build: the bindings are tested in the plain builds"; exit 77
fi
# the first of $PYTHON, python3, /usr/bin/python3 with the venv module (Debian:
# ensurepip, in python3-venv), one with numpy and pytest before one without
py=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
    "$p" -c 'import venv, ensurepip' 2>/dev/null || continue
    [ -n "$py" ] || py=$p
    "$p" -c 'import numpy, pytest' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || { echo "no python3 with the venv module (apt-get install python3-venv)"; exit 77; }

venv=$tmp/venv
# pip builds in the folder it installs from: a writable copy (distcheck's tree is read-only)
cp -r "$top/python" "$tmp/python" && chmod -R u+w "$tmp/python" || exit 99
step() {   # NAME COMMAND...: run it, log on failure; the test stops at a failed step
    name=$1; shift
    if "$@" >"$tmp/step.log" 2>&1; then echo "ok   $name"; return; fi
    cat "$tmp/step.log"; echo "FAIL $name"; exit 1
}
step "$py -m venv --system-site-packages" "$py" -m venv --system-site-packages "$venv"
# a $py inside a virtual environment of its own (the GPU machines' python3): the
# new environment sees its base interpreter's packages, not that environment's
# numpy and pytest; a .pth file adds its folders
if "$py" -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)'; then
    site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') &&
        "$py" -c 'import sysconfig as s; p = s.get_paths(); print(p["purelib"]); print(p["platlib"])' |
        sort -u >"$site/outer-environment.pth" || exit 99
fi
step "pip install --no-build-isolation ./python (numpy, wheel: apt-get install python3-numpy python3-wheel)" \
    "$venv/bin/pip" install -q --no-build-isolation --no-index "$tmp/python"
step "pytest in the environment (apt-get install python3-pytest)" "$venv/bin/python" -c 'import pytest'
check "the environment imports the installed copy" \
      "'$venv/bin/python' -c 'import importlib.util as u; print(u.find_spec(\"boxbfs\").origin)' |
       grep -q '^$venv/'"
( cd "$tmp" && env -u PYTHONPATH PYTHONDONTWRITEBYTECODE=1 BOXBFS_LIBRARY="$lib" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir "$tmp/python/tests" \
    "$tmp/python/tests" )
case $? in
    0) ;;
    5) echo "FAIL pytest collected no tests"; exit 99 ;;
    *) echo "FAIL pytest"; fail=1 ;;
esac
exit $fail
