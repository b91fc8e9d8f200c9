import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sh } from './sh.ts';
import type { TlsClient } from './probes.ts';

/** Identity is a client certificate subject: CN is the Kubernetes user name, O its groups. */
export type Identity = { readonly file: string; readonly user: string; readonly groups: readonly string[] };

/**
 * IDENTITIES are the clients of the local apiserver: the admin (system:masters, also used by the
 * upstream parts), and one identity per kcm-bus service that talks to the API. Reconcilers have none:
 * they hold no API credentials by design.
 */
export const IDENTITIES: readonly Identity[] = [
  { file: 'admin', user: 'kcm-bus:admin', groups: ['system:masters'] },
  { file: 'watcher', user: 'kcm-bus:watcher', groups: [] },
  { file: 'writer', user: 'kcm-bus:writer', groups: [] },
];

const DAYS = '3650';

/** pkiDir is the folder of a stack's throwaway CA, serving and client certificates. */
export function pkiDir(stackDir: string): string {
  return join(stackDir, 'pki');
}

/** ensurePki makes the throwaway CA, the apiserver's serving pair, the client pairs and the service-account keys once. */
export async function ensurePki(stackDir: string): Promise<void> {
  const dir = pkiDir(stackDir);
  if (existsSync(join(dir, 'complete'))) return;
  mkdirSync(dir, { recursive: true });
  await openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-subj',
    '/CN=kcm-bus-local-ca',
    '-days',
    DAYS,
  ]);
  await signed(
    dir,
    'apiserver',
    '/CN=kube-apiserver',
    'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:10.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  for (const id of IDENTITIES) {
    const subject = `/CN=${id.user}${id.groups.map((g) => `/O=${g}`).join('')}`;
    await signed(dir, id.file, subject, 'extendedKeyUsage=clientAuth\n');
  }
  await openssl(dir, ['genrsa', '-out', 'sa.key', '2048']);
  await openssl(dir, ['rsa', '-in', 'sa.key', '-pubout', '-out', 'sa.pub']);
  writeFileSync(join(dir, 'complete'), '');
}

/**
 * ensureServingCert signs, once, a serving key pair `<name>.key`/`<name>.crt` for 127.0.0.1 and localhost with the
 * stack's CA (ensurePki first): a part added after a stack's PKI was made gets its certificate without a purge.
 */
export async function ensureServingCert(
  stackDir: string,
  name: string,
): Promise<{ readonly key: string; readonly cert: string }> {
  const dir = pkiDir(stackDir);
  const files = { key: join(dir, `${name}.key`), cert: join(dir, `${name}.crt`) };
  if (!existsSync(files.cert))
    await signed(dir, name, `/CN=${name}`, 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  return files;
}

async function signed(dir: string, name: string, subject: string, extensions: string): Promise<void> {
  writeFileSync(join(dir, `${name}.ext`), extensions);
  await openssl(dir, [
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    subject,
  ]);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    DAYS,
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.crt`,
  ]);
}

function openssl(cwd: string, args: readonly string[]): Promise<string> {
  return sh('openssl', args, { cwd });
}

/** tlsClient reads one identity's key pair and the CA, for requests made by the stack itself. */
export function tlsClient(stackDir: string, file: string): TlsClient {
  const dir = pkiDir(stackDir);
  const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
  return { ca: read('ca.crt'), cert: read(`${file}.crt`), key: read(`${file}.key`) };
}
