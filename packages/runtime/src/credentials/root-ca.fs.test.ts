import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readRootCA } from './root-ca.fs.ts';

const dir = mkdtempSync(join(tmpdir(), 'kcm-bus-root-ca-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
/** A CA certificate made for this test (`openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -subj /CN=test-ca`). */
const PEM = `-----BEGIN CERTIFICATE-----
MIIBezCCASGgAwIBAgIUQYTyJv2SN9zII4l95479GHA0fBIwCgYIKoZIzj0EAwIw
EjEQMA4GA1UEAwwHdGVzdC1jYTAgFw0yNjExMjkwNTA5MDRaGA8yMTI2MTEwNTA1
MDkwNFowEjEQMA4GA1UEAwwHdGVzdC1jYTBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABNn07/8OGyEiRkrto/69iTbWvTwVwG1eTb/xPA0hhLEjGNNvaaYHtySJK0re
s59sfGSupz5XzgPk4IkBBKYoFbijUzBRMB0GA1UdDgQWBBRf9Xbypdbayad5XBQc
0wN/r0RqZTAfBgNVHSMEGDAWgBRf9Xbypdbayad5XBQc0wN/r0RqZTAPBgNVHRMB
Af8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIDhphU8MkVVOnxYAo+XbNbR+pv39
BWXsrjNyRqV+177GAiEAmMwhXVen1Qzq7/jM2uBXFCoWiBmmKW+UUshsoEr2vXw=
-----END CERTIFICATE-----
`;

describe('readRootCA (--root-ca-file, as readCA)', () => {
  it('given a bundle of PEM certificates, then it is published as it is, byte for byte', () => {
    const path = file('ca.crt', PEM + PEM);
    assert.equal(readRootCA(path), readFileSync(path, 'utf8'));
  });
  it('given no flag, a file with no certificate or a broken one, then a startup error naming why', () => {
    assert.throws(() => readRootCA(''), /--root-ca-file is required/);
    assert.throws(() => readRootCA(file('empty.crt', 'nothing here\n')), /no PEM certificate in it/);
    const broken = PEM.replace('MIIBezCC', 'MIIBezCD');
    assert.throws(() => readRootCA(file('broken.crt', broken)), /error parsing root-ca-file at .*broken\.crt/);
  });
});
