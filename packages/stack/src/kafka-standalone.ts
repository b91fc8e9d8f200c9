import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kafkaRecipeOf } from './build/kafka.ts';
import { stackConfig, type StackConfig } from './config.ts';
import { kafkaPart } from './kafka-part.ts';
import type { KafkaRelease } from './kafka-versions.ts';
import { obtain } from './obtain.ts';
import { ensurePki } from './pki.ts';
import { runningPid, stopProcess } from './procs.ts';
import { startPart } from './start.ts';

/** StandaloneKafka is a single KRaft node started beside the stack; stop() ends it (by pid) and removes its state. */
export type StandaloneKafka = {
  readonly version: string;
  readonly bootstrap: string;
  readonly dir: string;
  readonly pid: number;
  readonly stop: () => Promise<void>;
};

/**
 * startStandaloneKafka obtains a Kafka release (built into the cache the first time) and starts one node of it as the
 * stack starts its own (kafkaPart: the same server.properties, secure listener and ACLs), on free loopback ports with
 * a temporary state folder of its own: a test can prove the bus on a second release without touching the stack. A
 * start that fails stops what it started; a test process that exits without stop() still kills the broker.
 */
export async function startStandaloneKafka(
  release: KafkaRelease,
  say: (line: string) => void,
): Promise<StandaloneKafka> {
  const libs = await obtain(kafkaRecipeOf(release), say);
  const c = await standaloneConfig(release);
  // 'exit' handlers run synchronously: no stopProcess there, but a SIGKILL to the broker's process group by its pid file.
  const killAtExit = (): void => {
    const pid = runningPid(c.dir, 'kafka');
    if (pid !== undefined) process.kill(-pid, 'SIGKILL');
  };
  process.once('exit', killAtExit);
  const stop = async (): Promise<void> => {
    process.off('exit', killAtExit);
    await stopProcess(c.dir, 'kafka');
    rmSync(c.dir, { recursive: true, force: true });
  };
  try {
    await ensurePki(c.dir);
    const part = kafkaPart(c, { dirs: new Map([['kafka', libs]]), redisServer: '' }, release);
    await startPart(c, part, (line) => say(`kafka ${release.version}: ${line}`));
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    version: release.version,
    bootstrap: `${c.host}:${c.ports.kafka}`,
    dir: c.dir,
    pid: runningPid(c.dir, 'kafka') ?? 0,
    stop,
  };
}

/** standaloneConfig is a stack configuration for Kafka alone: a temporary state folder and three ports the kernel gave. */
async function standaloneConfig(release: KafkaRelease): Promise<StackConfig> {
  const [kafka, controller, secure] = await freePorts(3);
  return stackConfig(`kafka-${release.version}`, {
    KCM_BUS_RUN_DIR: mkdtempSync(join(tmpdir(), `kcm-bus-kafka-${release.version}-`)),
    KCM_BUS_PORT_KAFKA: String(kafka),
    KCM_BUS_PORT_KAFKA_CONTROLLER: String(controller),
    KCM_BUS_PORT_KAFKA_SECURE: String(secure),
  });
}

/** freePorts are n distinct ports nothing listens on now: all are held open together, so the kernel repeats none. */
async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Server>((done) => {
          const server = createServer();
          server.listen(0, '127.0.0.1', () => done(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise<void>((done) => s.close(() => done()))));
  return ports;
}
