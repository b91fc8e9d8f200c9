import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Signing, signingWith, UNSIGNED } from './signing.ts';

/**
 * loadSigning reads a service's keys from a signing directory: `<name>.key` (its Ed25519 private key, PKCS#8 PEM;
 * optional) and every `<signer>.pub` (SPKI PEM) as a public key it trusts. An empty dir path: UNSIGNED. A directory
 * that does not exist, or a key file that does not parse, throws naming the file.
 */
export function loadSigning(dir: string, name: string): Signing {
  if (dir === '') return UNSIGNED;
  if (!existsSync(dir)) throw new Error(`--signing-dir ${dir}: no such directory`);
  const keyFile = join(dir, `${name}.key`);
  const privateKey = existsSync(keyFile) ? readKey(keyFile, createPrivateKey) : undefined;
  const trusted = new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.pub'))
      .map((f) => [f.slice(0, -'.pub'.length), readKey(join(dir, f), createPublicKey)] as const),
  );
  return signingWith({ name, privateKey, trusted });
}

function readKey(file: string, parse: (pem: string) => KeyObject): KeyObject {
  try {
    const key = parse(readFileSync(file, 'utf8'));
    if (key.asymmetricKeyType !== 'ed25519')
      throw new Error(`an ${key.asymmetricKeyType ?? 'unknown'} key, not ed25519`);
    return key;
  } catch (err) {
    throw new Error(`${file}: not an Ed25519 PEM key (${(err as Error).message})`);
  }
}

/**
 * writeSigningKeys makes an Ed25519 key pair for each signer that has none in `dir`: `<signer>.key` (mode 0600) and
 * `<signer>.pub`. One directory then serves every service of a deployment that shares one disk (the local stack).
 */
export function writeSigningKeys(dir: string, signers: readonly string[]): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const signer of signers) {
    if (existsSync(join(dir, `${signer}.key`))) continue;
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(join(dir, `${signer}.key`), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(join(dir, `${signer}.pub`), publicKey.export({ type: 'spki', format: 'pem' }));
  }
}
