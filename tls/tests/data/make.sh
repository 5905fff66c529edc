#!/usr/bin/env bash
# The fixtures of rsatool-rustls's tests and of .ci/tls-s-client, made once with the openssl
# CLI and committed: a CA, server certificates for RSA-2048/3072/4096 keys, a client
# certificate, an EC (P-256) key and certificate, a certificate for another key, an
# RSA-PSS key, and keys of the sizes at and beyond webpki's bounds for the verification tests.
# Every certificate is valid from 2000 to 2099 (`openssl ca`'s -startdate and -enddate: `x509
# -req` and `req -x509` cannot backdate), so no machine's clock sees one not yet valid or
# expired.
#
#   bash tls/tests/data/make.sh      (from anywhere; rewrites every file beside it)
set -euo pipefail
cd "$(dirname "$0")"
rm -f ./*.pem ./*.srl
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
touch "$scratch/index.txt"
echo 1000 > "$scratch/serial"
# A minimal `openssl ca` configuration: the database and serial in the scratch folder, every
# subject field accepted, the extensions from the file each call names.
cat > "$scratch/ca.cnf" <<X
[ca]
default_ca = test
[test]
database = $scratch/index.txt
serial = $scratch/serial
new_certs_dir = $scratch
default_md = sha256
policy = any
unique_subject = no
copy_extensions = none
[any]
commonName = supplied
[req]
distinguished_name = dn
[dn]
X
# sign CSR OUT EXT [-selfsign -keyfile KEY]: a certificate valid from 2000 to 2099.
sign() {
    openssl ca -batch -notext -config "$scratch/ca.cnf" -startdate 20000101000000Z \
        -enddate 20991231235959Z -in "$1" -out "$2" -extfile "$3" "${@:4}" 2>/dev/null
}

# Extensions: a CA, a TLS server for localhost, a TLS client.
cat > ca.ext <<'X'
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
X
cat > server.ext <<'X'
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1
authorityKeyIdentifier = keyid
X
cat > client.ext <<'X'
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
X

# rsa_key NAME BITS [EXTRA genpkey options]: an RSA key in PKCS #8 PEM.
rsa_key() {
    openssl genpkey -quiet -algorithm RSA -pkeyopt "rsa_keygen_bits:$2" "${@:3}" -out "$1.key.pem"
}

# leaf NAME SUBJECT EXT: NAME.crt.pem, for NAME.key.pem, signed by the CA (sha256WithRSAEncryption).
leaf() {
    openssl req -new -key "$1.key.pem" -subj "/CN=$2" -config "$scratch/ca.cnf" -out "$scratch/$1.csr"
    sign "$scratch/$1.csr" "$1.crt.pem" "$3" -cert ca.crt.pem -keyfile ca.key.pem
}

rsa_key ca 2048
openssl req -new -key ca.key.pem -subj "/CN=rsatool-rustls test CA" -config "$scratch/ca.cnf" \
    -out "$scratch/ca.csr"
sign "$scratch/ca.csr" ca.crt.pem ca.ext -selfsign -keyfile ca.key.pem

for bits in 2048 3072 4096; do
    rsa_key "server-$bits" "$bits"
    leaf "server-$bits" localhost server.ext
done
# The 2048-bit server key again as PKCS #1 (RSA PRIVATE KEY).
openssl pkey -in server-2048.key.pem -traditional -out server-2048.pkcs1.pem

rsa_key client 2048
leaf client "rsatool-rustls test client" client.ext

# A certificate for another key: paired with server-2048's key, it does not match.
rsa_key other 2048
leaf other localhost server.ext

# EC P-256: SEC1 (EC PRIVATE KEY) and PKCS #8, and its certificate.
openssl ecparam -name prime256v1 -genkey -noout -out ec.sec1.pem
openssl pkcs8 -topk8 -nocrypt -in ec.sec1.pem -out ec.key.pem
leaf ec localhost server.ext

# An RSA key restricted to PSS (PKCS #8 with id-RSASSA-PSS).
openssl genpkey -quiet -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048 -out rsa-pss.key.pem

# Keys at and beyond webpki's RSA bounds (moduli of 2048 to 8192 bits, e < 2^33).
rsa_key rsa-1024 1024
rsa_key rsa-2047 2047
rsa_key rsa-8192 8192
rsa_key rsa-8200 8200
rsa_key rsa-e-2pow33-minus-1 2048 -pkeyopt rsa_keygen_pubexp:8589934591
rsa_key rsa-e-2pow33-plus-1 2048 -pkeyopt rsa_keygen_pubexp:8589934593

rm -f ./*.ext ./*.srl
ls -l
