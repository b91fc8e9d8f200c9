import { VERSIONS } from './versions.ts';

/** MavenArtifact is one dependency of a Kafka build's pom. */
export type MavenArtifact = { readonly groupId: string; readonly artifactId: string; readonly version: string };

/**
 * KafkaRelease is one Kafka version the stack knows how to build and run. What differs between majors is logging:
 * Kafka's poms depend on slf4j-api 1.7 only and leave the binding to the distribution, which for 3.x is reload4j
 * reading a log4j 1.x file, and for 4.x log4j2 (KIP-653: Kafka 4 dropped log4j 1.x) reading a log4j2 file.
 */
export type KafkaRelease = {
  readonly version: string;
  readonly logging: 'log4j' | 'log4j2';
  /** The slf4j binding copied beside Kafka's runtime dependencies. */
  readonly binding: MavenArtifact;
  /** The main class of kafka-configs.sh (it moved from core to tools in Kafka 4). */
  readonly configCommand: string;
};

/**
 * KAFKA_RELEASES are the versions verified with the bus on this machine kind (the whole suite on the default; kafka-compat.test.ts on the other), the default first.
 * 4.4.0's binding is log4j-slf4j-impl (slf4j 1.x: Kafka 4.4 still pins slf4j-api 1.7.36), not log4j-slf4j2-impl,
 * at the log4j2 version kafka-server itself brings (log4j-api/core 2.25.5), so log4j's jars agree with each other.
 */
export const KAFKA_RELEASES: readonly KafkaRelease[] = [
  {
    version: VERSIONS.kafka,
    logging: 'log4j2',
    binding: { groupId: 'org.apache.logging.log4j', artifactId: 'log4j-slf4j-impl', version: '2.25.5' },
    configCommand: 'org.apache.kafka.tools.ConfigCommand',
  },
  {
    version: '3.9.1',
    logging: 'log4j',
    binding: { groupId: 'org.slf4j', artifactId: 'slf4j-reload4j', version: '1.7.36' },
    configCommand: 'kafka.admin.ConfigCommand',
  },
];

/** KAFKA_VERSION_ENV is the one setting that picks the stack's Kafka (an EnvSetting of the stack's commands, for help). */
export const KAFKA_VERSION_ENV = {
  name: 'KCM_BUS_KAFKA_VERSION',
  default: VERSIONS.kafka,
  help: `The stack's Kafka: ${KAFKA_RELEASES.map((r) => r.version).join(' or ')} (each built once into the cache).`,
} as const;

/** kafkaRelease is the release of a version, or an error naming the versions the stack knows. */
export function kafkaRelease(version: string): KafkaRelease {
  const release = KAFKA_RELEASES.find((r) => r.version === version);
  if (release) return release;
  throw new Error(
    `${KAFKA_VERSION_ENV.name}=${version} is not a Kafka version the stack knows: ` +
      `${KAFKA_RELEASES.map((r) => r.version).join(', ')} (the default is ${VERSIONS.kafka})`,
  );
}

/** selectedKafka is the release the stack runs: KCM_BUS_KAFKA_VERSION's when set, else the default. */
export function selectedKafka(env: NodeJS.ProcessEnv = process.env): KafkaRelease {
  const wanted = env[KAFKA_VERSION_ENV.name];
  return kafkaRelease(wanted === undefined || wanted === '' ? VERSIONS.kafka : wanted);
}

/**
 * otherKafka is the release a compatibility test runs beside the selected one: a release of the other major, so a
 * suite on Kafka 4 also proves the bus on 3.9 (and one on 3.9 proves it on the default 4.x).
 */
export function otherKafka(env: NodeJS.ProcessEnv = process.env): KafkaRelease {
  const selected = selectedKafka(env);
  const other = KAFKA_RELEASES.find((r) => kafkaMajor(r) !== kafkaMajor(selected));
  if (!other) throw new Error(`no Kafka release of another major than ${selected.version} is known`);
  return other;
}

/** kafkaMajor is a release's major version ("4" of 4.4.0). */
export function kafkaMajor(release: KafkaRelease): string {
  return release.version.split('.')[0] ?? '';
}
