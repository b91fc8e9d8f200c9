import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { brokerReady, grantAcls } from '@kcm-bus/runtime/bus/bus.kafka.ts';
import { SERVICES, serviceAcls } from './kafka-acls.ts';
import type { StackConfig } from './config.ts';
import { java } from './kafka-java.ts';
import { kafkaLogging } from './kafka-logging.ts';
import { kafkaSecureEndpoint, prepareKafkaSecure, scramFormatArgs, type KafkaSecureFiles } from './kafka-secure.ts';
import { selectedKafka, type KafkaRelease } from './kafka-versions.ts';
import { firstKafkaNode, kafkaAddresses, kafkaNodes, type KafkaNode } from './kafka-nodes.ts';
import { serverProperties } from './kafka-properties.ts';
import { assertFormattedBy } from './kafka-upgrade.ts';
import type { Binaries } from './obtain-all.ts';
import type { Launch } from './procs.ts';
import { CommandError, sh } from './sh.ts';

/** kafkaLaunch runs one KRaft node (broker and controller) on loopback, of the stack's Kafka unless told another. */
export function kafkaLaunch(
  c: StackConfig,
  b: Binaries,
  release: KafkaRelease = selectedKafka(),
  node: KafkaNode = firstKafkaNode(c),
): Launch {
  return { ...java(b, release, node.dir, 'kafka.Kafka', [join(node.dir, 'server.properties')]), name: node.part };
}

/**
 * kafkaParts are the stack's Kafka as parts (parts.ts's Part, structurally: that module imports this one), one per
 * KRaft node of a release, prepared, probed and given the services' ACLs (through node 1, once it answers with an
 * active controller) as `stack up` does. The nodes share one secure listener's certificate and users, made once. A
 * second broker of another release (kafka-standalone.ts) is started through them, so every Kafka is configured the
 * one way.
 */
export function kafkaParts(c: StackConfig, b: Binaries, release: KafkaRelease = selectedKafka()) {
  let secure: Promise<KafkaSecureFiles> | undefined;
  const secureFiles = (): Promise<KafkaSecureFiles> => (secure ??= prepareKafkaSecure(c));
  return kafkaNodes(c).map((node) => ({
    name: node.part,
    ports: [node.ports.client, node.ports.controller, node.ports.secure],
    readyTimeoutMs: 120_000,
    launch: kafkaLaunch(c, b, release, node),
    prepare: async () => prepareKafka(c, b, release, node, await secureFiles()),
    ready: () => kafkaReady(c, node),
    ...(node.id === 1
      ? { configure: () => grantServiceAcls(c, (user, password) => addScramUser(c, b, release, user, password)) }
      : {}),
  }));
}

/** kafkaPart is the first of kafkaParts: a single-node stack's Kafka, or a standalone broker's. */
export function kafkaPart(c: StackConfig, b: Binaries, release: KafkaRelease = selectedKafka()) {
  const [first] = kafkaParts(c, b, release);
  if (!first) throw new Error('a stack has at least one Kafka node');
  return first;
}

/**
 * prepareKafka writes a node's configuration and formats its storage once, with the secure listener's SCRAM users
 * (a storage formatted before the secure listener existed has none: `down --purge` once to get them) and the
 * stack's one cluster id, and records which release formatted it.
 */
async function prepareKafka(
  c: StackConfig,
  b: Binaries,
  release: KafkaRelease,
  node: KafkaNode,
  secure: KafkaSecureFiles,
): Promise<void> {
  mkdirSync(node.dir, { recursive: true });
  writeFileSync(join(node.dir, 'server.properties'), serverProperties(c, node, secure));
  const logging = kafkaLogging(release, node.dir);
  writeFileSync(logging.file, logging.text);
  if (existsSync(join(node.dir, 'data', 'meta.properties'))) return assertFormattedBy(node.dir, release);
  // Recorded before formatting, so a storage with meta.properties always has its version beside it.
  writeFileSync(join(node.dir, 'version'), `${release.version}\n`);
  const format = java(b, release, node.dir, 'kafka.tools.StorageTool', [
    'format',
    '-t',
    stackClusterId(c),
    '-c',
    join(node.dir, 'server.properties'),
    ...scramFormatArgs(secure),
  ]);
  await sh(format.command, format.args).catch((err: unknown) => {
    throw new Error(
      `formatting Kafka's storage (${node.part}) failed: ${err instanceof CommandError ? `${err.message}\n${err.output.slice(-2000)}` : String(err)}`,
    );
  });
}

/**
 * stackClusterId is the KRaft cluster id every node of the stack is formatted with: drawn once (clusterId) and kept
 * in the state, so a node formatted later (a cluster's second and third) joins the same cluster. Read and written
 * synchronously: nodes prepared side by side in one process see one id.
 */
function stackClusterId(c: StackConfig): string {
  const file = join(c.dir, 'kafka-cluster-id');
  if (!existsSync(file)) writeFileSync(file, `${clusterId()}\n`);
  return readFileSync(file, 'utf8').trim();
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

/** kafkaReady is true when the node's broker answers metadata with an active controller. */
export function kafkaReady(c: StackConfig, node: KafkaNode): Promise<boolean> {
  return brokerReady([`${c.host}:${c.ports[node.ports.client]}`]);
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
    const tool = java(b, release, firstKafkaNode(c).dir, release.configCommand, [
      '--bootstrap-server',
      kafkaAddresses(c, 'client').join(','),
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
  await grantAcls(kafkaAddresses(c, 'client'), serviceAcls());
  const secure = kafkaSecureEndpoint(c);
  const ssl = { ca: readFileSync(secure.caFile, 'utf8'), rejectUnauthorized: true };
  for (const service of SERVICES) {
    const sasl = {
      mechanism: 'scram-sha-512' as const,
      username: service,
      password: readFileSync(secure.servicePasswordFiles[service], 'utf8'),
    };
    if (await brokerReady(secure.brokers, { ssl, sasl })) continue;
    await addUser(service, sasl.password);
    if (!(await brokerReady(secure.brokers, { ssl, sasl }))) {
      throw new Error(
        `Kafka refuses the SCRAM login of ${service}, its user added: run \`down --purge\` once to start this stack's Kafka state afresh`,
      );
    }
  }
}
