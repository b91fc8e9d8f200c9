import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Namespace, NamespacePhase, ServiceAccount } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import type { ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import type { Outcome } from '@kcm-bus/runtime/mutation/index.ts';
import { failedWrite, syncInput as input } from '../namespace.fixture.ts';
import { serviceAccountsControllerSpec } from './serviceaccounts-controller.ts';

const NS = 'default';
const namespace = (phase: NamespacePhase): Namespace => ({ metadata: { name: NS, uid: 'ns-uid' }, status: { phase } });
const account = (name: string): ServiceAccount => ({
  metadata: { name, namespace: NS, uid: `${name}-uid`, resourceVersion: '1' },
});
const [DEFAULT, MANAGED, UNMANAGED] = [account('default'), account('managed'), account('other-unmanaged')];

type Case = {
  readonly namespace?: Namespace;
  readonly accounts: readonly ServiceAccount[];
  readonly event: { readonly input: 'namespaces' | 'serviceAccounts'; readonly e: ObjectEvent<never> };
  readonly created: readonly string[];
};

const added = (ns: Namespace): Case['event'] => ({
  input: 'namespaces',
  e: { type: 'Applied', key: NS, object: ns as never, old: undefined, live: true },
});
const updated = (ns: Namespace): Case['event'] => ({
  input: 'namespaces',
  e: { type: 'Applied', key: NS, object: ns as never, old: ns as never, live: true },
});
const deleted = (sa: ServiceAccount): Case['event'] => ({
  input: 'serviceAccounts',
  e: { type: 'Deleted', key: `${NS}/${sa.metadata.name}`, object: sa as never, old: sa as never, live: true },
});

/** run feeds one event to the spec (the namespace, when the event adds or updates it, is in its store) and syncs what it enqueued. */
function run(c: Case): string[] {
  const namespaces = c.namespace ?? (c.event.input === 'namespaces' ? (c.event.e.object as Namespace) : undefined);
  const listers = { namespaces: listerOf(namespaces ? [namespaces] : []), serviceAccounts: listerOf(c.accounts) };
  const spec = serviceAccountsControllerSpec(listers, ['default', 'managed']);
  const keys = spec.handlers[c.event.input](c.event.e).enqueue ?? [];
  const mutations = keys.flatMap((k) => spec.reconcile(k, input()).mutations);
  for (const m of mutations)
    assert.deepEqual([m.verb, m.target.resource, m.target.namespace], ['Create', 'serviceaccounts', NS]);
  return mutations.map((m) => (JSON.parse(m.body ?? '{}') as ServiceAccount).metadata.name).sort();
}

describe('serviceaccount-controller (TestServiceAccountCreation)', () => {
  const [active, terminating] = [namespace('Active'), namespace('Terminating')];
  const cases: Record<string, Case> = {
    'new active namespace missing serviceaccounts': {
      accounts: [],
      event: added(active),
      created: ['default', 'managed'],
    },
    'new active namespace missing serviceaccount': { accounts: [MANAGED], event: added(active), created: ['default'] },
    'new active namespace with serviceaccounts': { accounts: [DEFAULT, MANAGED], event: added(active), created: [] },
    'new terminating namespace': { accounts: [], event: added(terminating), created: [] },
    'updated active namespace missing serviceaccounts': {
      accounts: [],
      event: updated(active),
      created: ['default', 'managed'],
    },
    'updated active namespace missing serviceaccount': {
      accounts: [DEFAULT],
      event: updated(active),
      created: ['managed'],
    },
    'updated active namespace with serviceaccounts': {
      accounts: [DEFAULT, MANAGED],
      event: updated(active),
      created: [],
    },
    'updated terminating namespace': { accounts: [], event: updated(terminating), created: [] },
    'deleted serviceaccount without namespace': { accounts: [], event: deleted(DEFAULT), created: [] },
    'deleted serviceaccount with active namespace': {
      namespace: active,
      accounts: [MANAGED],
      event: deleted(DEFAULT),
      created: ['default'],
    },
    'deleted serviceaccount with terminating namespace': {
      namespace: terminating,
      accounts: [],
      event: deleted(DEFAULT),
      created: [],
    },
    'deleted unmanaged serviceaccount with active namespace': {
      namespace: active,
      accounts: [DEFAULT, MANAGED],
      event: deleted(UNMANAGED),
      created: [],
    },
    'deleted unmanaged serviceaccount with terminating namespace': {
      namespace: terminating,
      accounts: [],
      event: deleted(UNMANAGED),
      created: [],
    },
  };
  for (const [name, c] of Object.entries(cases))
    it(`given ${name}, then it creates ${c.created.length === 0 ? 'nothing' : c.created.join(' and ')}`, () =>
      assert.deepEqual(run(c), c.created));

  it('given a deleted namespace, then nothing is enqueued (upstream handles only adds and updates of namespaces)', () => {
    const spec = serviceAccountsControllerSpec({ namespaces: listerOf([]), serviceAccounts: listerOf([]) });
    const e: ObjectEvent<Namespace> = { type: 'Deleted', key: NS, object: active, old: active, live: true };
    assert.deepEqual(spec.handlers.namespaces(e).enqueue, []);
  });
});

describe("serviceaccount-controller's failed creates (syncNamespace's aggregate error)", () => {
  const result = (outcome: Outcome, reason: string) =>
    failedWrite(
      {
        controller: 'serviceaccount-controller',
        verb: 'Create',
        kind: 'ServiceAccount',
        resource: 'serviceaccounts',
        name: 'default',
      },
      outcome,
      reason,
    );
  const spec = serviceAccountsControllerSpec({
    namespaces: listerOf([namespace('Active')]),
    serviceAccounts: listerOf([]),
  });

  it('given a create that failed, then the sync is an error naming it and writes nothing until its retry', () => {
    const decision = spec.reconcile(NS, input([result('Failed', 'InternalError')]));
    assert.deepEqual([decision.mutations.length, decision.error], [0, 'Create default/default: boom']);
    assert.equal(spec.reconcile(NS, input()).mutations.length, 1);
  });
  it('given AlreadyExists, or a namespace found terminating, then no error (upstream ignores both)', () => {
    for (const r of [result('AlreadyDone', 'AlreadyExists'), result('Failed', 'NamespaceTerminating')])
      assert.equal(spec.reconcile(NS, input([r])).error, undefined);
  });
});
