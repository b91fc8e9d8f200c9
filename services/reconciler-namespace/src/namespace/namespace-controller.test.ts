import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Namespace } from '@kcm-bus/k8s/core-v1.ts';
import { listerOf } from '@kcm-bus/k8s/lister.fixture.ts';
import type { Decision, ObjectEvent } from '@kcm-bus/runtime/controller/index.ts';
import type { MutationResult, NamespaceContentReport } from '@kcm-bus/runtime/mutation/index.ts';
import { CLEAN_CONTENT_REPORT } from '@kcm-bus/runtime/mutation/mutation.fixture.ts';
import { failedWrite, syncInput } from '../namespace.fixture.ts';
import { NAMESPACE_DELETION_GRACE_PERIOD_MS, namespaceControllerSpec } from './namespace-controller.ts';
import { failingConditions, updateConditions } from './conditions.ts';

const DELETED_AT = '2026-11-28T23:59:00Z';
const terminating = (over: Partial<Namespace> = {}): Namespace => ({
  metadata: { name: 'doomed', uid: 'ns-uid', resourceVersion: '7', deletionTimestamp: DELETED_AT },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Terminating' },
  ...over,
});
const CLEAN = CLEAN_CONTENT_REPORT;

/** reportOf is the Applied result of a DeleteNamespaceContent of `doomed` at `at` carrying `report`. */
function reportOf(report: NamespaceContentReport, at = '2026-11-29T00:00:00Z'): MutationResult {
  const done = failedWrite(
    {
      controller: 'namespace-controller',
      verb: 'DeleteNamespaceContent',
      kind: 'Namespace',
      resource: 'namespaces',
      name: 'doomed',
    },
    'Applied',
    '',
  );
  return { ...done, status: 200, appliedAt: at, reconcileKey: 'doomed', contentReport: report };
}

/** sync runs one sync of `doomed` with the store holding `ns` and the key's latest report. */
function sync(ns: Namespace | undefined, report?: MutationResult, failures: readonly MutationResult[] = []): Decision {
  const spec = namespaceControllerSpec({ namespaces: listerOf(ns === undefined ? [] : [ns]) });
  return spec.reconcile('doomed', { ...syncInput(failures), report });
}

const verbs = (d: Decision): string[] => d.mutations.map((m) => `${m.verb} ${m.target.subresource ?? ''}`.trim());
const bodyOf = (d: Decision, i = 0): Namespace => JSON.parse(d.mutations[i]!.body!) as Namespace;
/** reflected is the namespace with the conditions a report makes already written (what the store holds after). */
const reflected = (report: NamespaceContentReport): Namespace => {
  const { conditions } = updateConditions([], failingConditions(report), new Date());
  return terminating({ status: { phase: 'Terminating', conditions } });
};

