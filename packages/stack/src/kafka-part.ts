import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { brokerReady, grantAcls } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { SERVICES, serviceAcls } from './kafka-acls.ts';
import type { StackConfig } from './config.ts';
import { kafkaLogging } from './kafka-logging.ts';
import {
  authorizerProperties,
  kafkaSecureEndpoint,
  prepareKafkaSecure,
  scramFormatArgs,
  secureListenerProperties,
  type KafkaSecureFiles,
} from './kafka-secure.ts';
import { selectedKafka, type KafkaRelease } from './kafka-versions.ts';
import type { Binaries } from './obtain-all.ts';
import type { Launch } from './procs.ts';
import { CommandError, sh } from './sh.ts';

/** kafkaDir is the broker's configuration and data folder in a stack's state. */
function kafkaDir(c: StackConfig): string {
  return join(c.dir, 'kafka');
}

/** java runs one of a Kafka release's main classes from its cached jars (b: where that release was obtained). */
function java(c: StackConfig, b: Binaries, release: KafkaRelease, main: string, args: readonly string[]): Launch {
  const libs = join(b.dirs.get('kafka') ?? '', 'libs', '*');
  return {
    name: 'kafka',
    command: 'java',
    args: [
      '-Xms128m',
      '-Xmx512m',
      '-XX:+UseG1GC',
      kafkaLogging(release, kafkaDir(c)).jvmFlag,
      '-cp',
      libs,
      main,
      ...args,
    ],
  };
}

/** kafkaLaunch runs one KRaft node (broker and controller) on loopback, of the stack's Kafka unless told another. */
export function kafkaLaunch(c: StackConfig, b: Binaries, release: KafkaRelease = selectedKafka()): Launch {
  return java(c, b, release, 'kafka.Kafka', [join(kafkaDir(c), 'server.properties')]);
}

/**
 * kafkaPart is the stack's Kafka as a part (parts.ts's Part, structurally: that module imports this one): one KRaft
 * node of a release, prepared, probed and given the services' ACLs as `stack up` does. A second broker of another
 * release (kafka-standalone.ts) is started through it, so both are configured the one way.
 */
export function kafkaPart(c: StackConfig, b: Binaries, release: KafkaRelease = selectedKafka()) {
  return {
    name: 'kafka',
    ports: ['kafka', 'kafkaController', 'kafkaSecure'] as const,
    readyTimeoutMs: 120_000,
    launch: kafkaLaunch(c, b, release),
    prepare: () => prepareKafka(c, b, release),
    ready: () => kafkaReady(c),
    configure: () => grantServiceAcls(c, (user, password) => addScramUser(c, b, release, user, password)),
  };
}

/**
 * prepareKafka writes the broker's configuration and formats its storage once, with the secure listener's SCRAM
 * users (a storage formatted before the secure listener existed has none: `down --purge` once to get them), and
 * records which release formatted it.
 */
export async function prepareKafka(
  c: StackConfig,
  b: Binaries,
  release: KafkaRelease = selectedKafka(),
): Promise<void> {
  const dir = kafkaDir(c);
  mkdirSync(dir, { recursive: true });
  const secure = await prepareKafkaSecure(c);
  writeFileSync(join(dir, 'server.properties'), serverProperties(c, secure));
  const logging = kafkaLogging(release, dir);
  writeFileSync(logging.file, logging.text);
  if (existsSync(join(dir, 'data', 'meta.properties'))) return assertFormattedBy(c, release);
  // Recorded before formatting, so a storage with meta.properties always has its version beside it.
  writeFileSync(join(dir, 'version'), `${release.version}\n`);
  const format = java(c, b, release, 'kafka.tools.StorageTool', [
    'format',
    '-t',
    clusterId(),
    '-c',
    join(dir, 'server.properties'),
    ...scramFormatArgs(secure),
  ]);
  await sh(format.command, format.args).catch((err: unknown) => {
    throw new Error(
      `formatting Kafka's storage failed: ${err instanceof CommandError ? `${err.message}\n${err.output.slice(-2000)}` : String(err)}`,
    );
  });
}

/** UNRECORDED_VERSION formatted the stacks whose storage predates the version file: the only Kafka the stack ran then. */
const UNRECORDED_VERSION = '3.9.1';

/**
 * assertFormattedBy fails, saying what to do, when the stack's storage was formatted by another Kafka release than
 * the one starting: 3.9 knows no metadata.version past 3.9-IV0, and 4.4 formats at 4.4-IV2; an in-place upgrade would
 * leave the metadata at 3.9's level, a broker no release was verified as. A stack's Kafka is switched by a purge.
 */
export function assertFormattedBy(c: StackConfig, release: KafkaRelease): void {
  const file = join(kafkaDir(c), 'version');
  const formatted = existsSync(file) ? readFileSync(file, 'utf8').trim() : UNRECORDED_VERSION;
  if (formatted === release.version) return;
  throw new Error(
    `this stack's Kafka storage (${kafkaDir(c)}) was formatted by Kafka ${formatted}, not ${release.version}: ` +
      `run \`down --purge\` once to start it afresh on ${release.version}, or set KCM_BUS_KAFKA_VERSION=${formatted}`,
  );
}

