import { createRequire } from 'node:module';

/** RunnerState is what the change reads of kafkajs's Runner (src/consumer/runner.js): whether it runs. */
type RunnerState = { readonly running: boolean };
type Fetch = (this: RunnerState, nodeId: number) => Promise<unknown[]>;

/** Runner is kafkajs 2.2.4's consumer runner, loaded from its source (the package has no `exports` map). */
const Runner = createRequire(import.meta.url)('kafkajs/src/consumer/runner.js') as { prototype: { fetch: Fetch } };

/** RunnerStoppedError ends a fetcher that asked a stopped runner for batches. */
export class RunnerStoppedError extends Error {
  override readonly name = 'KafkaJSRunnerStopped';
  constructor() {
    super('the consumer stopped: its fetchers end');
  }
}

/**
 * fetchOnlyWhileRunning is a runner's fetch that throws once the runner stopped, where kafkajs 2.2.4's returns no
 * batches. Its fetch manager starts a new set of fetchers when the brokers changed under the old ones
 * (KafkaJSFetcherRebalanceError), whether or not the runner is stopping; so a stop that met a change of brokers (a
 * broker back after a pause) left fetchers whose every fetch returned at once with nothing: a loop of promises that
 * starved the event loop, and a writer that took SIGTERM spun at 70 % of a core and never exited. A fetcher whose
 * fetch throws ends, its manager stops the others and throws to the runner, whose retry sees it stopped and returns.
 */
export function fetchOnlyWhileRunning(fetch: Fetch): Fetch {
  return async function (this: RunnerState, nodeId: number) {
    if (!this.running) throw new RunnerStoppedError();
    return fetch.call(this, nodeId);
  };
}

/** endFetchersWithRunner makes every consumer's fetch fetchOnlyWhileRunning. Idempotent: the prototype is patched once. */
export function endFetchersWithRunner(runner: { prototype: { fetch: Fetch } } = Runner): void {
  const proto = runner.prototype as { fetch: Fetch; [PATCHED]?: true };
  if (proto[PATCHED]) return;
  proto.fetch = fetchOnlyWhileRunning(proto.fetch);
  proto[PATCHED] = true;
}

const PATCHED = Symbol('kcm-bus: fetchers end with their runner');
