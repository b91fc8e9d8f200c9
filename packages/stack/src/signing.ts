import { join } from 'node:path';
import { CONTROLLERS } from '@kcm-bus/catalog/controllers.ts';
import { writeSigningKeys } from '@kcm-bus/runtime/signing/signing-keys.fs.ts';

/**
 * LOCAL_SIGNERS are who signs records on the local stack, by the names the records carry: the writer (results) and
 * every controller of the catalog (mutations).
 */
export const LOCAL_SIGNERS: readonly string[] = ['writer', ...CONTROLLERS.map((c) => c.name)];

/** signingDir is the stack's signing directory: one key pair per local signer, shared by every service on this disk. */
export function signingDir(stackDir: string): string {
  return join(stackDir, 'signing');
}

/** ensureSigningKeys makes the key pairs the stack's signing directory lacks (kept across `down` and `up`). */
export function ensureSigningKeys(stackDir: string): void {
  writeSigningKeys(signingDir(stackDir), LOCAL_SIGNERS);
}
