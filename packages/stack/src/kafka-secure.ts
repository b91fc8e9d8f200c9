import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { StackConfig } from './config.ts';
import { ensureServingCert, pkiDir } from './pki.ts';

/** KAFKA_SECURE_USER is the one user of the secure listener, for SCRAM and PLAIN alike. */
export const KAFKA_SECURE_USER = 'kcm-bus';

/** KAFKA_SECURE_MECHANISMS are the SASL mechanisms the secure listener offers, as Kafka spells them. */
export const KAFKA_SECURE_MECHANISMS = ['SCRAM-SHA-512', 'SCRAM-SHA-256', 'PLAIN'] as const;

/**
 * KafkaSecureEndpoint is the broker's SASL_SSL listener: its bootstrap, the CA that signed its certificate (the
 * stack's throwaway CA), and the credentials of its one user, the password in a file as a deployment keeps it.
 */
export type KafkaSecureEndpoint = {
  readonly bootstrap: string;
  readonly caFile: string;
  readonly username: string;
  readonly passwordFile: string;
  readonly mechanisms: readonly string[];
};

function secureDir(c: StackConfig): string {
  return join(c.dir, 'kafka', 'secure');
}

/** kafkaSecureEndpoint says where the secure listener is and how to log in. */
export function kafkaSecureEndpoint(c: StackConfig): KafkaSecureEndpoint {
  return {
    bootstrap: `${c.host}:${c.ports.kafkaSecure}`, caFile: join(pkiDir(c.dir), 'ca.crt'),
    username: KAFKA_SECURE_USER, passwordFile: join(secureDir(c), 'password'), mechanisms: KAFKA_SECURE_MECHANISMS,
  };
}

/** KafkaSecureFiles are what the broker's secure listener reads: its PEM keystore and the user's password. */
export type KafkaSecureFiles = { readonly keystore: string; readonly password: string };

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
  const passwordFile = kafkaSecureEndpoint(c).passwordFile;
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(18).toString('hex'), { mode: 0o600 });
  return { keystore, password: readFileSync(passwordFile, 'utf8') };
}

/**
 * secureListenerProperties are the server.properties lines of the SASL_SSL listener: TLS from the PEM keystore,
 * SCRAM users from the cluster metadata (scramFormatArgs), the PLAIN user from the listener's JAAS config.
 */
export function secureListenerProperties(files: KafkaSecureFiles): string[] {
  const prefix = 'listener.name.sasl_ssl';
  return [
    `${prefix}.sasl.enabled.mechanisms=${KAFKA_SECURE_MECHANISMS.join(',')}`,
    `${prefix}.ssl.keystore.type=PEM`, `${prefix}.ssl.keystore.location=${files.keystore}`,
    `${prefix}.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
    `${prefix}.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
    `${prefix}.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_${KAFKA_SECURE_USER}="${files.password}";`,
  ];
}

/** scramFormatArgs are kafka-storage format's `--add-scram` options: KRaft keeps SCRAM users in the cluster metadata. */
export function scramFormatArgs(files: KafkaSecureFiles): string[] {
  return ['SCRAM-SHA-512', 'SCRAM-SHA-256'].flatMap((m) => ['--add-scram', `${m}=[name=${KAFKA_SECURE_USER},password=${files.password}]`]);
}