describe('namespace-controller (namespacedResourcesDeleter.Delete, one step per sync)', () => {
  it('enqueues a namespace being deleted after the grace period, and nothing else', () => {
    const spec = namespaceControllerSpec({ namespaces: listerOf([]) });
    const event = (object: Namespace, type: 'Applied' | 'Deleted'): ObjectEvent<Namespace> =>
      ({ type, key: 'doomed', object, old: undefined, live: true }) as ObjectEvent<Namespace>;
    const after = (e: ObjectEvent<Namespace>) => spec.handlers.namespaces(e).enqueueAfter;
    assert.deepEqual(after(event(terminating(), 'Applied')), [
      { key: 'doomed', ms: NAMESPACE_DELETION_GRACE_PERIOD_MS },
    ]);
    assert.deepEqual(after(event({ metadata: { name: 'doomed', uid: 'u' } }, 'Applied')), []);
    assert.deepEqual(after(event(terminating(), 'Deleted')), []);
  });

  it('leaves a live, a gone and a finalized namespace alone', () => {
    assert.deepEqual(sync({ metadata: { name: 'doomed', uid: 'u' } }).mutations, []);
    assert.deepEqual(sync(undefined).mutations, []);
    assert.deepEqual(sync(terminating({ spec: { finalizers: [] } })).mutations, []);
  });

  it('sets the phase Terminating and asks the writer for a pass over the content, named by uid', () => {
    const d = sync(terminating({ status: { phase: 'Active' } }));
    assert.deepEqual(verbs(d), ['UpdateStatus', 'DeleteNamespaceContent']);
    assert.equal(bodyOf(d).status?.phase, 'Terminating');
    assert.equal(d.mutations[1]!.preconditions.uid, 'ns-uid');
  });

  it('runs a new pass when the report is older than the deletion', () => {
    assert.deepEqual(verbs(sync(terminating(), reportOf(CLEAN, '2026-11-28T23:00:00Z'))), ['DeleteNamespaceContent']);
  });

  it('writes the conditions a report makes, then, nothing left, has the writer finalize the live namespace', () => {
    const d = sync(terminating(), reportOf(CLEAN));
    assert.deepEqual(verbs(d), ['UpdateStatus', 'FinalizeNamespace finalize']);
    assert.deepEqual(d.mutations[1]!.preconditions, { uid: 'ns-uid', resourceVersion: null });
    const conditions = bodyOf(d).status?.conditions ?? [];
    assert.deepEqual(
      conditions.map((c) => `${c.type} ${c.status} ${c.reason}`),
      [
        'NamespaceDeletionDiscoveryFailure False ResourcesDiscovered',
        'NamespaceDeletionGroupVersionParsingFailure False ParsedGroupVersions',
        'NamespaceDeletionContentFailure False ContentDeleted',
        'NamespaceContentRemaining False ContentRemoved',
        'NamespaceFinalizersRemaining False ContentHasNoFinalizers',
      ],
    );
  });

  it('finalizes alone when the conditions already say nothing is left', () => {
    assert.deepEqual(verbs(sync(reflected(CLEAN), reportOf(CLEAN))), ['FinalizeNamespace finalize']);
  });

  it('looks again after half the estimate and a second while content is held by finalizers', () => {
    const held = {
      ...CLEAN,
      estimateSeconds: 15,
      remaining: [{ resource: 'configmaps', group: '', count: 2 }],
      finalizers: [{ finalizer: 'example.com/hold', count: 2 }],
    };
    const d = sync(reflected(held), reportOf(held));
    assert.deepEqual(d.mutations, []);
    assert.equal(d.requeueAfterMs, 8000);
    const first = sync(terminating(), reportOf(held));
    assert.deepEqual([verbs(first), first.requeueAfterMs], [['UpdateStatus'], 8000], 'conditions written, no finalize');
  });

  it('syncs a namespace still being deleted again every --namespace-sync-period and the grace period, unless sooner', () => {
    const resync = (ns: Namespace | undefined, periodMs: number, report?: MutationResult): Decision =>
      namespaceControllerSpec({ namespaces: listerOf(ns === undefined ? [] : [ns]) }, periodMs).reconcile('doomed', {
        ...syncInput(),
        report,
      });
    const period = 300_000 + NAMESPACE_DELETION_GRACE_PERIOD_MS;
    assert.equal(resync(terminating(), 300_000).requeueAfterMs, period, 'a pass asked for');
    assert.equal(resync(terminating({ spec: {} }), 300_000).requeueAfterMs, period, 'finalized, not gone yet');
    const held = { ...CLEAN, estimateSeconds: 15, remaining: [{ resource: 'configmaps', group: '', count: 2 }] };
    assert.equal(resync(reflected(held), 300_000, reportOf(held)).requeueAfterMs, 8000, 'the estimate is sooner');
    assert.equal(
      resync(reflected(held), 1000, reportOf(held)).requeueAfterMs,
      1000 + NAMESPACE_DELETION_GRACE_PERIOD_MS,
    );
    assert.equal(resync(terminating(), 0).requeueAfterMs, undefined, '0 turns it off');
    const live = { metadata: { name: 'doomed', uid: 'ns-uid' } };
    assert.equal(resync(live, 300_000).requeueAfterMs, undefined, 'a namespace not being deleted');
    assert.equal(resync(undefined, 300_000).requeueAfterMs, undefined, 'a namespace gone');
  });

  it('makes the pass errors its own error, retried with backoff, and a failed write too', () => {
    const failed = { ...CLEAN, deleteContentErrors: ['boom'] };
    assert.equal(sync(reflected(failed), reportOf(failed)).error, 'boom');
    assert.deepEqual(verbs(sync(terminating(), reportOf(failed))), ['UpdateStatus'], 'conditions written, no finalize');
    const conflict = failedWrite(
      {
        controller: 'namespace-controller',
        verb: 'UpdateStatus',
        kind: 'Namespace',
        resource: 'namespaces',
        name: 'doomed',
      },
      'Conflict',
      'Conflict',
    );
    assert.match(sync(terminating(), undefined, [conflict]).error ?? '', /UpdateStatus/);
  });
});

