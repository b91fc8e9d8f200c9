import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIGEST_KEY_MIN_BYTES, valueDigest, type ValueDigest } from './keyed-digest.ts';

/** SECRET_DIGEST_KEY_FILE is the digest key's file in a --signing-dir, the deployment's keys' folder. */
export const SECRET_DIGEST_KEY_FILE = 'secret-digest.key';

/**
 * digestKeyPath is where a service's digest key is: --secret-digest-key-file when given, else SECRET_DIGEST_KEY_FILE
 * in its --signing-dir (the local stack puts it there for every service), else nowhere ('').
 */
export function digestKeyPath(flag: string, signingDir: string): string {
  if (flag !== '' || signingDir === '') return flag;
  return join(signingDir, SECRET_DIGEST_KEY_FILE);
}

/** readDigestKey reads a digest key file (its bytes are the key) into its ValueDigest; the error names the file. */
export function readDigestKey(file: string): ValueDigest {
  if (file === '') throw new Error("--secret-digest-key-file is required: the key of the secret values' digests");
  try {
    return valueDigest(readFileSync(file));
  } catch (err) {
    throw new Error(`--secret-digest-key-file ${file}: ${(err as Error).message}`);
  }
}

/** writeDigestKey makes a random digest key file (mode 0600) unless one is there: one key per deployment. */
export function writeDigestKey(file: string): void {
  if (!existsSync(file)) writeFileSync(file, randomBytes(DIGEST_KEY_MIN_BYTES), { mode: 0o600 });
}
