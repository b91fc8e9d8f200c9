import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StackConfig } from './config.ts';
import { java } from './kafka-java.ts';
import { firstKafkaNode, kafkaAddresses, kafkaNodes } from './kafka-nodes.ts';
import { selectedKafka, type KafkaRelease } from './kafka-versions.ts';
import type { Binaries } from './obtain-all.ts';
import { CommandError, sh } from './sh.ts';

/** UNRECORDED_VERSION formatted the stacks whose storage predates the version file: the only Kafka the stack ran then. */
const UNRECORDED_VERSION = '3.9.1';

/**
 * formattedBy is the release a node's storage is at: the one that formatted it, or the one an upgrade was last
 * finalized on (the `version` file beside the storage).
 */
export function formattedBy(nodeDir: string): string {
  const file = join(nodeDir, 'version');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : UNRECORDED_VERSION;
}

/** compareVersions orders two dotted versions numerically (3.9.1 < 4.4.0). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * assertFormattedBy passes a node's storage to the release starting on it when that release formatted it, or when it
 * is newer: Kafka's documented upgrade of a KRaft cluster (a newer broker runs on an older one's storage, at the older
 * one's metadata.version, until finalizeKafkaUpgrade raises it). An older release is refused, saying what to do: 3.9
 * knows no metadata.version past 3.9-IV0, and a storage at 4.4-IV2 cannot be downgraded.
 */
export function assertFormattedBy(nodeDir: string, release: KafkaRelease): void {
  const formatted = formattedBy(nodeDir);
  if (compareVersions(release.version, formatted) >= 0) return;
  throw new Error(
    `this stack's Kafka storage (${nodeDir}) was formatted by Kafka ${formatted}, not ${release.version}: ` +
      `run \`down --purge\` once to start it afresh on ${release.version}, or set KCM_BUS_KAFKA_VERSION=${formatted}`,
  );
}

/**
 * finalizeKafkaUpgrade ends an upgrade once every node runs the release: it raises the cluster's feature levels
 * (metadata.version among them) to the release's, as `kafka-features.sh upgrade --release-version X.Y` does, and
 * records the release beside each node's storage. Nothing is done where every node is at the release already. It
 * returns the version upgraded from, or undefined.
 */
export async function finalizeKafkaUpgrade(
  c: StackConfig,
  b: Binaries,
  release: KafkaRelease = selectedKafka(),
): Promise<string | undefined> {
  const behind = kafkaNodes(c)
    .map((node) => ({ node, at: formattedBy(node.dir) }))
    .filter((n) => n.at !== release.version);
  const from = behind[0]?.at;
  if (from === undefined) return undefined;
  const releaseVersion = release.version.split('.').slice(0, 2).join('.');
  const tool = java(b, release, firstKafkaNode(c).dir, 'org.apache.kafka.tools.FeatureCommand', [
    '--bootstrap-server',
    kafkaAddresses(c, 'client').join(','),
    'upgrade',
    '--release-version',
    releaseVersion,
  ]);
  await sh(tool.command, tool.args).catch((err: unknown) => {
    const output = err instanceof CommandError ? err.output.slice(-2000) : String(err);
    throw new Error(`finalizing Kafka's upgrade from ${from} to ${release.version} failed: ${output}`);
  });
  for (const { node } of behind) writeFileSync(join(node.dir, 'version'), `${release.version}\n`);
  return from;
}
