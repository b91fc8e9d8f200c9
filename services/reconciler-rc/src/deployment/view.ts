import type { Deployment, ReplicaSet } from '@kcm-bus/k8s/apps-v1.ts';
import {
  createDraft,
  deleteDraft,
  type MutationDraft,
  type MutationLog,
  recordEventDraft,
  updateDraft,
  updateStatusDraft,
  withOutcomeEvent,
} from '@kcm-bus/k8s/mutation-drafts.ts';
import type { EventType } from '@kcm-bus/runtime/mutation/index.ts';
import { objectKey } from '@kcm-bus/schemas/kinds.ts';
import { DEPLOYMENTS, EVENT_SOURCE, REPLICA_SETS } from './kinds.ts';

/**
 * Folded is a write a later one of the same `id` folds into (the ReplicaSet's key; the Deployment's, per verb), its
 * events added: a ReplicaSet's write holds the state it ends up with, the Deployment's are written as the view ends.
 */
type Folded = {
  readonly id: string;
  readonly verb: 'Create' | 'Update' | 'UpdateStatus';
  rs?: ReplicaSet;
  readonly events: MutationDraft[];
};

/** Write is one pending write: folded, a ReplicaSet's Delete, or an event recorded whatever the writes do. */
type Write =
  | Folded
  | { readonly verb: 'Delete'; readonly rs: ReplicaSet }
  | { readonly verb: 'RecordEvent'; readonly event: MutationDraft };

const STATUS_ID = 'Deployment/status';
const DEPLOYMENT_ID = 'Deployment';

/**
 * DeploymentView is one sync's local view of its Deployment and ReplicaSets, the objects upstream's sync reads back
 * from the API calls it makes one after the other. Every write the sync decides is applied to the view (a created
 * ReplicaSet joins it with an empty status, an updated one is replaced, a deleted one leaves) and later steps read
 * the view. Writes to one object fold into one mutation carrying the object's final state, where its first write
 * stood (a second Update would carry the stale resourceVersion and meet 409 Conflict): an Update after a Create is the
 * Create, the Deployment's status writes are one UpdateStatus. Events keep their place; an event upstream records
 * only after a write succeeded goes with that write (withOutcomeEvent), the second such event of one folded write
 * follows it unconditionally.
 */
export class DeploymentView {
  #d: Deployment;
  readonly #rss = new Map<string, ReplicaSet>();
  readonly #writes: Write[] = [];

  constructor(d: Deployment, rsList: readonly ReplicaSet[]) {
    this.#d = d;
    for (const rs of rsList) this.#rss.set(objectKey(rs.metadata), rs);
  }

  /** deployment is the Deployment as the sync has changed it so far (upstream's local `d`). */
  get deployment(): Deployment {
    return this.#d;
  }

  /** replicaSets are the claimed ReplicaSets, and the ones the sync created, as the sync has changed them. */
  replicaSets(): ReplicaSet[] {
    return [...this.#rss.values()];
  }

  /** current is the view's state of a ReplicaSet (the one given if the view does not hold it). */
  current(rs: ReplicaSet): ReplicaSet {
    return this.#rss.get(objectKey(rs.metadata)) ?? rs;
  }

  /**
   * updateStatus is Deployments(ns).UpdateStatus(d) of the Deployment as the sync changed it (upstream changes `d` in
   * place, then writes it): its status and annotations, as they end up.
   */
  updateStatus(d: Deployment): void {
    this.#d = d;
    this.#fold({ id: STATUS_ID, verb: 'UpdateStatus', events: [] });
  }

  /** update is Deployments(ns).Update(d) of the Deployment as the sync changed it, the event recorded once it succeeded. */
  update(d: Deployment, outcomeEvent?: MutationDraft): void {
    this.#d = d;
    this.#fold({ id: DEPLOYMENT_ID, verb: 'Update', events: outcomeEvent === undefined ? [] : [outcomeEvent] });
  }

  /** writesStatus: the sync already writes the Deployment's status. */
  writesStatus(): boolean {
    return this.#writes.some((w) => 'id' in w && w.id === STATUS_ID);
  }

  /** createReplicaSet is ReplicaSets(ns).Create(rs), the event recorded once it succeeded. */
  createReplicaSet(rs: ReplicaSet, outcomeEvent?: MutationDraft): void {
    this.#putReplicaSet('Create', rs, outcomeEvent);
  }

  /** updateReplicaSet is ReplicaSets(ns).Update(rs), the event recorded once it succeeded. */
  updateReplicaSet(rs: ReplicaSet, outcomeEvent?: MutationDraft): void {
    this.#putReplicaSet('Update', rs, outcomeEvent);
  }

  /** deleteReplicaSet is ReplicaSets(ns).Delete(rs.name), here with its UID as the precondition. */
  deleteReplicaSet(rs: ReplicaSet): void {
    this.#rss.delete(objectKey(rs.metadata));
    this.#writes.push({ verb: 'Delete', rs });
  }

  /** event is eventRecorder.Eventf(d, type, reason, message), recorded whatever the writes do. */
  event(type: EventType, reason: string, message: string): void {
    this.#writes.push({ verb: 'RecordEvent', event: this.eventDraft(type, reason, message) });
  }

  /** eventDraft is an event about the Deployment, to record or to attach to a write. */
  eventDraft(type: EventType, reason: string, message: string): MutationDraft {
    return recordEventDraft(EVENT_SOURCE, { ...DEPLOYMENTS, metadata: this.#d.metadata }, type, reason, message);
  }

  #putReplicaSet(verb: 'Create' | 'Update', rs: ReplicaSet, outcomeEvent: MutationDraft | undefined): void {
    const key = objectKey(rs.metadata);
    this.#rss.set(key, rs);
    this.#fold({ id: key, verb, rs, events: outcomeEvent === undefined ? [] : [outcomeEvent] });
  }

  /** #fold adds the write, or folds it into the pending write of the same object (an Update into its Create). */
  #fold(write: Folded): void {
    const same = this.#writes.find((w): w is Folded => 'id' in w && w.id === write.id);
    if (same === undefined) {
      this.#writes.push(write);
      return;
    }
    if (write.rs !== undefined) same.rs = write.rs;
    same.events.push(...write.events);
  }

  /** publish pushes the writes onto the sync's log, in order, each with the final state of its object. */
  publish(log: MutationLog): void {
    for (const w of this.#writes) {
      if (w.verb === 'RecordEvent') log.push(w.event);
      else if (w.verb === 'Delete') log.push(deleteDraft(REPLICA_SETS, w.rs.metadata));
      else {
        const [first, ...rest] = w.events;
        const draft = this.#draft(w);
        log.push(first === undefined ? draft : withOutcomeEvent(draft, first));
        for (const e of rest) log.push(e);
      }
    }
  }

  #draft(w: Folded): MutationDraft {
    if (w.verb === 'UpdateStatus') return updateStatusDraft(DEPLOYMENTS, this.#d, this.#d.status);
    if (w.rs === undefined) return updateDraft(DEPLOYMENTS, this.#d);
    return w.verb === 'Update'
      ? updateDraft(REPLICA_SETS, w.rs)
      : createDraft(REPLICA_SETS, w.rs.metadata.namespace, createBody(w.rs));
  }
}

/** createBody is a ReplicaSet to create as the API takes it: no uid, resourceVersion or status yet. */
function createBody(rs: ReplicaSet): object {
  const { uid: _uid, ...metadata } = rs.metadata;
  return { apiVersion: REPLICA_SETS.apiVersion, kind: REPLICA_SETS.kind, metadata, spec: rs.spec };
}
