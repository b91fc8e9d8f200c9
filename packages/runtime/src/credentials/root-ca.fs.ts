import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * readRootCA reads the cluster's CA bundle (the root CA publisher's ConfigMap, the token Secrets' ca.crt), as upstream's readCA does with --root-ca-file: the
 * file as it is, once every PEM certificate in it parses; a missing flag, an unreadable file or one holding no
 * certificate is a startup error naming the file.
 */
export function readRootCA(file: string): string {
  if (file === '') throw new Error('--root-ca-file is required: the CA bundle its controllers publish');
  const text = readFileSync(file, 'utf8');
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) throw new Error(`error parsing root-ca-file at ${file}: no PEM certificate in it`);
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (err) {
      throw new Error(`error parsing root-ca-file at ${file}: ${(err as Error).message}`);
    }
  }
  return text;
}
