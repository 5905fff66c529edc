#!/usr/bin/env bash
# The engine's shapes on the lent Intel machine (DEVELOPERS.md's device: Xeon family 6 model
# 207, 16 cores): every shape of the 52-bit engine for RSA-2048/3072/4096's halves as ratios
# against this CPU's choice (the row of bignum::backend's table it falls in), then the single
# private operation against OpenSSL and AWS-LC, with the CPU named. One prepared run; what it
# prints lands in $OUT.
#
# Here, before the device run (builds the binaries once, stripped, into target/device-bin):
#   bash benches/device/engine-shapes.sh --build
# Then, with the device tool (carry the binaries; about 5 minutes):
#   run(command="bash benches/device/engine-shapes.sh", carry=["target/device-bin"],
#       timeout_s=480)
# The figures come back as $OUT/shapes.txt (pow_paths --shapes, twice), $OUT/rsa.md
# (compare --rsa-only) and $OUT/speedtest-*.txt (the CRT line in each pinned shape), with
# $OUT/machine.txt naming the CPU. A shape that wins there becomes that CPU's row of
# backend::CPU_SHAPES, with these figures cited.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=target/device-bin
source benches/device/machine.sh

if [[ ${1:-} == --build ]]; then
    cargo build --release -p rsatool -p benches --features benches/peers --bin rsatool --bin compare &&
        cargo build --release -p bignum --example pow_paths || exit 1
    stage_binaries "$BIN" target/release/rsatool target/release/compare \
        target/release/examples/pow_paths
    exit 0
fi

start_output

# Every shape against the table's, twice (the second run says how much the first moved).
for run in 1 2; do
    echo "# run $run" >> "$OUT/shapes.txt"
    timeout 100 "$BIN/pow_paths" --shapes 1024 1536 2048 >> "$OUT/shapes.txt" 2>&1
done

# The whole private operation in each width pinned for all three sizes, then unpinned.
for pin in 256 512 ""; do
    for bits in 2048 3072 4096; do
        BIGNUM_SHAPE=$pin timeout 30 "$BIN/rsatool" speedtest --bits "$bits" --keygen-count 1 \
            --public-count 1 --private-count 1 --crt-count 300 \
            >> "$OUT/speedtest-${pin:-table}.txt" 2>&1
    done
done

# The single private operation against OpenSSL and AWS-LC (BENCHMARKS.md's command; about
# 3 minutes on 2 vCPUs; the report is printed only at the end, so the timeout leaves room).
timeout 330 "$BIN/compare" --rsa-only --no-write --time 0.4 --keys 5 --keygen-cap 1 \
    > "$OUT/rsa.md" 2> "$OUT/rsa.err"
echo "exit $?" >> "$OUT/rsa.err"
uptime >> "$OUT/machine.txt"
