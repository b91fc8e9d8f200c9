import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ControllerEntry } from '../catalog/entry.ts';
import { declared } from './catalog-declaration.ts';
import type { ControllerCode } from './catalog-declaration.ts';

/** ENTRY is a catalog entry as packages/catalog writes them: literal, so its names are types. */
const ENTRY = {
  name: 'probe-controller',
  service: 'probe',
  eventSource: 'probe',
  reconciles: null,
  eventKinds: [],
  grants: [],
  ownerFinalizers: [],
  parts: [
    {
      workqueue: 'probe',
      inputs: { pods: { kind: 'pods', scope: 'partitioned' }, nodes: { kind: 'nodes', scope: 'global' } },
      workers: { name: 'concurrent-probe-syncs', default: 1, help: 'Keys synced at once.' },
    },
  ],
} as const satisfies ControllerEntry;

type Pod = { readonly pod: true };
type Node = { readonly node: true };
type ProbeInputs = { readonly pods: Pod; readonly nodes: Node };

const code = <L extends ProbeInputs>(): ControllerCode<L> => ({
  spec: () =>
    ({
      handlers: { pods: () => ({ enqueue: [] }), nodes: () => ({ enqueue: [] }) },
      reconcile: () => ({ mutations: [] }),
    }) as never,
});

describe('declared: a declaration is checked against its catalog entry by the type system', () => {
  it('given the inputs and workqueue the entry names, then it declares the part, its topics and scopes from the entry', () => {
    const d = declared(
      ENTRY,
      'probe',
    )<ProbeInputs>({ ...code<ProbeInputs>(), inputs: { pods: { fields: ['metadata.name'] } } });
    assert.deepEqual(
      d.open((declaration) => Object.entries(declaration.inputs).map(([name, i]) => `${name} ${i.topic} ${i.scope}`)),
      ['pods kcm.state.pods partitioned', 'nodes kcm.state.nodes global'],
    );
    assert.deepEqual(
      [d.name, d.service, d.workqueue, d.workers.name],
      ['probe-controller', 'probe', 'probe', 'concurrent-probe-syncs'],
    );
  });

  it('given a fetch linger on a part that shares its group (no singleton), then it is refused', () => {
    assert.throws(
      () => declared(ENTRY, 'probe')<ProbeInputs>({ ...code<ProbeInputs>(), fetchLingerMs: 200 }),
      /probe-controller's probe: fetchLingerMs is a singleton's/,
    );
  });

  it('given a workqueue, input options or input types the entry does not name, then it does not compile', () => {
    // @ts-expect-error: 'probes' is no workqueue of the entry (it also throws, for a caller the types did not check).
    assert.throws(() => declared(ENTRY, 'probes'), /no part with workqueue "probes"/);
    // @ts-expect-error: 'podz' is not an input of the entry's part.
    declared(ENTRY, 'probe')<ProbeInputs>({ ...code<ProbeInputs>(), inputs: { podz: {} } });
    // @ts-expect-error: the input types name 'leases', which the entry's part does not read.
    declared(ENTRY, 'probe')<ProbeInputs & { readonly leases: unknown }>(code());
    // @ts-expect-error: the input types leave out 'nodes', which the entry's part reads.
    declared(ENTRY, 'probe')<{ readonly pods: Pod }>(code());
  });
});
