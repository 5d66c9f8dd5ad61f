#!/bin/sh
# tests/arcs64.sh on the cuda backend (skipped without a GPU).
BACKEND=cuda exec "$(dirname "$0")/arcs64.sh"
