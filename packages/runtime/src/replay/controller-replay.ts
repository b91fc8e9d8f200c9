import type { RetryBackoff } from '../controller/declaration.ts';
import type { Mutation } from '../mutation/mutation.ts';
import { Controller, type ControllerHooks, type ControllerPorts } from '../controller/controller.ts';
import { jsonLogger } from '../service/log.ts';
import { FakeClock } from '../workqueue/fake-clock.ts';
import { kindOfTopic } from '@kcm-bus/schemas/kinds.ts';
import { ReplayExpectations } from './replay-expectations.ts';
import type { TimedDecision, ReplayInput } from './replay-input.ts';
import { type ReplayTopics, ReplayWatermarks } from './replay-watermarks.ts';
import { ReplayWorkqueue } from './replay-workqueue.ts';
import { ReplayWriter } from './replay-writer.ts';

/** BATCH_MS is how long a key enqueued by a history record waits for the rest of its batch (ReplayWorkqueue). */
export const BATCH_MS = 10;

/**
 * ReplayOptions: the window ([from, to], ms), the input topics, whether the controller is a singleton (one partition),
 * its expectations' TTL (undefined: it keeps none), its tick, and the batch of a consumed record (default BATCH_MS).
 */
export type ReplayOptions = ReplayTopics & {
  readonly from: number;
  readonly to: number;
  readonly singleton?: boolean;
  readonly expectationsTtlMs?: number | undefined;
  readonly tick?: { readonly keys: readonly string[]; readonly periodMs: number } | undefined;
  readonly batchMs?: number;
  /** retryBackoff is the declaration's per-key failure backoff (ControllerDeclaration.retryBackoff), the live queue's. */
  readonly retryBackoff?: RetryBackoff | undefined;
};

/** Replaying is one run's parts: the Controller on its replay ports, its queue and stand-in writer, what it decided. */
type Replaying = {
  readonly controller: Controller;
  readonly queue: ReplayWorkqueue;
  readonly writer: ReplayWriter;
  readonly decisions: TimedDecision[];
  readonly answers: Promise<void>[];
};

/**
 * ControllerReplay runs the runtime's own Controller over a window of history on replay ports: a workqueue on a
 * FakeClock stepped through the history's times, a publish that records each sync's mutations instead of sending
 * them, expectations in memory (ReplayExpectations), every partition owned and synced, the pipeline's clock from the
 * history's watermarks and record times, and the controller's recorded results fed at their times (ReplayWriter
 * answers the writes they do not). Records before the window only fill the stores; syncs start with the window.
 * One run per ControllerReplay: its clock stays where the run ended.
 */
export class ControllerReplay {
  readonly #o: ReplayOptions;
  readonly #clock: FakeClock;
  readonly #watermarks: ReplayWatermarks;

  constructor(options: ReplayOptions) {
    this.#o = options;
    this.#clock = new FakeClock(options.from);
    this.#watermarks = new ReplayWatermarks(options);
  }

  /** watermark is the replay's InputWatermarks (the spec's watermarks.watermark) over the topic, as far as the history went. */
  watermark(topic: string, key?: string): Date | undefined {
    return this.#watermarks.watermark(topic, key);
  }

