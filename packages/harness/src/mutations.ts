import { randomBytes } from 'node:crypto';
import type { OutgoingRecord } from '@kcm-bus/runtime/bus/index.ts';
import { kafkaBus } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { AvroCodec } from '@kcm-bus/runtime/codec/codec.avro.ts';
import { Serde } from '@kcm-bus/runtime/codec/index.ts';
import type { MutationResult, Mutation, MutationTarget } from '@kcm-bus/runtime/mutation/index.ts';
import { httpSchemaRegistry } from '@kcm-bus/runtime/registry/registry.http.ts';
import { loadSigning } from '@kcm-bus/runtime/signing/signing-keys.fs.ts';
import { type Signing, UNSIGNED } from '@kcm-bus/runtime/signing/index.ts';
import { LOCAL_SIGNERS } from '@kcm-bus/stack/signing.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { loadMutationSchemas, MUTATION_TOPICS } from '@kcm-bus/schemas/mutation-schemas.fs.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import type { RawKube } from './kube.ts';
import { readTopic } from './topic.ts';
import { waitFor } from './wait.ts';

/** podTarget names a pod of a namespace as a mutation target. */
export function podTarget(namespace: string, name: string): MutationTarget {
  return { apiVersion: 'v1', kind: 'Pod', namespace, name, resource: 'pods', subresource: null };
}

/** mutation builds a mutation with a fresh id, by the RC controller unless told otherwise. */
export function mutation(parts: Pick<Mutation, 'verb' | 'target'> & Partial<Mutation>): Mutation {
  return {
    id: randomBytes(16).toString('hex'),
    controller: 'replicationcontroller-controller',
    preconditions: { uid: null, resourceVersion: null },
    body: null,
    patch: null,
    patchType: null,
    fieldManager: null,
    cause: [],
    createdAt: new Date().toISOString(),
    event: null,
    reconcileKey: null,
    slowStart: null,
    ...parts,
  };
}

/** PodOwner is the RC a test pod names as its controller: the writer creates for the RC controller only pods an RC controls. */
export type PodOwner = { readonly name: string; readonly uid: string };

/**
 * ownerRc creates RC `owner` in ns, of no replicas and a selector no test pod matches, for test pods to name as their
 * controller: a real one, so that the garbage collector leaves them alone.
 */
export async function ownerRc(kube: RawKube, ns: string): Promise<PodOwner> {
  const labels = { 'kcm-bus-test': 'owner' };
  const rc = await kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, {
    metadata: { name: 'owner' },
    spec: {
      replicas: 0,
      selector: labels,
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    },
  });
  return { name: 'owner', uid: (rc['metadata'] as { uid: string }).uid };
}

/** ownedNamespace creates namespace ns and its RC `owner` (ownerRc), the setup of every test that sends pod creates. */
export async function ownedNamespace(kube: RawKube, ns: string): Promise<PodOwner> {
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  return ownerRc(kube, ns);
}

/** podBody is a minimal pod for a Create, controlled by `owner`. */
export function podBody(name: string, owner: PodOwner): string {
  const controllerRef = {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    name: owner.name,
    uid: owner.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ownerReferences: [controllerRef] },
    spec: { nodeName: 'nowhere', containers: [{ name: 'c', image: 'busybox' }] },
  });
}

/**
 * podCreate is the RC controller's Create of pod `name` in ns, controlled by `owner` and keyed by it: the writer applies
 * a pod create only when its controller reference names the object of the mutation's reconcile key.
 */
export function podCreate(ns: string, name: string, owner: PodOwner, parts: Partial<Mutation> = {}): Mutation {
  return mutation({
    verb: 'Create',
    target: podTarget(ns, name),
    body: podBody(name, owner),
    reconcileKey: `${ns}/${owner.name}`,
    ...parts,
  });
}

/** mutationSerde encodes mutations for kcm.mutations as a reconciler does. */
export function mutationSerde(stack: StackEndpoints): Serde {
  return new Serde(
    httpSchemaRegistry(stack.registry),
    MUTATION_TOPICS.mutations,
    loadMutationSchemas().mutation,
    (s) => new AvroCodec(s),
  );
}

const signers = new Map<string, Signing>();

/**
 * signerOf signs as a controller the stack has a key for (its keys read once per run); another controller's mutations
 * go unsigned.
 */
export function signerOf(stack: StackEndpoints, controller: string): Signing {
  if (!(LOCAL_SIGNERS as readonly string[]).includes(controller)) return UNSIGNED;
  const id = `${stack.signingDir}/${controller}`;
  const signing = signers.get(id) ?? loadSigning(stack.signingDir, controller);
  signers.set(id, signing);
  return signing;
}

/**
 * produceMutations puts mutations (encoded and signed by their controller, as a reconciler would) and raw records
 * (as they are) on kcm.mutations, keyed by target.
 */
export async function produceMutations(
  stack: StackEndpoints,
  mutations: readonly Mutation[],
  raw: readonly OutgoingRecord[] = [],
): Promise<void> {
  const serde = mutationSerde(stack);
  const publisher = await kafkaBus({ brokers: stack.kafkaBrokers, clientId: 'kcm-bus-test' }).publisher();
  try {
    const signed = async (m: Mutation): Promise<OutgoingRecord> => {
      const [key, value] = [objectKey(m.target), (await serde.encode(m)).bytes];
      return { key, value, headers: signerOf(stack, m.controller).headers(key, value) };
    };
    const records = [...(await Promise.all(mutations.map(signed))), ...raw];
    await publisher.send(MUTATION_TOPICS.mutations, records);
  } finally {
    await publisher.close();
  }
}

/**
 * resultsFor waits until every mutation has at least `count` results on kcm.mutation-results (a replayed
 * mutation has one per application) and returns them per mutation id, in topic order.
 */
export async function resultsFor(
  stack: StackEndpoints,
  mutations: readonly Mutation[],
  count = 1,
): Promise<Map<string, MutationResult[]>> {
  return waitFor(
    `results of ${mutations.length} mutations`,
    async () => {
      const results = new Map<string, MutationResult[]>();
      for (const r of await readTopic(stack, MUTATION_TOPICS.results)) {
        const result = r.value as unknown as MutationResult;
        results.set(result.mutationId, [...(results.get(result.mutationId) ?? []), result]);
      }
      return mutations.every((m) => (results.get(m.id)?.length ?? 0) >= count) ? results : undefined;
    },
    { timeoutMs: 180_000 },
  );
}

/** outcomeOf is the latest outcome of a mutation in a resultsFor answer. */
export function outcomeOf(results: ReadonlyMap<string, readonly MutationResult[]>, m: Mutation): string | undefined {
  return results.get(m.id)?.at(-1)?.outcome;
}