/**
 * clusterId is a random KRaft cluster id (a base64url UUID, as kafka-storage random-uuid prints). One that starts
 * with "-" would be read as an option by StorageTool, so, like Kafka's Uuid.randomUuid, it is drawn again.
 */
export function clusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** kafkaReady is true when the broker answers metadata with an active controller. */
export function kafkaReady(c: StackConfig): Promise<boolean> {
  return brokerReady([`${c.host}:${c.ports.kafka}`]);
}

/**
 * addScramUser gives the running broker a user's SCRAM-SHA-512 and -256 credentials (kafka-configs `--alter
 * --add-config` on the loopback PLAINTEXT listener, as its super user).
 */
async function addScramUser(
  c: StackConfig,
  b: Binaries,
  release: KafkaRelease,
  user: string,
  password: string,
): Promise<void> {
  // One mechanism a request: the broker refuses to alter a user's credentials twice in one.
  for (const mechanism of ['SCRAM-SHA-512', 'SCRAM-SHA-256']) {
    const tool = java(c, b, release, release.configCommand, [
      '--bootstrap-server',
      `${c.host}:${c.ports.kafka}`,
      ...['--alter', '--add-config', `${mechanism}=[password=${password}]`, '--entity-type', 'users'],
      ...['--entity-name', user],
    ]);
    await sh(tool.command, tool.args).catch((err: unknown) => {
      const output = err instanceof CommandError ? err.output.slice(-1000) : String(err);
      throw new Error(`adding the Kafka user ${user} (${mechanism}) failed: ${output}`);
    });
  }
}

/**
 * grantServiceAcls gives each service's principal its rights (kafka-acls.ts), through the loopback PLAINTEXT
 * listener, and checks that each can log in on the secure one. A Kafka formatted before a service existed
 * (reconciler-namespace came on 2026-11-29) lacks its user: addUser gives it one, so an upgraded checkout's stack
 * keeps its state; a login that still fails stops `up` naming the service.
 */
export async function grantServiceAcls(
  c: StackConfig,
  addUser: (user: string, password: string) => Promise<void>,
): Promise<void> {
  await grantAcls([`${c.host}:${c.ports.kafka}`], serviceAcls());
  const secure = kafkaSecureEndpoint(c);
  const ssl = { ca: readFileSync(secure.caFile, 'utf8'), rejectUnauthorized: true };
  for (const service of SERVICES) {
    const sasl = {
      mechanism: 'scram-sha-512' as const,
      username: service,
      password: readFileSync(secure.servicePasswordFiles[service], 'utf8'),
    };
    if (await brokerReady([secure.bootstrap], { ssl, sasl })) continue;
    await addUser(service, sasl.password);
    if (!(await brokerReady([secure.bootstrap], { ssl, sasl }))) {
      throw new Error(
        `Kafka refuses the SCRAM login of ${service}, its user added: run \`down --purge\` once to start this stack's Kafka state afresh`,
      );
    }
  }
}

/**
 * serverProperties: the loopback PLAINTEXT listener of the stack's own parts, tests and benchmarks (a super user), the
 * SASL_SSL one the services log in on as their own principals, and the authorizer that holds them to their ACLs.
 * The log cleaner's dedupe buffer is 8 MiB, not Kafka's 128: the cleaner zeroes the whole buffer before each log it
 * cleans (SkimpyOffsetMap.clear), and kcm-bus's state topics are compacted eagerly (STATE_TOPIC_CONFIGS), so with
 * 128 MiB that zeroing was 58 % of the broker's CPU under S1 (a JFR profile). 8 MiB hold over 300,000 keys a pass,
 * more than any partition of the benchmarks dirties between two cleanings.
 * One network thread per listener and two request handlers, not Kafka's 3 and 8, on a machine of two cores: each idle
 * thread polls. The controller's no-op record goes every 5 s, not every 500 ms (metadata.max.idle.interval.ms only
 * shows a quorum's liveness to brokers, and this node is its own quorum). A bare broker's utime+stime over 60 s, read
 * from /proc: 0.96 CPU-s per minute with Kafka's defaults, 1.03 with the 5 s record alone (raft-io 0.20 → 0.05, its
 * request threads 0.41-0.53 either way), 0.63 with both (request threads 0.15-0.21). S13's broker with 10,000 pods:
 * 1.97 → 1.59. S1 and S4 under them stayed within their run-to-run spread (docs/benchmarks-history.md, session 15).
 */
function serverProperties(c: StackConfig, secure: KafkaSecureFiles): string {
  const secureListener = `SASL_SSL://${c.host}:${c.ports.kafkaSecure}`;
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@${c.host}:${c.ports.kafkaController}`,
    `listeners=PLAINTEXT://${c.host}:${c.ports.kafka},CONTROLLER://${c.host}:${c.ports.kafkaController},${secureListener}`,
    `advertised.listeners=PLAINTEXT://${c.host}:${c.ports.kafka},${secureListener}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL',
    ...secureListenerProperties(secure),
    ...authorizerProperties(),
    `log.dirs=${join(kafkaDir(c), 'data')}`,
    'offsets.topic.replication.factor=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    'auto.create.topics.enable=false',
    'num.partitions=1',
    `log.cleaner.dedupe.buffer.size=${8 * 2 ** 20}`,
    'num.network.threads=1',
    'num.io.threads=2',
    'metadata.max.idle.interval.ms=5000',
    '',
  ].join('\n');
}
