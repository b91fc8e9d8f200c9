import type { KafkaSasl, KafkaSaslMechanism, KafkaTls } from '../bus/bus.kafka.ts';
import type { RegistryClientOptions } from '../registry/registry.http.ts';
import { envName, FlagError, type FlagReader, type FlagSpec } from './flags.ts';

/**
 * KAFKA_SECURITY_FLAGS reach a secured Kafka and schema registry (Confluent Cloud, MSK, any SASL_SSL cluster).
 * Secrets are read from files, so they are on no command line; each password may also come from its variable.
 */
export const KAFKA_SECURITY_FLAGS: readonly FlagSpec[] = [
  {
    name: 'kafka-tls',
    type: 'boolean',
    default: false,
    help: 'Speak TLS to the brokers (security.protocol SSL, or SASL_SSL with --kafka-sasl-mechanism).',
  },
  {
    name: 'kafka-tls-ca-file',
    type: 'string',
    default: '',
    help: "PEM CA bundle the brokers' certificates must chain to (default: Node's public CAs).",
  },
  {
    name: 'kafka-tls-cert-file',
    type: 'string',
    default: '',
    help: 'PEM client certificate for mutual TLS (with --kafka-tls-key-file).',
  },
  { name: 'kafka-tls-key-file', type: 'string', default: '', help: 'PEM private key of --kafka-tls-cert-file.' },
  {
    name: 'kafka-tls-insecure-skip-verify',
    type: 'boolean',
    default: false,
    help: 'Accept any broker certificate (for tests: whoever sits in the path reads and writes the bus).',
  },
  {
    name: 'kafka-sasl-mechanism',
    type: 'string',
    default: '',
    help: 'SASL mechanism: plain, scram-sha-256 or scram-sha-512 (empty: no SASL).',
  },
  { name: 'kafka-sasl-username', type: 'string', default: '', help: 'SASL user name (Confluent Cloud: the API key).' },
  {
    name: 'kafka-sasl-password-file',
    type: 'string',
    default: '',
    help: 'File holding the SASL password, a trailing newline ignored (or the variable KCM_BUS_KAFKA_SASL_PASSWORD).',
  },
  {
    name: 'schema-registry-username',
    type: 'string',
    default: '',
    help: 'HTTP basic auth user of the schema registry (Confluent Cloud: the registry API key).',
  },
  {
    name: 'schema-registry-password-file',
    type: 'string',
    default: '',
    help: 'File holding the registry password (or the variable KCM_BUS_SCHEMA_REGISTRY_PASSWORD).',
  },
  {
    name: 'schema-registry-ca-file',
    type: 'string',
    default: '',
    help: "PEM CA bundle an https:// registry's certificate must chain to (default: Node's public CAs).",
  },
];

/** KafkaSecurity is how a client reaches the bus: kafkajs's ssl and sasl options, and the registry client's. */
export type KafkaSecurity = {
  readonly kafka: { readonly ssl?: KafkaTls; readonly sasl?: KafkaSasl };
  readonly registry: RegistryClientOptions;
};

/** ReadFile reads a whole text file (readFileSync's utf8 form), injected so this module stays pure. */
export type ReadFile = (path: string) => string;

const MECHANISMS: readonly KafkaSaslMechanism[] = ['plain', 'scram-sha-256', 'scram-sha-512'];

/**
 * kafkaSecurity builds the bus's and the registry's connection security from the KAFKA_SECURITY_FLAGS, reading the
 * files they name. A wrong or partial setting fails with a FlagError naming the flag, never falls back to plaintext.
 */
export function kafkaSecurity(
  flags: FlagReader,
  registryUrl: string,
  env: NodeJS.ProcessEnv,
  read: ReadFile,
): KafkaSecurity {
  const ssl = kafkaTls(flags, read);
  const sasl = kafkaSasl(flags, env, read);
  return {
    kafka: { ...(ssl ? { ssl } : {}), ...(sasl ? { sasl } : {}) },
    registry: registryOptions(flags, registryUrl, env, read),
  };
}

/** TLS_FILES are the PEM files of a TLS connection: the CA, then the client certificate and key of mutual TLS. */
const TLS_FILES = ['kafka-tls-ca-file', 'kafka-tls-cert-file', 'kafka-tls-key-file'] as const;

