import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpSchemaRegistry } from './registry.http.ts';
import { RegistryError } from './registry.ts';

describe('httpSchemaRegistry: basic auth', () => {
  const seen: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    const ok = req.headers.authorization === `Basic ${Buffer.from('key:s3cret').toString('base64')}`;
    res
      .writeHead(ok ? 200 : 401, { 'content-type': 'application/vnd.schemaregistry.v1+json' })
      .end(JSON.stringify(ok ? { id: 7 } : { error_code: 40101, message: 'Unauthorized' }));
  });
  const url = new Promise<string>((done) =>
    server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  after(() => server.close());

  it('sends the user and password as an RFC 7617 authorization header', async () => {
    const registry = httpSchemaRegistry(await url, { basicAuth: { username: 'key', password: 's3cret' } });
    assert.equal(await registry.register('t-value', { type: 'string' }), 7);
    assert.equal(seen.at(-1), 'Basic a2V5OnMzY3JldA==');
  });

  it('sends none without credentials, and a 401 is a RegistryError with its status', async () => {
    const registry = httpSchemaRegistry(await url);
    await assert.rejects(
      registry.register('t-value', { type: 'string' }),
      (err: unknown) => err instanceof RegistryError && err.status === 401,
    );
    assert.equal(seen.at(-1), undefined);
  });

  it('refuses a CA for an http:// registry rather than talking plaintext', async () => {
    const registry = httpSchemaRegistry(await url, { ca: 'PEM' });
    await assert.rejects(registry.schemaById(1), /a registry CA is given but .* is not https/);
  });
});
