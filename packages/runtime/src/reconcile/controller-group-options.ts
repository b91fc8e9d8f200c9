import type { Bus } from '../bus/bus.ts';
import type { Serde } from '../codec/serde.ts';
import type { Logger } from '../service/log.ts';
import type { Signing } from '../signing/signing.ts';
import type { Controller } from './controller.ts';

/** ControllerGroupOptions wire a Controller to its input topics, the results topic and the mutations topic. */
export type ControllerGroupOptions = {
  readonly bus: Bus;
  readonly groupId: string;
  readonly partitioned: readonly string[];
  readonly global: readonly string[];
  /** singleton: the group's only assigned partition is one lock topic's, so one member is active at a time. */
  readonly singleton: boolean;
  /** serdes are the reader serdes of every input topic and of the results topic. */
  readonly serdes: ReadonlyMap<string, Pick<Serde, 'decode'>>;
  readonly resultsTopic: string;
  readonly mutations: { readonly topic: string; readonly serde: Pick<Serde, 'encode'> };
  /** signing signs the mutations as this controller and verifies that the writer signed each result. */
  readonly signing: Signing;
  /** dropWhere forgets the partitioned inputs' objects of the matching keys (their partitions restore or moved). */
  readonly dropWhere: (pred: (key: string) => boolean) => void;
  /** onDeadLetter counts a record of `topic` sent to its dead-letter topic (kcm_bus_dead_letters_total). */
  readonly onDeadLetter: (topic: string) => void;
  readonly log: Logger;
  /** fatal stops the service (exit 1) when a consumer crashed for good: a restart restores and resumes. */
  readonly fatal: (what: string, err: unknown) => void;
  /**
   * takeFencingTokens fences the partitions' expectations for this member (RedisExpectations.takeFencingTokens) before the assignment's
   * first record: from then on a member that lost them cannot change their records.
   */
  readonly takeFencingTokens?: (partitions: readonly number[]) => Promise<void>;
};

/** GroupController is what the group feeds: records, results, and the keys whose partitions moved away. */
export type GroupController = Pick<Controller, 'onEvent' | 'onResult' | 'onWatermark' | 'dropWhere' | 'onActivated'>;

/** lockTopic is the one-partition topic whose owner is a singleton group's active member. */
export function lockTopic(groupId: string): string {
  return `kcm.active.${groupId}`;
}
