#!/bin/sh
# tests/build_on_devices.sh on the cuda backend (skipped without a GPU).
BACKEND=cuda exec "$(dirname "$0")/build_on_devices.sh"
