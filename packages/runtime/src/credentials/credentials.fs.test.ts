import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type KubeConfigLike, loadKubeConfig } from './credentials.fs.ts';

type User = NonNullable<ReturnType<KubeConfigLike['getCurrentUser']>>;

/** fakeKubeConfig stands for client-node's KubeConfig: one current user, whose own authentication adds `applied`. */
function fakeKubeConfig(user: User, applied: Record<string, string> = {}): KubeConfigLike & { loaded: string[] } {
  const loaded: string[] = [];
  return {
    loaded,
    loadFromFile: (file) => void loaded.push(file),
    loadFromDefault: () => void loaded.push('default'),
    getCurrentUser: () => user,
    applyToHTTPSOptions: async (opts) => void (opts.headers = { ...opts.headers, ...applied }),
  };
}

function kubeconfigWith(dir: string, user: Record<string, string>): string {
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, JSON.stringify({ users: [{ name: 'writer', user }], contexts: [], clusters: [] }));
  return file;
}

describe('loadKubeConfig: the credentials of a kubeconfig, a token file read again when it changes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kcm-bus-credentials-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("given a user with client-go's tokenFile (relative to the kubeconfig), when the file is replaced, then the next credentials carry the new token", async () => {
    writeFileSync(join(dir, 'token'), 'first\n');
    const kc = fakeKubeConfig({ name: 'writer' }, { 'Impersonate-User': 'someone' });
    const credentials = loadKubeConfig(kc, kubeconfigWith(dir, { tokenFile: 'token' }), JSON.parse);
    assert.deepEqual(await credentials.current(), { 'Impersonate-User': 'someone', Authorization: 'Bearer first' });
    writeFileSync(join(dir, 'token.new'), 'second');
    renameSync(join(dir, 'token.new'), join(dir, 'token'));
    assert.equal((await credentials.current())['Authorization'], 'Bearer second');
  });

  it("given a user with both token and tokenFile, then the token wins and is what client-node applied (client-go's precedence)", async () => {
    const kc = fakeKubeConfig({ name: 'writer' }, { Authorization: 'Bearer static' });
    const credentials = loadKubeConfig(kc, kubeconfigWith(dir, { token: 'static', tokenFile: 'token' }), JSON.parse);
    assert.deepEqual(await credentials.current(), { Authorization: 'Bearer static' });
  });

  it("given no path, then it loads as client-node's default does and reads tokenFile from the $KUBECONFIG file", async () => {
    writeFileSync(join(dir, 'token'), 'from-env');
    const kc = fakeKubeConfig({ name: 'writer' });
    const credentials = loadKubeConfig(kc, null, JSON.parse, {
      KUBECONFIG: kubeconfigWith(dir, { tokenFile: 'token' }),
    });
    assert.deepEqual(kc.loaded, ['default']);
    assert.equal((await credentials.current())['Authorization'], 'Bearer from-env');
  });

  it("given the in-cluster config (the tokenFile auth provider), then the service-account token is read from its file, fresher than client-node's minute-old copy", async () => {
    writeFileSync(join(dir, 'sa-token'), 'projected');
    const kc = fakeKubeConfig(
      { name: 'inClusterUser', authProvider: { config: { tokenFile: join(dir, 'sa-token') } } },
      { Authorization: 'Bearer stale' },
    );
    const credentials = loadKubeConfig(kc, null, JSON.parse, {});
    assert.equal((await credentials.current())['Authorization'], 'Bearer projected');
  });
});
