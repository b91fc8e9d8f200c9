/**
 * A profile of the broker under a bench run (`BENCH_BROKER_PROFILE=1 npm run bench -- --only s1`): the bench starts
 * Java Flight Recorder in the stack's Kafka (jcmd) before each scenario and dumps it after, into
 * bench/out/profiles/broker-<scenario>.jfr (JDK Mission Control opens it), and prints where the broker's CPU went:
 * the share of samples per thread pool and the broker's functions on the most samples (with what they call).
 */
import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** SampleSummary is where a recording's execution samples were: per thread pool, and per function (inclusive). */
export type SampleSummary = {
  readonly samples: number;
  readonly threads: ReadonlyMap<string, number>;
  readonly frames: ReadonlyMap<string, number>;
};

/** pool names a thread without its numbers: the 8 request handlers are one line. */
function pool(thread: string): string {
  return thread.replace(/\d+/g, 'N');
}

/** SampleCounter reads `jfr print --events jdk.ExecutionSample` line by line. */
export class SampleCounter {
  readonly #threads = new Map<string, number>();
  readonly #frames = new Map<string, number>();
  #seen = new Set<string>();
  #samples = 0;

  line(text: string): void {
    const thread = /^\s+sampledThread = "([^"]+)"/.exec(text);
    if (thread) {
      this.#samples++;
      this.#seen = new Set();
      this.#threads.set(pool(thread[1]!), (this.#threads.get(pool(thread[1]!)) ?? 0) + 1);
      return;
    }
    const frame = /^\s{4}([\w.$]+)\(/.exec(text)?.[1];
    if (frame === undefined || this.#seen.has(frame)) return;
    this.#seen.add(frame);
    this.#frames.set(frame, (this.#frames.get(frame) ?? 0) + 1);
  }

  summary(): SampleSummary {
    return { samples: this.#samples, threads: this.#threads, frames: this.#frames };
  }
}

/** formatSummary prints the thread pools and the broker's (kafka.*, org.apache.kafka.*) functions above 1 %, most first. */
export function formatSummary(s: SampleSummary, top = 15): string {
  const pct = (n: number): string => `${((100 * n) / Math.max(1, s.samples)).toFixed(1).padStart(5)} %`;
  const sorted = (m: ReadonlyMap<string, number>): [string, number][] =>
    [...m].filter(([, n]) => n * 100 >= s.samples).sort(([, a], [, b]) => b - a);
  const broker = sorted(s.frames)
    .filter(([f]) => /^(kafka|org\.apache\.kafka)\./.test(f))
    .slice(0, top);
  return [
    `${s.samples} samples; by thread:`,
    ...sorted(s.threads).map(([t, n]) => `  ${pct(n)}  ${t}`),
    'broker functions (inclusive):',
    ...broker.map(([f, n]) => `  ${pct(n)}  ${f}`),
  ].join('\n');
}

/** BrokerProfile records the broker from its start; stop writes the .jfr and returns the summary. */
export type BrokerProfile = { readonly stop: () => Promise<string> };

/** startBrokerProfile starts a recording named after the scenario in the Kafka process `pid`. */
export async function startBrokerProfile(pid: number, scenario: string, dir: string): Promise<BrokerProfile> {
  const name = `bench-${scenario}`;
  await run('jcmd', [String(pid), 'JFR.start', `name=${name}`, 'settings=profile']);
  return {
    stop: async () => {
      const file = join(dir, `broker-${scenario}.jfr`);
      await run('jcmd', [String(pid), 'JFR.stop', `name=${name}`, `filename=${file}`]);
      return `== broker (${file})\n${formatSummary(await countSamples(file))}`;
    },
  };
}

async function countSamples(file: string): Promise<SampleSummary> {
  const counter = new SampleCounter();
  const child = spawn('jfr', ['print', '--stack-depth', '64', '--events', 'jdk.ExecutionSample', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const text of createInterface({ input: child.stdout })) counter.line(text);
  return counter.summary();
}
