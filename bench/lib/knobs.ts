import type { Knob } from './scenario.ts';

/** knob declares an environment variable the bench reads: its name, its value when unset, and what it sets. */
export function knob(env: string, fallback: string | undefined, meaning: string): Knob {
  return fallback === undefined ? { env, meaning } : { env, default: fallback, meaning };
}

/** knobValue is a knob's value in this run: its variable when set, else its default. */
export function knobValue(k: Knob): string | undefined {
  return process.env[k.env] ?? k.default;
}

/** numberKnob is a knob's value as a number. */
export function numberKnob(k: Knob): number {
  return Number(knobValue(k));
}

/** numbersKnob is a comma-separated knob's values as numbers. */
export function numbersKnob(k: Knob): number[] {
  return (knobValue(k) ?? '').split(',').map(Number);
}

/** BENCH_PODS and BENCH_STEPS are sizes several scenarios read; each lists them with its own meaning ({ ...BENCH_PODS, meaning }). */
export const BENCH_PODS = knob('BENCH_PODS', '1000', 'pods an RC scales to');
export const BENCH_STEPS = knob('BENCH_STEPS', '100', 'single steps measured, one latency sample each');

/** RUN are the knobs of the whole run: the bench stack and what applies to every scenario. */
export const RUN = {
  profile: knob('KCM_BUS_BENCH_PROFILE', 'bench', "the bench stack's profile (its own state folder)"),
  portBase: knob('KCM_BUS_PORT_BASE', '17600', "the bench stack's first port"),
  background: knob(
    'BENCH_BACKGROUND',
    'none',
    "the stack's own kube-controller-manager under both arms: none, or full (every controller kcm-bus does not replace)",
  ),
  kcmControllers: knob(
    'KCM_BUS_KCM_CONTROLLERS',
    undefined,
    "that kube-controller-manager's --controllers, in place of BENCH_BACKGROUND's",
  ),
  kafkaAuth: knob(
    'BENCH_KAFKA_AUTH',
    '0',
    '1: the services log in to Kafka over TLS with SCRAM, each as its own principal, under ACLs',
  ),
  warmUpPods: knob(
    'BENCH_WARM_UP_PODS',
    '300',
    'pods of the unmeasured kcm-bus run before the first scenario (0: none)',
  ),
  cpuProfile: knob(
    'BENCH_CPU_PROFILE',
    '0',
    '1: a V8 CPU profile of every service the bench starts, in bench/out/profiles',
  ),
  perf: knob(
    'BENCH_PERF',
    '0',
    "1: Linux perf records the machine's CPUs over the run; each service's on-CPU samples by function group and package, in bench/out/perf",
  ),
  brokerProfile: knob(
    'BENCH_BROKER_PROFILE',
    '0',
    '1: a Flight Recorder profile of the broker around each scenario, in bench/out/profiles',
  ),
} as const;

/** WHERE are the run's knobs that say only where the bench stack runs: they change no figure. */
const WHERE: ReadonlySet<string> = new Set([RUN.profile.env, RUN.portBase.env]);

/**
 * knobsSet lists what was set for a scenario's run, as `NAME=value`: those of its knobs and of the run's that are set
 * in the environment (a value equal to the default included), but WHERE.
 */
export function knobsSet(own: readonly Knob[]): string[] {
  const names = new Set([...own, ...Object.values(RUN)].map((k) => k.env).filter((env) => !WHERE.has(env)));
  return [...names].filter((env) => process.env[env] !== undefined).map((env) => `${env}=${process.env[env]}`);
}
