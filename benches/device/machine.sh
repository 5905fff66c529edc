# Sourced by the device scripts, from the repository's root.
#
# describe_machine FILE writes what names the machine a run's figures come from (the date, the
# CPU's vendor, family, model and name, the core count, whether it has AVX-512 IFMA, OpenSSL's
# version, the load) into FILE.
describe_machine() {
    {
        date -u
        grep -m4 -E '^(vendor_id|cpu family|model|model name)\s' /proc/cpuinfo
        echo "nproc $(nproc)"
        grep -o -m1 avx512ifma /proc/cpuinfo || echo "no avx512ifma"
        openssl version
        uptime
    } > "$1" 2>&1
}

# stage_binaries DIR FILE...: the binaries a device run carries. Copies each built FILE into
# DIR (made where missing), strips it there, and lists DIR.
stage_binaries() {
    local dir=$1 file
    shift
    mkdir -p "$dir"
    for file in "$@"; do
        cp "$file" "$dir/"
        strip "$dir/$(basename "$file")"
    done
    ls -l "$dir"
}

# start_output: the start of a device run. Sets OUT to the device tool's folder
# (target/device-out where the tool gives none), makes it, and names the machine in
# $OUT/machine.txt.
start_output() {
    OUT=${OUT:-target/device-out}
    mkdir -p "$OUT"
    describe_machine "$OUT/machine.txt"
}
