import { join } from 'node:path';
import { kafkaLogging } from './kafka-logging.ts';
import type { KafkaRelease } from './kafka-versions.ts';
import type { Binaries } from './obtain-all.ts';
import type { Launch } from './procs.ts';

/** java runs one of a Kafka release's main classes from its cached jars (b: where that release was obtained), logging as a node in `dir`. */
export function java(b: Binaries, release: KafkaRelease, dir: string, main: string, args: readonly string[]): Launch {
  const libs = join(b.dirs.get('kafka') ?? '', 'libs', '*');
  return {
    name: 'kafka',
    command: 'java',
    args: ['-Xms128m', '-Xmx512m', '-XX:+UseG1GC', kafkaLogging(release, dir).jvmFlag, '-cp', libs, main, ...args],
  };
}
