import { FINALIZER_KUBERNETES } from '@kcm-bus/k8s/core-v1.ts';
import type { Mutation } from '@kcm-bus/runtime/mutation/index.ts';
import type { LiveFacts } from '../live-checks.ts';
import { ownVerdict } from '../outcome.ts';
import { toRequest } from '../request.ts';
import { type Json, send, type SendDeps, type Sent, unsent } from '../send.ts';

/**
 * finalizeNamespace mirrors namespacedResourcesDeleter.finalizeNamespace on the namespace its live check read
 * (`facts`, terminating): its finalizers but `kubernetes`, as a sorted set, PUT to its finalize subresource with the
 * live namespace's resourceVersion, so a change since (a label, a finalizer) meets a Conflict instead of being undone.
 * A namespace that no longer holds the finalizer needs nothing (AlreadyDone).
 */
export async function finalizeNamespace(m: Mutation, facts: LiveFacts, deps: SendDeps): Promise<Sent> {
  const spec = (facts.object['spec'] ?? {}) as Json;
  const finalizers = Array.isArray(spec['finalizers']) ? (spec['finalizers'] as string[]) : [];
  if (!finalizers.includes(FINALIZER_KUBERNETES))
    return unsent(ownVerdict('AlreadyDone', 0, null, 'the namespace holds no kubernetes finalizer'));
  const kept = [...new Set(finalizers)].filter((f) => f !== FINALIZER_KUBERNETES).sort();
  const meta = (facts.object['metadata'] ?? {}) as Json;
  const preconditions = { uid: m.preconditions.uid, resourceVersion: String(meta['resourceVersion']) };
  const body = JSON.stringify({ ...facts.object, spec: { ...spec, finalizers: kept } });
  return send(toRequest({ ...m, verb: 'Update', preconditions, body }), m.controller, deps);
}
