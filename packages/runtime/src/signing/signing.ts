/*
 * Signed records. The bus carries commands to the cluster, so a mutation must prove which controller wrote it, and
 * a result that the writer did. Every signer holds its own Ed25519 private key; every reader holds the public keys
 * it trusts. The signature covers the record's key and value and travels in two headers, so the value stays plain
 * Confluent-framed Avro that ordinary Kafka tools read.
 */
import { sign, verify, type KeyObject } from 'node:crypto';

/** SIGNER_HEADER names who signed a record: a controller (`replicationcontroller-controller`) or `writer`. */
export const SIGNER_HEADER = 'kcm-bus-signer';

/** SIGNATURE_HEADER is the Ed25519 signature of the record's key and value, base64. */
export const SIGNATURE_HEADER = 'kcm-bus-signature';

/** WRITER_SIGNER is the writer's signer name: the only one a result may carry. */
export const WRITER_SIGNER = 'writer';

/** SignedRecord is what a signature covers and where it travels. */
export type SignedRecord = {
  readonly key: string;
  readonly value: Buffer;
  readonly headers: Readonly<Record<string, string>>;
};

/** ForgedRecordError: a record without a valid signature of the signer it must come from (a poison record). */
export class ForgedRecordError extends Error {
  override readonly name = 'ForgedRecordError';
}

/**
 * Signing is one service's side: headers signs a record as this service, verify throws ForgedRecordError unless a
 * record is signed by `signer` with a key this service trusts. `enabled` is false for a service given no keys:
 * it signs nothing and verifies nothing.
 */
export interface Signing {
  readonly enabled: boolean;
  headers(key: string, value: Buffer): Record<string, string>;
  verify(signer: string, record: SignedRecord): void;
}

/** UNSIGNED is the Signing of a service given no keys. */
export const UNSIGNED: Signing = { enabled: false, headers: () => ({}), verify: () => undefined };

/** SigningKeys are a service's own private key (absent: it verifies only) and the public keys it trusts, by signer. */
export type SigningKeys = {
  readonly name: string;
  readonly privateKey?: KeyObject | undefined;
  readonly trusted: ReadonlyMap<string, KeyObject>;
};

/** signingWith signs with keys.privateKey as keys.name and verifies against keys.trusted. */
export function signingWith(keys: SigningKeys): Signing {
  return {
    enabled: true,
    headers: (key, value) => {
      if (!keys.privateKey) throw new Error(`no private key for ${keys.name}: it may verify records but not sign them`);
      return {
        [SIGNER_HEADER]: keys.name,
        [SIGNATURE_HEADER]: sign(null, signedBytes(key, value), keys.privateKey).toString('base64'),
      };
    },
    verify: (signer, record) => {
      const claimed = record.headers[SIGNER_HEADER];
      if (claimed === undefined || record.headers[SIGNATURE_HEADER] === undefined)
        throw new ForgedRecordError(`unsigned: a record here must be signed by ${signer}`);
      if (claimed !== signer)
        throw new ForgedRecordError(`signed by ${JSON.stringify(claimed)}, but only ${signer} may write it`);
      const trusted = keys.trusted.get(signer);
      if (!trusted) throw new ForgedRecordError(`no trusted public key for ${signer}`);
      const signature = Buffer.from(record.headers[SIGNATURE_HEADER], 'base64');
      if (!verify(null, signedBytes(record.key, record.value), trusted, signature))
        throw new ForgedRecordError(`bad signature of ${signer}`);
    },
  };
}

/** signedBytes are the key's length (4 bytes, big-endian), the key and the value: no two records sign the same bytes. */
function signedBytes(key: string, value: Buffer): Buffer {
  const k = Buffer.from(key, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(k.length);
  return Buffer.concat([length, k, value]);
}
