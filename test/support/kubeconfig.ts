import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** proxiedKubeconfig copies a kubeconfig with its server moved to a local proxy port (the certificate names 127.0.0.1). */
export function proxiedKubeconfig(kubeconfig: string, port: number): string {
  const config = JSON.parse(readFileSync(kubeconfig, 'utf8')) as { clusters: { cluster: { server: string } }[] };
  for (const c of config.clusters) c.cluster.server = `https://127.0.0.1:${port}`;
  const file = join(mkdtempSync(join(tmpdir(), 'kcm-bus-kubeconfig-')), 'kubeconfig');
  writeFileSync(file, JSON.stringify(config));
  return file;
}
