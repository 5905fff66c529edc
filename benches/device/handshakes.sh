#!/usr/bin/env bash
# TLS handshakes per second on a many-core machine (the device of DEVELOPERS.md): the
# `handshakes` binary's three settings, the server threads of (b) at 1, 2, every core and
# four, eight and sixteen times every core (the coalescer showed only from eight times the
# cores on 2 cores), with the CPU named beside every figure. One prepared run; everything it
# prints lands in $OUT.
#
# Here, before the device run (builds the binary once, stripped, into target/device-bin):
#   bash benches/device/handshakes.sh --build
# Then, with the device tool (carry the binary; one run):
#   run(command="bash benches/device/handshakes.sh", carry=["target/device-bin"],
#       timeout_s=500)
# The figures come back as $OUT/handshakes.md, with $OUT/machine.txt naming the CPU and
# $OUT/handshakes.err the progress and any error.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=target/device-bin
source benches/device/machine.sh

if [[ ${1:-} == --build ]]; then
    cargo build --release -p benches --features tls --bin handshakes || exit 1
    stage_binaries "$BIN" target/release/handshakes
    exit 0
fi

start_output
N=$(nproc)

# The fixtures from this checkout (the binary's built-in path is the build machine's).
# (b) first, the point of the run; then (c) and (a), two windows of 1 s each.
{
    timeout 300 "$BIN/handshakes" --fixtures tls/tests/data --only b --seconds 1 --rounds 2 \
        --threads "1,2,$N,$((4 * N)),$((8 * N)),$((16 * N))" --clients "$((32 * N))"
    echo "exit $?" >&2
    timeout 80 "$BIN/handshakes" --fixtures tls/tests/data --only c --seconds 1 --rounds 2
    echo "exit $?" >&2
    timeout 80 "$BIN/handshakes" --fixtures tls/tests/data --only a --seconds 1 --rounds 2
    echo "exit $?" >&2
} > "$OUT/handshakes.md" 2> "$OUT/handshakes.err"
uptime >> "$OUT/machine.txt"
