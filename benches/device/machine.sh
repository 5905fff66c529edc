# Sourced by the device scripts: describe_machine FILE writes what names the machine a run's
# figures come from (the date, the CPU's vendor, family, model and name, the core count,
# whether it has AVX-512 IFMA, OpenSSL's version, the load) into FILE.
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
