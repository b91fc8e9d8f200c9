/**
 * `node bench/standalone/signing-cost.ts` — what signing costs per record: Ed25519 sign and verify over a 1500-byte record (a
 * pod-sized mutation), as the reconcilers and the writer do each mutation and each result. No stack needed.
 */
import { generateKeyPairSync } from 'node:crypto';
import { signingWith } from '@kcm-bus/runtime/signing/index.ts';

const N = 10_000;
const signer = 'replicationcontroller-controller';
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const signing = signingWith({ name: signer, privateKey, trusted: new Map([[signer, publicKey]]) });
const value = Buffer.alloc(1500, 7);
const keys = Array.from({ length: N }, (_, i) => `ns/web-${i}`);

const microsEach = (work: () => void): number => {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1000 / N;
};
const headers: Record<string, string>[] = [];
const sign = microsEach(() => keys.forEach((k) => headers.push(signing.headers(k, value))));
const verify = microsEach(() =>
  keys.forEach((k, i) => signing.verify(signer, { key: k, value, headers: headers[i] ?? {} })),
);
console.log(
  `Ed25519 over a 1500-byte record, ${N} records: sign ${sign.toFixed(1)} µs, verify ${verify.toFixed(1)} µs each; ` +
    `per 1000 pods created (a mutation and a result, each signed once and verified once): ${((2 * (sign + verify) * 1000) / 1e6).toFixed(2)} CPU-s`,
);
