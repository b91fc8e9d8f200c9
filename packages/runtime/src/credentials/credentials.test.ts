import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CredentialCache, type RequestCredentials, sendWithCredentials } from './credentials.ts';

/** tokenSource is a token file in memory: its content, and how often credentials were loaded from it. */
type TokenSource = { token: string; version: number; loads: number; cache: CredentialCache };
function tokenSource(initial: string): TokenSource {
  const source: TokenSource = {
    token: initial,
    version: 1,
    loads: 0,
    cache: new CredentialCache(
      async () => ({}),
      () => '',
    ),
  };
  source.cache = new CredentialCache(
    async () => {
      source.loads++;
      return { Authorization: `Bearer ${source.token}` };
    },
    () => String(source.version),
  );
  return source;
}

/** apiserver answers 200 to the one valid token and 401 to any other, recording what it was sent. */
function apiserver(valid: () => string): { sent: string[]; send: (c: RequestCredentials) => Promise<number> } {
  const sent: string[] = [];
  return {
    sent,
    send: async (c) => (sent.push(c['Authorization'] ?? ''), c['Authorization'] === `Bearer ${valid()}` ? 200 : 401),
  };
}
const is401 = (answer: unknown): boolean => answer === 401;

/**
 * rotation is a source and an apiserver that accepts its token 'a' until rotate(): then only 'b' is valid and the
 * source holds it (its version moves too unless the rotation is one the source cannot see, as an exec plugin's).
 */
async function rotation(): Promise<{
  source: TokenSource;
  api: ReturnType<typeof apiserver>;
  rotate: (visible: boolean) => void;
}> {
  const source = tokenSource('a');
  let valid = 'a';
  const api = apiserver(() => valid);
  await sendWithCredentials(source.cache, api.send, is401);
  return {
    source,
    api,
    rotate: (visible) => {
      source.token = 'b';
      if (visible) source.version++;
      valid = 'b';
    },
  };
}

describe('CredentialCache and sendWithCredentials: credentials that rotate', () => {
  it('given an unchanged source, when requests are sent, then the credentials are loaded once and reused', async () => {
    const source = tokenSource('a');
    const api = apiserver(() => 'a');
    for (let i = 0; i < 5; i++) assert.equal(await sendWithCredentials(source.cache, api.send, is401), 200);
    assert.equal(source.loads, 1);
  });

  it('given the token file rewritten (a new version), when the next request is sent, then it carries the new token without a 401', async () => {
    const { source, api, rotate } = await rotation();
    rotate(true);
    assert.equal(await sendWithCredentials(source.cache, api.send, is401), 200);
    assert.deepEqual(api.sent, ['Bearer a', 'Bearer b']);
  });

  it('given a token revoked while the source reports no change (an exec plugin), when a request is answered 401, then it is sent once more with credentials loaded again', async () => {
    const { source, api, rotate } = await rotation();
    rotate(false);
    assert.equal(await sendWithCredentials(source.cache, api.send, is401), 200);
    assert.deepEqual(api.sent, ['Bearer a', 'Bearer a', 'Bearer b']);
    assert.equal(source.loads, 2);
  });

  it('given credentials that stay refused, when a request is answered 401 twice, then the second 401 is the answer (one retry, no loop)', async () => {
    const source = tokenSource('a');
    const api = apiserver(() => 'never');
    assert.equal(await sendWithCredentials(source.cache, api.send, is401), 401);
    assert.equal(api.sent.length, 2);
  });

  it('given many requests refused 401 at once, when they retry, then the credentials are loaded again once, not once per request', async () => {
    const { source, api, rotate } = await rotation();
    rotate(false);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => sendWithCredentials(source.cache, api.send, is401)),
    );
    assert.deepEqual(answers, Array(8).fill(200));
    assert.equal(source.loads, 2);
  });

  it('given an error that is a 401 (a list refused), then it is retried; given another error, then it is thrown as it is', async () => {
    const source = tokenSource('a');
    let calls = 0;
    const refusedOnce = async (): Promise<string> => {
      if (calls++ === 0) throw Object.assign(new Error('401: Unauthorized'), { code: 401 });
      return 'listed';
    };
    const errorIs401 = (e: unknown): boolean => (e as { code?: number }).code === 401;
    assert.equal(await sendWithCredentials(source.cache, refusedOnce, errorIs401), 'listed');
    await assert.rejects(
      sendWithCredentials(
        source.cache,
        async () => {
          throw new Error('connection refused');
        },
        errorIs401,
      ),
      /connection refused/,
    );
  });

  it('given a load that fails (the token file missing for a moment), then the next request loads again', async () => {
    let fail = true;
    const cache = new CredentialCache(
      async () => {
        if (fail) throw new Error('ENOENT');
        return { Authorization: 'Bearer a' };
      },
      () => '1',
    );
    await assert.rejects(cache.current(), /ENOENT/);
    fail = false;
    assert.deepEqual(await cache.current(), { Authorization: 'Bearer a' });
  });
});
