#!/usr/bin/env bash
# Makes the TLS test certificates of src/client/transport/http/tests.rs: a self-signed
# CA ("near-rpc test CA") and a leaf for localhost and 127.0.0.1 signed by it, both
# valid from 2000 to 2100, P-256 keys. Only the leaf's key is kept (the servers of the
# tests need it); the CA's key is thrown away, so nothing more can be signed by it.
# Test data only: no client outside these tests trusts the CA.
#
# Run from this directory: ./make-certs.sh (needs openssl 3).
set -euo pipefail
here=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir db && touch db/index.txt && echo 1000 > db/serial
cat > ca.cnf <<'CNF'
[ca]
default_ca = test_ca
[test_ca]
database = db/index.txt
serial = db/serial
new_certs_dir = db
default_md = sha256
policy = any
unique_subject = no
[any]
commonName = supplied
[ca_ext]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign
subjectKeyIdentifier = hash
[leaf_ext]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost,IP:127.0.0.1
authorityKeyIdentifier = keyid
CNF
# `openssl ca`, not `req -x509`/`x509 -req`: only it takes a start date, and one in the
# past keeps the certificates valid on a machine whose clock is behind.
dates=(-startdate 20000101000000Z -enddate 21000101000000Z)
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
  -keyout ca.key -out ca.csr -subj "/CN=near-rpc test CA"
openssl ca -batch -config ca.cnf -selfsign -keyfile ca.key -in ca.csr -out ca.pem \
  -notext -extensions ca_ext "${dates[@]}"
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
  -keyout localhost.key -out localhost.csr -subj "/CN=localhost"
openssl ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in localhost.csr \
  -out localhost.pem -notext -extensions leaf_ext "${dates[@]}"
openssl verify -CAfile ca.pem localhost.pem
cp ca.pem localhost.pem localhost.key "$here/"
