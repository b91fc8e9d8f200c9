import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { assertPortsFree, PortTakenError } from './ports.ts';

describe('assertPortsFree', () => {
  it('names a taken port, its use and the process holding it', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const err = await assertPortsFree([{ name: 'kafka', port }]).catch((e: unknown) => e);
      assert.ok(err instanceof PortTakenError);
      assert.match(err.message, new RegExp(`port ${port} \\(kafka\\)`));
      assert.match(err.message, new RegExp(`pid ${process.pid}`));
    } finally {
      server.close();
    }
  });

  it('passes when every port is free', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    await assertPortsFree([{ name: 'free', port }]);
  });
});
