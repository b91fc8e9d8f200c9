import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONTROLLERS, controllersOf, RECONCILER_SERVICES } from '@kcm-bus/catalog/controllers.ts';
import { LOCAL_SIGNERS, signingFilesOf } from './signing.ts';

describe('signingFilesOf: what each service holds in its --signing-dir when deployed', () => {
  it('given the writer, then it signs as the writer and believes every controller of the catalog', () => {
    assert.deepEqual(signingFilesOf('writer'), { keys: ['writer'], trusted: CONTROLLERS.map((c) => c.name) });
  });

  it('given a reconciler, then it signs as each of its own controllers and believes only the writer', () => {
    for (const service of RECONCILER_SERVICES)
      assert.deepEqual(
        signingFilesOf(service),
        { keys: controllersOf(service).map((c) => c.name), trusted: ['writer'] },
        service,
      );
  });

  it('given every service, then each local signer signs in exactly one of them: no private key is mounted twice', () => {
    const keys = (['writer', ...RECONCILER_SERVICES] as const).flatMap((s) => signingFilesOf(s).keys);
    assert.deepEqual([...keys].sort(), [...LOCAL_SIGNERS].sort());
  });
});
