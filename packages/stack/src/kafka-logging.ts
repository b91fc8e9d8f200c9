import { join } from 'node:path';
import type { KafkaRelease } from './kafka-versions.ts';

/** KafkaLogging is the logging configuration a broker of one release reads: the file, its text, and the JVM flag naming it. */
export type KafkaLogging = { readonly file: string; readonly text: string; readonly jvmFlag: string };

/**
 * kafkaLogging is what a release's broker logs through, configured alike for both: INFO to stdout (the part's log),
 * the state-change logger at WARN (at INFO it writes a line per partition a topic's creation or a restart touches).
 * Kafka 3.x reads log4j 1.x properties through reload4j; Kafka 4 dropped log4j 1.x (KIP-653) and reads log4j2's.
 */
export function kafkaLogging(release: KafkaRelease, dir: string): KafkaLogging {
  if (release.logging === 'log4j') {
    const file = join(dir, 'log4j.properties');
    return { file, text: LOG4J, jvmFlag: `-Dlog4j.configuration=file:${file}` };
  }
  const file = join(dir, 'log4j2.properties');
  return { file, text: LOG4J2, jvmFlag: `-Dlog4j2.configurationFile=file:${file}` };
}

const PATTERN = '[%d] %p %m (%c)%n';

const LOG4J = [
  'log4j.rootLogger=INFO, stdout',
  'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
  'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
  `log4j.appender.stdout.layout.ConversionPattern=${PATTERN}`,
  'log4j.logger.kafka=INFO',
  'log4j.logger.org.apache.kafka=INFO',
  'log4j.logger.state.change.logger=WARN',
  '',
].join('\n');

const LOG4J2 = [
  'appender.stdout.type=Console',
  'appender.stdout.name=STDOUT',
  'appender.stdout.layout.type=PatternLayout',
  `appender.stdout.layout.pattern=${PATTERN}`,
  'rootLogger.level=INFO',
  'rootLogger.appenderRef.stdout.ref=STDOUT',
  'logger.kafka.name=kafka',
  'logger.kafka.level=INFO',
  'logger.apache.name=org.apache.kafka',
  'logger.apache.level=INFO',
  'logger.stateChange.name=state.change.logger',
  'logger.stateChange.level=WARN',
  '',
].join('\n');
