#!/bin/sh
# tests/side_by_side.sh on the cuda backend (skipped without two GPUs).
BACKEND=cuda exec "$(dirname "$0")/side_by_side.sh"