  /** run replays the history (in time order) through a Controller over `hooks`: every sync's decision, in time order. */
  async run(hooks: ControllerHooks, history: readonly ReplayInput[]): Promise<readonly TimedDecision[]> {
    const r = this.#start(hooks, history);
    const workers = r.controller.run(1);
    this.#tick(r.controller);
    for (const input of history) {
      if (input.at > this.#o.to) break;
      if (input.at < this.#o.from) this.#prime(hooks, input);
      else await this.#feed(r, input);
    }
    await this.#stepTo(r, this.#o.to);
    r.controller.releaseTicks();
    r.queue.shutDown();
    await workers;
    return r.decisions;
  }

  #start(hooks: ControllerHooks, history: readonly ReplayInput[]): Replaying {
    const decisions: TimedDecision[] = [];
    const answers: Promise<void>[] = [];
    const queue = new ReplayWorkqueue(this.#clock, this.#o.batchMs ?? BATCH_MS, this.#o.retryBackoff);
    const recorded = history.flatMap((i) =>
      i.kind === 'result' && i.at >= this.#o.from && i.at <= this.#o.to ? [i.result.mutationId] : [],
    );
    const writer = new ReplayWriter(
      recorded,
      this.#clock,
      (result, cause, live) => void answers.push(controller.onResult(result, cause, live)),
    );
    let syncing = '';
    const reconcile: ControllerHooks['reconcile'] = (key, input) => {
      syncing = key;
      return hooks.reconcile(key, input);
    };
    const publish = (mutations: readonly Mutation[]): Promise<void> => {
      decisions.push({ at: this.#clock.now(), key: syncing, mutations });
      writer.published(mutations);
      return Promise.resolve();
    };
    const controller = new Controller({ ...hooks, reconcile }, this.#ports(queue, publish));
    return { controller, queue, writer, decisions, answers };
  }

  #ports(queue: ReplayWorkqueue, publish: ControllerPorts['publish']): ControllerPorts {
    const ttlMs = this.#o.expectationsTtlMs;
    return {
      expectations: ttlMs === undefined ? undefined : new ReplayExpectations({ clock: this.#clock, ttlMs }),
      publish,
      queue,
      log: jsonLogger('replay', { sink: () => undefined }),
      now: () => new Date(this.#clock.now()),
      partitionOf: (key) => (this.#o.singleton ? 0 : this.#watermarks.watchPartitionOf(key)),
      watchPartitionOf: (key) => this.#watermarks.watchPartitionOf(key),
      partitionOwned: () => true,
      partitionSynced: () => true,
      partitionWatermark: (n) => this.#watermarks.partitionWatermark(n),
    };
  }

  /** #tick runs the controller's tick from the window's start as wait.Until: a period starts once the keys were taken up. */
  #tick(controller: Controller): void {
    const tick = this.#o.tick;
    if (tick === undefined) return;
    const pass = async (): Promise<void> => {
      await controller.tick(tick.keys, new Date(this.#clock.now()));
      this.#clock.setTimeout(() => void pass(), tick.periodMs);
    };
    this.#clock.setTimeout(() => void pass(), 0);
  }

  /** #prime applies a record from before the window to the stores and the pipeline's clock only. */
  #prime(hooks: ControllerHooks, input: ReplayInput): void {
    if (input.kind === 'event') {
      this.#observe(input, input.event.observedAt);
      hooks.onEvent(input.topic, input.event);
    }
    if (input.kind === 'watermark') this.#observe(input, input.observedAt);
  }

  /**
   * #feed runs what is due up to the record's time, then hands the record to the Controller as its consumer would,
   * and lets the workers take up what it enqueued at once.
   */
  async #feed(r: Replaying, input: ReplayInput): Promise<void> {
    await this.#stepTo(r, input.at);
    await r.queue.feeding(async () => {
      if (input.kind === 'event') {
        this.#observe(input, input.event.observedAt);
        await r.controller.onEvent(input.topic, input.event);
        r.writer.seen(kindOfTopic(input.topic).plural, input.event.key);
      } else if (input.kind === 'watermark') {
        this.#observe(input, input.observedAt);
        r.controller.onWatermark(input.topic, input.partition, input.resourceVersion);
      } else {
        r.writer.resulted(input.result, input.cause);
        await r.controller.onResult(input.result, input.cause, true);
      }
      await Promise.all(r.answers.splice(0));
    });
    await r.queue.settled();
  }

  #observe(input: ReplayInput, observedAt: Date | undefined): void {
    if (observedAt !== undefined) this.#watermarks.observe(input, observedAt);
  }

  /** #stepTo moves the clock to `t`, stopping at each timer due by then for the workers to do what fell due. */
  async #stepTo(r: Replaying, t: number): Promise<void> {
    for (let at = this.#clock.nextTimerAt(); at !== undefined && at <= t; at = this.#clock.nextTimerAt()) {
      this.#clock.advance(at - this.#clock.now());
      await Promise.all(r.answers.splice(0));
      await r.queue.settled();
    }
    this.#clock.advance(Math.max(0, t - this.#clock.now()));
  }
}
