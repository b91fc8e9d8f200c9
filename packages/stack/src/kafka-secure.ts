import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { StackConfig } from './config.ts';
import { SERVICES, type ServiceName } from './kafka-acls.ts';
import { kafkaAddresses } from './kafka-nodes.ts';
import { ensureServingCert, pkiDir } from './pki.ts';

/**
 * KAFKA_SECURE_USER is the operator's user of the secure listener (SCRAM and PLAIN), a super user as an admin's is:
 * the tools (tail, history, lag) read every topic with it. Each service has its own user, named as the service.
 */
export const KAFKA_SECURE_USER = 'kcm-bus';

/** KAFKA_SECURE_MECHANISMS are the SASL mechanisms the secure listener offers, as Kafka spells them. */
export const KAFKA_SECURE_MECHANISMS = ['SCRAM-SHA-512', 'SCRAM-SHA-256', 'PLAIN'] as const;

/**
 * KafkaSecureEndpoint is the broker's SASL_SSL listener: its bootstrap, the CA that signed its certificate (the
 * stack's throwaway CA), the operator's credentials and each service's password file (passwords in files, as a
 * deployment keeps them).
 */
export type KafkaSecureEndpoint = {
  /** bootstrap is every node's secure listener, comma-separated (Kafka's bootstrap.servers); brokers the same as a list. */
  readonly bootstrap: string;
  readonly brokers: string[];
  readonly caFile: string;
  readonly username: string;
  readonly passwordFile: string;
  readonly servicePasswordFiles: Readonly<Record<ServiceName, string>>;
  readonly mechanisms: readonly string[];
};

function secureDir(c: StackConfig): string {
  return join(c.dir, 'kafka', 'secure');
}

/** kafkaSecureEndpoint says where the secure listener is and how to log in. */
export function kafkaSecureEndpoint(c: StackConfig): KafkaSecureEndpoint {
  const brokers = kafkaAddresses(c, 'secure');
  return {
    bootstrap: brokers.join(','),
    brokers,
    caFile: join(pkiDir(c.dir), 'ca.crt'),
    username: KAFKA_SECURE_USER,
    passwordFile: join(secureDir(c), 'password'),
    mechanisms: KAFKA_SECURE_MECHANISMS,
    servicePasswordFiles: Object.fromEntries(SERVICES.map((s) => [s, join(secureDir(c), `${s}.password`)])) as Record<
      ServiceName,
      string
    >,
  };
}

/** KafkaSecureFiles are what the broker's secure listener reads: its PEM keystore and every user's password. */
export type KafkaSecureFiles = {
  readonly keystore: string;
  readonly password: string;
  readonly servicePasswords: ReadonlyMap<ServiceName, string>;
};

/**
 * prepareKafkaSecure makes, once per stack state, the broker's serving certificate (signed by the stack's CA) and
 * its user's random password, and writes the PEM keystore Kafka reads (private key, then the certificate).
 */
export async function prepareKafkaSecure(c: StackConfig): Promise<KafkaSecureFiles> {
  const dir = secureDir(c);
  mkdirSync(dir, { recursive: true });
  const pair = await ensureServingCert(c.dir, 'kafka');
  const keystore = join(dir, 'keystore.pem');
  writeFileSync(keystore, `${readFileSync(pair.key, 'utf8')}${readFileSync(pair.cert, 'utf8')}`, { mode: 0o600 });
  const endpoint = kafkaSecureEndpoint(c);
  const servicePasswords = new Map(SERVICES.map((s) => [s, passwordIn(endpoint.servicePasswordFiles[s])]));
  return { keystore, password: passwordIn(endpoint.passwordFile), servicePasswords };
}

/** passwordIn reads a password file, writing a random password into it first if there is none. */
function passwordIn(file: string): string {
  if (!existsSync(file)) writeFileSync(file, randomBytes(18).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8');
}

/**
 * secureListenerProperties are the server.properties lines of the SASL_SSL listener: TLS from the PEM keystore,
 * SCRAM users from the cluster metadata (scramFormatArgs), the PLAIN user from the listener's JAAS config.
 */
export function secureListenerProperties(files: KafkaSecureFiles): string[] {
  const prefix = 'listener.name.sasl_ssl';
  return [
    `${prefix}.sasl.enabled.mechanisms=${KAFKA_SECURE_MECHANISMS.join(',')}`,
    `${prefix}.ssl.keystore.type=PEM`,
    `${prefix}.ssl.keystore.location=${files.keystore}`,
    `${prefix}.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
    `${prefix}.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
    `${prefix}.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_${KAFKA_SECURE_USER}="${files.password}";`,
  ];
}

/**
 * authorizerProperties run KRaft's StandardAuthorizer: a principal may do only what an ACL allows it
 * (kafka-acls.ts), but for the super users: the operator, and ANONYMOUS, the principal of the PLAINTEXT and
 * controller listeners, which the stack binds to loopback for its own parts, tests and benchmarks.
 */
export function authorizerProperties(): string[] {
  return [
    'authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer',
    `super.users=User:ANONYMOUS;User:${KAFKA_SECURE_USER}`,
  ];
}

/** scramFormatArgs are kafka-storage format's `--add-scram` options: KRaft keeps SCRAM users in the cluster metadata. */
export function scramFormatArgs(files: KafkaSecureFiles): string[] {
  const users: [string, string][] = [[KAFKA_SECURE_USER, files.password], ...files.servicePasswords];
  return ['SCRAM-SHA-512', 'SCRAM-SHA-256'].flatMap((m) =>
    users.flatMap(([name, password]) => ['--add-scram', `${m}=[name=${name},password=${password}]`]),
  );
}
