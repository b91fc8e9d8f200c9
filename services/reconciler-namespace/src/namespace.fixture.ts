import type { ReconcileInput } from '@kcm-bus/runtime/controller/index.ts';
import type { MutationResult, MutationVerb, Outcome } from '@kcm-bus/runtime/mutation/index.ts';

/** syncInput is a sync's input with nothing pending and these results of the key's earlier writes. */
export function syncInput(failures: readonly MutationResult[] = []): ReconcileInput {
  return {
    expectations: { satisfied: true, pendingCreates: [], pendingDeletes: [] },
    failures,
    now: new Date('2026-11-29T00:00:00Z'),
    cause: [{ topic: 'kcm.watch.namespaces', partition: 0, offset: 0 }],
    attempt: 0,
    fresh: true,
  };
}

/** Written names what a failed write wrote: its controller, verb, the object's kind, resource and name in `default`. */
type Written = {
  readonly controller: string;
  readonly verb: MutationVerb;
  readonly kind: string;
  readonly resource: string;
  readonly name: string;
};

/** failedWrite is the writer's answer to a write of w into namespace `default` that did not take effect. */
export function failedWrite(w: Written, outcome: Outcome, reason: string): MutationResult {
  return {
    mutationId: 'm1',
    controller: w.controller,
    verb: w.verb,
    target: {
      apiVersion: 'v1',
      kind: w.kind,
      namespace: 'default',
      name: w.name,
      resource: w.resource,
      subresource: null,
    },
    outcome,
    status: outcome === 'Failed' ? 500 : 409,
    reason,
    message: 'boom',
    name: w.name,
    resourceVersion: null,
    uid: null,
    attempts: 1,
    appliedAt: '2026-11-29T00:00:00Z',
    reconcileKey: 'default',
  };
}
