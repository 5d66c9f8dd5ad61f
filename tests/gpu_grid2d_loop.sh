#!/bin/sh
# tests/grid2d_loop.sh on the cuda backend (skipped without a GPU).
BACKEND=cuda exec "$(dirname "$0")/grid2d_loop.sh"
