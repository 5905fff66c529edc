#!/usr/bin/env bash
# Build GMP configured for this CPU (not a generic or "fat" build) into a cache directory, for the
# `peers` benchmarks. Usage:
#
#     benches/gmp/build-tuned.sh [CACHE_DIR]      # default: <workspace>/target/gmp-tuned/<host>
#
# Environment:
#   GMP_HOST   configure host, e.g. alderlake-pc-linux-gnu on CPUs GMP's config.guess does not
#              know (it then answers a generic x86_64 and the build is slow). Default: the answer of
#              GMP's own config.guess on this machine (e.g. zen3-pc-linux-gnu).
#   GMP_CRATE  gmp-mpfr-sys version whose bundled GMP source is used (default 1.7.1 = GMP 6.3.0).
#
# Needs a C compiler, make and m4 (`apt-get install -y m4`). The GMP source comes from the
# gmp-mpfr-sys crate in the cargo registry; if it is not there yet, it is fetched with `cargo fetch`
# through a throw-away manifest and a private CARGO_HOME under the target directory. The result: CACHE_DIR/{lib/libgmp.a, include/gmp.h, host.txt}.
# Prints the install directory on its last line.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
crate_version=${GMP_CRATE:-1.7.1}
cargo_home=${CARGO_HOME:-$HOME/.cargo}
target_dir=${CARGO_TARGET_DIR:-$root/target}

fetch_dir="$target_dir/gmp-tuned/fetch"

find_source() {
    local dir
    for dir in "$cargo_home/registry/src" "$fetch_dir/cargo-home/registry/src"; do
        [ -d "$dir" ] || continue
        find "$dir" -maxdepth 3 -type d -path "*/gmp-mpfr-sys-$crate_version/gmp-*-c" \
            | sort | head -n 1
    done | head -n 1
}

src=$(find_source)
if [ -z "$src" ]; then
    mkdir -p "$fetch_dir/src"
    cat > "$fetch_dir/Cargo.toml" <<TOML
[package]
name = "gmp-source-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
gmp-mpfr-sys = "=$crate_version"

[workspace]
TOML
    : > "$fetch_dir/src/lib.rs"
    echo "build-tuned: fetching gmp-mpfr-sys $crate_version for its GMP source" >&2
    # A private CARGO_HOME: this may run inside a build script, while the outer cargo holds the
    # locks of the usual one.
    CARGO_HOME="$fetch_dir/cargo-home" cargo fetch --manifest-path "$fetch_dir/Cargo.toml" >&2
    src=$(find_source)
fi
if [ -z "$src" ]; then
    echo "build-tuned: no GMP source under $cargo_home/registry/src/*/gmp-mpfr-sys-$crate_version" >&2
    exit 1
fi
command -v m4 >/dev/null || { echo "build-tuned: GMP needs m4 (apt-get install -y m4)" >&2; exit 1; }

host=${GMP_HOST:-$(sh "$src/config.guess")}
cache=${1:-$target_dir/gmp-tuned/$host}
if [ -f "$cache/lib/libgmp.a" ] && [ -f "$cache/include/gmp.h" ] && [ "$(cat "$cache/host.txt" 2>/dev/null)" = "$host" ]; then
    echo "build-tuned: cached build for $host" >&2
    echo "$cache"
    exit 0
fi

work="$cache.build"
rm -rf "$work"
mkdir -p "$work"
echo "build-tuned: building $(basename "$src") for --host=$host in $work" >&2
cp -R "$src" "$work/src"
(
    cd "$work/src"
    # Both --build and --host: a native build selecting this CPU's assembly, not a cross build.
    ./configure --build="$host" --host="$host" --disable-shared --enable-static \
        --prefix="$cache" > "$work/configure.log" 2>&1 \
        || { tail -n 30 "$work/configure.log" >&2; exit 1; }
    make -j"${GMP_JOBS:-2}" > "$work/make.log" 2>&1 || { tail -n 30 "$work/make.log" >&2; exit 1; }
    make install > "$work/install.log" 2>&1 || { tail -n 30 "$work/install.log" >&2; exit 1; }
)
echo "$host" > "$cache/host.txt"
basename "$src" | sed 's/-c$//' > "$cache/source.txt"
rm -rf "$work"
echo "build-tuned: done, $cache" >&2
echo "$cache"
