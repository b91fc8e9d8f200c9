import type { Bus } from '../bus/bus.ts';
import type { Serde } from '../codec/serde.ts';
import type { Logger } from '../service/log.ts';
import type { Signing } from '../signing/signing.ts';
import type { ControllerFeed, InputScope } from '../controller/controller-types.ts';

/**
 * ControllerGroupOptions wire a service's controllers (GroupParts) to their input topics, the results topic and the
 * mutations topic: one consumer group reads the inputs of all of them, once, as upstream's controllers share one
 * informer per kind.
 */
export type ControllerGroupOptions = {
  readonly bus: Bus;
  readonly groupId: string;
  /** singleton: the group's only assigned partition is one lock topic's, so one member is active at a time. */
  readonly singleton: boolean;
  /** fetchLingerMs is the global inputs' group's (GroupOptions.fetchLingerMs): a singleton's declared one, else 0. */
  readonly fetchLingerMs?: number;
  readonly resultsTopic: string;
  /** results is the reader serde of the results topic and the Signing that verifies the writer signed each result. */
  readonly results: { readonly serde: Pick<Serde, 'decode'>; readonly signing: Signing };
  readonly mutations: { readonly topic: string; readonly serde: Pick<Serde, 'encode'> };
  /** onDeadLetter counts a record of `topic` sent to its dead-letter topic (kcm_bus_dead_letters_total). */
  readonly onDeadLetter: (topic: string) => void;
  /** onDivergence counts an input partition that stopped agreeing with the watcher's inventory (kcm_bus_store_divergences_total). */
  readonly onDivergence: (topic: string) => void;
  /** onRestore counts a state partition read from its beginning on an assignment (kcm_bus_state_restores_total). */
  readonly onRestore: (topic: string) => void;
  readonly log: Logger;
  /** fatal stops the service (exit 1) when a consumer crashed for good: a restart restores and resumes. */
  readonly fatal: (what: string, err: unknown) => void;
};

/**
 * GroupPart is one controller a group feeds: the state topics of its partitioned and global inputs, each one's reader
 * serde (its view of the fields it reads), and what it is told.
 */
export type GroupPart = {
  readonly name: string;
  readonly partitioned: readonly string[];
  readonly global: readonly string[];
  readonly serdes: ReadonlyMap<string, Pick<Serde, 'decode'>>;
  readonly controller: GroupController;
  /** signing signs the part's mutations as its controller. */
  readonly signing: Signing;
  /** dropWhere forgets the matching keys' objects of the inputs of a scope (their partitions restore or moved away). */
  readonly dropWhere: (scope: InputScope, pred: (key: string) => boolean) => void;
  /**
   * takeFencingTokens fences the partitions' expectations for this member (RedisExpectations.takeFencingTokens)
   * before the assignment's first record: from then on a member that lost them cannot change their records.
   */
  readonly takeFencingTokens?: (partitions: readonly number[]) => Promise<void>;
};

/** GroupController is what the group feeds (ControllerFeed): records, results, and the keys whose partitions moved away. */
export type GroupController = ControllerFeed;

/** lockTopic is the one-partition topic whose owner is a singleton group's active member. */
export function lockTopic(groupId: string): string {
  return `kcm.active.${groupId}`;
}