describe('namespace conditions (namespaceConditionUpdater)', () => {
  const messages = (r: NamespaceContentReport) => failingConditions(r).map((c) => `${c.reason}: ${c.message}`);

  it("words what remains as upstream's, sorted, per resource and per finalizer", () => {
    const r = {
      ...CLEAN,
      remaining: [
        { resource: 'widgets', group: 'example.com', count: 1 },
        { resource: 'configmaps', group: '', count: 2 },
      ],
      finalizers: [{ finalizer: 'example.com/hold', count: 3 }],
    };
    assert.deepEqual(messages(r), [
      'SomeResourcesRemain: Some resources are remaining: configmaps. has 2 resource instances, widgets.example.com has 1 resource instances',
      'SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/hold in 3 resource instances',
    ]);
  });

  it('reads a report as decoded, its nulls absent, as a clean one, and finalizes on it', () => {
    const decoded = { estimateSeconds: 0, remaining: [], finalizers: [], deleteContentErrors: [] } as object;
    assert.deepEqual(messages(decoded as NamespaceContentReport), []);
    const finalized = verbs(sync(reflected(CLEAN), reportOf(decoded as NamespaceContentReport)));
    assert.deepEqual(finalized, ['FinalizeNamespace finalize']);
  });

  it('reports no content totals while pods remain (deleteAllContent returns before them)', () => {
    const r = { ...CLEAN, estimateSeconds: 30, remaining: [{ resource: 'pods', group: '', count: 4 }] };
    assert.deepEqual(messages(r), []);
  });

  it('words discovery and deletion failures', () => {
    const r = {
      ...CLEAN,
      discoveryError:
        'unable to retrieve the complete list of server APIs: x.example.com/v1: stale GroupVersion discovery: x.example.com/v1',
      discoveryFailedGroups: 1,
      deleteContentErrors: ['b failed', 'a failed'],
    };
    assert.deepEqual(messages(r), [
      'DiscoveryFailed: Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: x.example.com/v1: stale GroupVersion discovery: x.example.com/v1',
      'ContentDeletionFailed: Failed to delete all resource types, 2 remaining: a failed, b failed',
    ]);
  });

  it('changes a condition in place, its transition time only when its status changes', () => {
    const before = new Date('2026-11-29T00:00:00Z');
    const first = updateConditions([{ type: 'Other', status: 'True' }], [], before).conditions;
    const held = failingConditions({ ...CLEAN, finalizers: [{ finalizer: 'f', count: 1 }] });
    const later = updateConditions(first, held, new Date('2026-11-29T00:01:00Z'));
    assert.equal(later.changed, true);
    assert.equal(later.conditions[0]!.type, 'Other');
    const byType = (t: string) => later.conditions.find((c) => c.type === t)!;
    assert.equal(byType('NamespaceFinalizersRemaining').lastTransitionTime, '2026-11-29T00:01:00Z');
    assert.equal(byType('NamespaceContentRemaining').lastTransitionTime, '2026-11-29T00:00:00Z');
    assert.equal(updateConditions(later.conditions, held, new Date()).changed, false);
  });
});
