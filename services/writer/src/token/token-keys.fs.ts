import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readRootCA } from '@kcm-bus/runtime/credentials/root-ca.fs.ts';
import { tokenSigner } from './legacy-token.ts';
import type { TokenKeys } from './populate-token.ts';

/**
 * readTokenKeys reads what PopulateToken needs, from kube-controller-manager's flags: the service-account private key
 * (--service-account-private-key-file, PEM) and the CA bundle put in each token Secret (--root-ca-file; every PEM
 * certificate in it must parse). No key file: undefined, and the writer refuses every PopulateToken.
 */
export function readTokenKeys(keyFile: string, caFile: string): TokenKeys | undefined {
  if (keyFile === '') return undefined;
  const named = <T>(flag: string, file: string, read: () => T): T => {
    try {
      return read();
    } catch (err) {
      throw new Error(`--${flag} ${file}: ${(err as Error).message}`);
    }
  };
  const signer = named('service-account-private-key-file', keyFile, () =>
    tokenSigner(createPrivateKey(readFileSync(keyFile))),
  );
  const rootCA = caFile === '' ? Buffer.alloc(0) : Buffer.from(readRootCA(caFile));
  return { signer, rootCA };
}
