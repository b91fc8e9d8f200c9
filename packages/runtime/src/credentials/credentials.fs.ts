import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { delimiter, dirname, resolve } from 'node:path';
import { CredentialCache, type RequestCredentials } from './credentials.ts';

/** KubeUser is the part of client-node's User read here. */
type KubeUser = {
  readonly name: string;
  readonly authProvider?: { readonly config?: Readonly<Record<string, string>> };
};

/**
 * KubeConfigLike is the part of client-node's KubeConfig this module drives, named structurally so that this package
 * needs no client-node (only the watcher and the writer import it, and pass their KubeConfig in).
 */
export interface KubeConfigLike {
  loadFromFile(file: string): void;
  loadFromDefault(): void;
  getCurrentUser(): KubeUser | null;
  applyToHTTPSOptions(opts: { headers?: Record<string, string | number | string[] | undefined> }): Promise<void>;
}

/**
 * loadKubeConfig loads kc from `path`, else as client-node's loadFromDefault does ($KUBECONFIG, ~/.kube/config,
 * in-cluster), and returns the credentials of its current user, recomputed per CredentialCache. A token file is read
 * again whenever it changes: client-go's `tokenFile` user field (which client-node 2.0 does not read; resolved
 * against its kubeconfig's folder, and second to a `token`, as client-go does) or the service-account token of the
 * in-cluster config. Other users' credentials (exec plugins, OIDC, static tokens) are applied again after a 401.
 * parseYaml is client-node's loadYaml.
 */
export function loadKubeConfig(
  kc: KubeConfigLike,
  path: string | null,
  parseYaml: (text: string) => unknown,
  env: NodeJS.ProcessEnv = process.env,
): CredentialCache {
  if (path) kc.loadFromFile(path);
  else kc.loadFromDefault();
  const user = kc.getCurrentUser();
  const files = path ? [path] : (env['KUBECONFIG'] ?? '').split(delimiter).filter(Boolean);
  const tokenFile =
    user?.authProvider?.config?.['tokenFile'] ??
    files.map((f) => kubeconfigTokenFile(f, user?.name ?? '', parseYaml)).find((f) => f !== undefined);
  const load = async (): Promise<RequestCredentials> => {
    const opts: { headers?: Record<string, string | number | string[] | undefined> } = {};
    await kc.applyToHTTPSOptions(opts);
    const headers = Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k, String(v)]));
    if (tokenFile === undefined) return headers;
    return { ...headers, Authorization: `Bearer ${(await readFile(tokenFile, 'utf8')).trim()}` };
  };
  return new CredentialCache(load, tokenFile === undefined ? () => '' : () => fileVersion(tokenFile));
}

type RawKubeconfig = {
  readonly users?: readonly {
    readonly name?: string;
    readonly user?: { readonly token?: string; readonly tokenFile?: string };
  }[];
};

/** kubeconfigTokenFile is the `tokenFile` of the named user in a kubeconfig file, absolute; undefined when it has none or a `token`. */
function kubeconfigTokenFile(file: string, userName: string, parseYaml: (text: string) => unknown): string | undefined {
  const raw = parseYaml(readFileSync(file, 'utf8')) as RawKubeconfig | null;
  const user = raw?.users?.find((u) => u.name === userName)?.user;
  if (!user?.tokenFile || user.token) return undefined;
  return resolve(dirname(file), user.tokenFile);
}

/** fileVersion changes when a file is rewritten or replaced (the kubelet swaps a projected token's symlink). */
function fileVersion(file: string): string {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch (err) {
    return `unreadable: ${(err as Error).message}`;
  }
}
