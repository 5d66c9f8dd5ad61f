#!/bin/sh
# The Python bindings (python/) against this build's libboxbfs.so: pytest
# over python/tests (a failure fails this test). Skipped (77) where python3
# lacks numpy or pytest (apt-get install python3-numpy python3-scipy
# python3-pytest), or in a build without the shared library.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
top=$(cd "$(dirname "$0")/.." && pwd)
lib=$(dirname "$BOXBFS")/.libs/libboxbfs.so
[ -f "$lib" ] || { echo "no shared library $lib (--disable-shared?)"; exit 77; }
# a sanitizer build's library cannot be loaded into python (the runtime must come first)
if ldd "$lib" 2>/dev/null | grep -q 'libasan\|libubsan\|libtsan'; then
    echo "sanitizer build: the bindings are tested in the plain builds"; exit 77
fi
# the first of $PYTHON, python3, /usr/bin/python3 with numpy and pytest
py=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
    "$p" -c 'import numpy, pytest' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || { echo "no python3 with numpy and pytest"; exit 77; }
PYTHONDONTWRITEBYTECODE=1 BOXBFS_LIBRARY=$lib PYTHONPATH="$top/python${PYTHONPATH:+:$PYTHONPATH}" \
    "$py" -m pytest -q -p no:cacheprovider "$top/python/tests"
rc=$?
case $rc in
    0) exit 0 ;;
    5) echo "pytest collected no tests"; exit 99 ;;
    *) exit 1 ;;
esac