function kafkaTls(flags: FlagReader, read: ReadFile): KafkaTls | undefined {
  const skip = flags.boolean('kafka-tls-insecure-skip-verify');
  if (!flags.boolean('kafka-tls')) {
    const stray = [
      ...TLS_FILES.filter((f) => flags.string(f) !== ''),
      ...(skip ? ['kafka-tls-insecure-skip-verify'] : []),
    ][0];
    if (stray) throw flagError(stray, 'is set but --kafka-tls is not: the connection would be plaintext');
    return undefined;
  }
  const [ca, cert, key] = TLS_FILES.map((f) => (flags.string(f) === '' ? undefined : fileOf(flags, f, read)));
  if ((cert === undefined) !== (key === undefined)) {
    throw flagError(
      cert === undefined ? 'kafka-tls-cert-file' : 'kafka-tls-key-file',
      'is missing: mutual TLS needs the certificate and its key',
    );
  }
  return { ...(ca === undefined ? {} : { ca }), ...(cert && key ? { cert, key } : {}), rejectUnauthorized: !skip };
}

function kafkaSasl(flags: FlagReader, env: NodeJS.ProcessEnv, read: ReadFile): KafkaSasl | undefined {
  const given = flags.string('kafka-sasl-mechanism').toLowerCase();
  if (given === '') {
    const stray = ['kafka-sasl-username', 'kafka-sasl-password-file'].find((f) => flags.string(f) !== '');
    if (stray) throw flagError(stray, 'is set but --kafka-sasl-mechanism is not');
    return undefined;
  }
  const mechanism = MECHANISMS.find((m) => m === given);
  if (!mechanism)
    throw flagError('kafka-sasl-mechanism', `${JSON.stringify(given)} is not one of ${MECHANISMS.join(', ')}`);
  const username = flags.string('kafka-sasl-username');
  if (username === '') throw flagError('kafka-sasl-username', `is needed with --kafka-sasl-mechanism ${mechanism}`);
  return {
    mechanism,
    username,
    password: secretOf(flags, 'kafka-sasl-password-file', 'KCM_BUS_KAFKA_SASL_PASSWORD', env, read),
  };
}

function registryOptions(
  flags: FlagReader,
  url: string,
  env: NodeJS.ProcessEnv,
  read: ReadFile,
): RegistryClientOptions {
  const username = flags.string('schema-registry-username');
  const hasPassword =
    flags.string('schema-registry-password-file') !== '' || env['KCM_BUS_SCHEMA_REGISTRY_PASSWORD'] !== undefined;
  if (username === '' && hasPassword) throw flagError('schema-registry-username', 'is needed with a registry password');
  const ca = flags.string('schema-registry-ca-file');
  if (ca !== '' && !url.startsWith('https://'))
    throw flagError('schema-registry-ca-file', `is set but the registry URL ${url} is not https://`);
  return {
    ...(username === ''
      ? {}
      : {
          basicAuth: {
            username,
            password: secretOf(flags, 'schema-registry-password-file', 'KCM_BUS_SCHEMA_REGISTRY_PASSWORD', env, read),
          },
        }),
    ...(ca === '' ? {} : { ca: fileOf(flags, 'schema-registry-ca-file', read) }),
  };
}

/** secretOf reads a password from its file flag or else its variable; exactly one of them, and not empty. */
function secretOf(
  flags: FlagReader,
  fileFlag: string,
  variable: string,
  env: NodeJS.ProcessEnv,
  read: ReadFile,
): string {
  const fromEnv = env[variable];
  const hasFile = flags.string(fileFlag) !== '';
  if (hasFile && fromEnv !== undefined)
    throw flagError(fileFlag, `and ${variable} are both set: give the password once`);
  if (!hasFile && fromEnv === undefined) throw flagError(fileFlag, `is needed (or ${variable})`);
  const secret = hasFile ? fileOf(flags, fileFlag, read).replace(/\r?\n$/, '') : (fromEnv ?? '');
  if (secret === '') throw flagError(fileFlag, hasFile ? `${flags.string(fileFlag)} is empty` : `${variable} is empty`);
  return secret;
}

function fileOf(flags: FlagReader, flag: string, read: ReadFile): string {
  const path = flags.string(flag);
  try {
    return read(path);
  } catch (err) {
    throw flagError(flag, `cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function flagError(flag: string, problem: string): FlagError {
  return new FlagError(`--${flag} (${envName(flag)}) ${problem}`);
}
