import { join } from 'node:path';
import { CONTROLLERS, controllersOf, type ReconcilerService } from '@kcm-bus/catalog/controllers.ts';
import { WRITER_SIGNER } from '@kcm-bus/runtime/signing/index.ts';
import { SECRET_DIGEST_KEY_FILE, writeDigestKey } from '@kcm-bus/runtime/signing/digest-key.fs.ts';
import { writeSigningKeys } from '@kcm-bus/runtime/signing/signing-keys.fs.ts';

/**
 * LOCAL_SIGNERS are who signs records on the local stack, by the names the records carry: the writer (results) and
 * every controller of the catalog (mutations).
 */
export const LOCAL_SIGNERS: readonly string[] = [WRITER_SIGNER, ...CONTROLLERS.map((c) => c.name)];

/** SigningFiles name what a service needs in its --signing-dir: whom it signs as, and whose records it believes. */
export type SigningFiles = { readonly keys: readonly string[]; readonly trusted: readonly string[] };

/**
 * signingFilesOf is the least a service needs to sign and verify, as a deployment mounts it: the writer signs results
 * and believes every controller's mutations; a reconciler signs as each of its controllers and believes the writer.
 */
export function signingFilesOf(service: 'writer' | ReconcilerService): SigningFiles {
  if (service === 'writer') return { keys: [WRITER_SIGNER], trusted: CONTROLLERS.map((c) => c.name) };
  return { keys: controllersOf(service).map((c) => c.name), trusted: [WRITER_SIGNER] };
}

/** signingDir is the stack's signing directory: one key pair per local signer, shared by every service on this disk. */
export function signingDir(stackDir: string): string {
  return join(stackDir, 'signing');
}

/**
 * ensureSigningKeys makes the key pairs the stack's signing directory lacks, and its secret digest key (kept across
 * `down` and `up`): every service finds it there (digestKeyPath).
 */
export function ensureSigningKeys(stackDir: string): void {
  writeSigningKeys(signingDir(stackDir), LOCAL_SIGNERS);
  writeDigestKey(join(signingDir(stackDir), SECRET_DIGEST_KEY_FILE));
}
