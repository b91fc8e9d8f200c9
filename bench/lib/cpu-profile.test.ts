import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarize, where } from './cpu-profile.ts';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });

describe('CPU profile summary', () => {
  it('given frames of dependencies, of ours, of Node and of V8, then each is named by the part it belongs to', () => {
    assert.deepEqual(
      [
        where(frame('encode', 'file:///w/node_modules/avsc/lib/types.js')),
        where(frame('send', 'file:///w/node_modules/@kubernetes/client-node/dist/api.js')),
        where(frame('sync', 'file:///w/packages/runtime/src/controller/controller.ts')),
        where(frame('main', 'file:///w/services/writer/src/main.ts')),
        where(frame('write', 'node:internal/net')),
        where(frame('(garbage collector)', '')),
      ],
      [
        'avsc',
        '@kubernetes/client-node',
        'packages/runtime',
        'services/writer',
        'node (built-in modules)',
        '(garbage collector)',
      ],
    );
  });

  it('given samples, then self time is summed per package and per function, idle left out, and the service found from its main script', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)', '') },
        { id: 2, callFrame: frame('run', 'file:///w/services/writer/src/main.ts') },
        { id: 3, callFrame: frame('encode', 'file:///w/node_modules/avsc/lib/types.js') },
      ],
      samples: [1, 3, 3, 2],
      timeDeltas: [5000, 3000, 3000, 2000],
    };
    const { service, text } = summarize(profile);
    assert.equal(service, 'writer');
    assert.match(text, /busy 0\.0 CPU-s/);
    assert.match(text, / 75\.0 %  avsc\n/);
    assert.match(text, / 25\.0 %  run services\/writer:10/);
    assert.doesNotMatch(text, /%  \(idle\)/);
  });
});
