import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import { partitioned, controllerHooks, Informers } from '@kcm-bus/runtime/controller/index.ts';
import { signature, ControllerReplay, type ReplayInput } from '@kcm-bus/runtime/replay/index.ts';
import { stateTopic } from '@kcm-bus/schemas/kinds.ts';
import { replicaSetControllerSpec, type SetInputs } from './controller-spec.ts';
import { projectPod } from './project-pod.ts';
import { newPod, newRc } from './rc.fixture.ts';
import { PODS, type ReplicaSetLike, REPLICATION_CONTROLLERS } from './replica-set-kind.ts';
import { POD_INDEXERS, SET_INDEXERS } from './set-lookup.ts';
import { DEFAULT_REPLICA_SET_CONFIG } from './sync-replica-set.ts';

const RC_TOPIC = stateTopic(REPLICATION_CONTROLLERS.objects);
const POD_TOPIC = stateTopic(PODS);
let offset = 0;

/** podWritesOf replays the RC controller over the history in the window [from, to]: the signatures of its pod writes. */
async function podWritesOf(history: readonly ReplayInput[], to: number, from = 0): Promise<string[]> {
  const informers = new Informers<SetInputs>({
    pods: partitioned<Pod>(POD_TOPIC, { indexers: POD_INDEXERS, project: projectPod }),
    sets: partitioned<ReplicaSetLike>(RC_TOPIC, { indexers: SET_INDEXERS }),
  });
  const hooks = controllerHooks(
    REPLICATION_CONTROLLERS.controller,
    informers,
    replicaSetControllerSpec(REPLICATION_CONTROLLERS, informers.listers(), DEFAULT_REPLICA_SET_CONFIG),
  );
  const replay = new ControllerReplay({ from, to, expectationsTtlMs: 300_000, partitions: new Map(), partitioned: [] });
  return (await replay.run(hooks, history))
    .flatMap((d) => d.mutations)
    .filter((m) => m.verb === 'Create' || m.verb === 'Delete')
    .map(signature);
}

function applied(at: number, topic: string, object: Pod | ReplicationController): ReplayInput {
  const key = `${object.metadata.namespace}/${object.metadata.name}`;
  const cause = { topic: topic.replace('state', 'watch'), partition: 0, offset: offset++ };
  return {
    at,
    topic,
    partition: 0,
    kind: 'event',
    event: { cause, type: 'Applied', key, object, resourceVersion: object.metadata.resourceVersion ?? '', live: true },
  };
}

function rc(replicas: number, rv: number): ReplicationController {
  return newRc(replicas, undefined, { metadata: { resourceVersion: String(rv) } });
}

describe('replaying the RC controller over history', () => {
  it('decides the creates and the deletes the history calls for, and counts the deployed pods against its own expectations', async () => {
    const web = (name: string, ready = true): Pod => newPod(name, rc(3, 10), { ready });
    const history = [
      applied(1000, RC_TOPIC, rc(3, 10)),
      // The deployed controller's pods, named as it named them: the replay expected three of its own.
      applied(1050, POD_TOPIC, web('foobar-a')),
      applied(1060, RC_TOPIC, rc(3, 11)),
      applied(1100, POD_TOPIC, web('foobar-b', false)),
      applied(1101, POD_TOPIC, web('foobar-c')),
      applied(2000, RC_TOPIC, rc(5, 12)),
      applied(2100, POD_TOPIC, web('foobar-d', false)),
      applied(2101, POD_TOPIC, web('foobar-e', false)),
      applied(3000, RC_TOPIC, rc(2, 13)),
    ];
    const writes = await podWritesOf(history, 4000);
    const creates = writes.filter((w) => w.startsWith('Create'));
    // Three at 1000 and two at 2000: none at 1060, when two of the three were still expected, and the count let
    // the sync at 2000 act although no pod bore a name the replay had given.
    assert.deepEqual(creates, Array(5).fill('Create pods default/foobar-*'));
    // At 3000 three of the five must go: the three not ready, as upstream's ranking says.
    assert.deepEqual(
      writes.filter((w) => w.startsWith('Delete')).sort(),
      ['b', 'd', 'e'].map((p) => `Delete pods default/foobar-${p}`),
    );
  });

  it('applies the records before the window to its stores only: a sync comes from an event inside the window', async () => {
    const history = [applied(500, RC_TOPIC, rc(2, 10)), applied(1500, POD_TOPIC, newPod('foobar-a', rc(2, 10)))];
    assert.deepEqual(await podWritesOf(history, 2000, 1000), ['Create pods default/foobar-*']);
  });
});
