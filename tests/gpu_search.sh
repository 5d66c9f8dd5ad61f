#!/bin/sh
# tests/device_search.sh on the cuda backend (skipped without a GPU).
BACKEND=cuda exec "$(dirname "$0")/device_search.sh"
