#!/usr/bin/env bash
# Threads on one key on a many-core machine (the device of DEVELOPERS.md: an Intel Xeon with
# 16 cores), against processes, a coalescing key, the batch, OpenSSL and AWS-LC, with the CPU
# named beside every figure. One prepared run; everything it prints lands in $OUT.
#
# Here, before the device run (builds the binaries once, stripped, into target/device-bin):
#   bash benches/device/threads-on-one-key.sh --build
# Then, with the device tool (carry the binaries; one run, about 8 minutes):
#   run(command="bash benches/device/threads-on-one-key.sh", carry=["target/device-bin"],
#       timeout_s=560)
# The figures come back as $OUT/threads.md (compare --threads-only), $OUT/speedtest.txt and
# $OUT/openssl.txt, with $OUT/machine.txt naming the CPU.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=target/device-bin
source benches/device/machine.sh

if [[ ${1:-} == --build ]]; then
    cargo build --release -p rsatool -p benches --features benches/peers --bin rsatool --bin compare || exit 1
    stage_binaries "$BIN" target/release/rsatool target/release/compare
    exit 0
fi

start_output
N=$(nproc)

# Cryptokit's lines with N threads on one key, plain and coalesced, and with 4N threads.
for t in "$N" $((4 * N)); do
    timeout 60 "$BIN/rsatool" speedtest --bits 2048 --keygen-count 1 --public-count 1 \
        --private-count 1 --crt-count 1000 --threads "$t" --coalesce >> "$OUT/speedtest.txt" 2>&1
done

# OpenSSL's own figure, as the issue quotes it.
timeout 40 openssl speed -seconds 3 -multi "$N" rsa2048 > "$OUT/openssl.txt" 2>&1

# The scaling rows: N = 1, 2, every core, four times every core; 3 windows of 0.5 s each.
timeout 420 "$BIN/compare" --threads-only --time 0.5 > "$OUT/threads.md" 2> "$OUT/threads.err"
echo "exit $?" >> "$OUT/threads.err"
uptime >> "$OUT/machine.txt"
