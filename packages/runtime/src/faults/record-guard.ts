import type { BusRecord } from '../bus/bus.ts';
import { type Backoff, backoffDelay } from '../flowcontrol/backoff.ts';
import type { Logger } from '../service/log.ts';
import { classifyFault } from './record-fault.ts';

/** RecordSource names the record being handled: where it came from. */
export type RecordSource = { readonly topic: string; readonly partition: number; readonly offset: string };

/** RecordGuardPorts are what the guard needs: where poison goes, its log, and how to wait between retries. */
export type RecordGuardPorts = {
  /** deadLetter publishes the record to its topic's dead-letter topic with the reason. */
  readonly deadLetter: (source: RecordSource, record: BusRecord, reason: string) => Promise<void>;
  /** counted is told of every dead letter (a metric). */
  readonly counted: (source: RecordSource) => void;
  readonly log: Logger;
  readonly sleep: (ms: number) => Promise<void>;
};

/** RETRY_BACKOFF is the backoff of a record whose handling met a transient fault: 100 ms doubling to 10 s, no jitter. */
export const RETRY_BACKOFF: Backoff = { durationMs: 100, factor: 2, jitter: 0, capMs: 10_000 };

/** GuardStoppedError ends a retry loop when the consumer stops (the record stays uncommitted and is read again). */
export class GuardStoppedError extends Error {}

/**
 * RecordGuard makes sure no record can stop a consumer: a record whose handling fails with a poison fault goes to
 * the dead-letter topic and processing goes on; a transient fault (registry or Redis unreachable) is retried with
 * backoff, never dead-lettered, and meanwhile `fault` names it (the service reports not ready). Each kind of fault
 * is logged once, not once per record.
 */
export class RecordGuard {
  readonly #ports: RecordGuardPorts;
  readonly #logged = new Set<string>();
  /** #retrying: the transient fault of every record being retried now, by source (records are handled side by side). */
  readonly #retrying = new Map<string, string>();
  #stopped = false;

  constructor(ports: RecordGuardPorts) {
    this.#ports = ports;
  }

  /** fault names a transient fault being retried now, if any (for /readyz), and how many records wait on one. */
  fault(): string | undefined {
    const first = this.#retrying.values().next();
    if (first.done) return undefined;
    return this.#retrying.size === 1
      ? first.value
      : `${first.value} (and ${this.#retrying.size - 1} more records retrying)`;
  }

  /** stop ends every retry loop at its next wait. */
  stop(): void {
    this.#stopped = true;
  }

  /** handle runs `work` for one record until it succeeds, is dead-lettered, or the guard stops. */
  async handle(
    source: RecordSource,
    record: BusRecord,
    work: () => Promise<void>,
    heartbeat: () => Promise<void>,
  ): Promise<void> {
    const id = `${source.topic}/${source.partition}/${source.offset}`;
    try {
      for (let step = 0; ; step++) {
        try {
          return await work();
        } catch (err) {
          if (classifyFault(err) === 'poison') return await this.#poison(source, record, err);
          this.#retrying.set(id, `${source.topic}: ${describe(err)}`);
          this.#logOnce(
            `transient:${source.topic}:${kindOf(err)}`,
            'warn',
            'transient fault; retrying the record',
            source,
            err,
          );
        }
        if (this.#stopped) throw new GuardStoppedError('stopped while retrying a record');
        await this.#ports.sleep(backoffDelay(RETRY_BACKOFF, step));
        await heartbeat();
      }
    } finally {
      this.#retrying.delete(id);
    }
  }

  async #poison(source: RecordSource, record: BusRecord, err: unknown): Promise<void> {
    const reason = describe(err);
    this.#logOnce(
      `poison:${source.topic}:${kindOf(err)}`,
      'error',
      'record sent to the dead-letter topic',
      source,
      err,
    );
    await this.#ports.deadLetter(source, record, reason);
    this.#ports.counted(source);
  }

  #logOnce(kind: string, level: 'warn' | 'error', message: string, source: RecordSource, err: unknown): void {
    if (this.#logged.has(kind)) return;
    this.#logged.add(kind);
    this.#ports.log[level](`${message} (logged once per kind of fault)`, { ...source, reason: describe(err) });
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** kindOf is an error's class (WireFormatError, RegistryError, …: their `name` is often just "Error"). */
function kindOf(err: unknown): string {
  return err instanceof Error ? err.constructor.name : typeof err;
}
