/**
 * `npm run test:kafka-upgrade`: Kafka upgraded under kcm-bus with its data kept (issue 47 item 4), on a stack of its
 * own (profile "kafka-upgrade", ports 17800+). The stack's Kafka starts on 3.9.1, every service runs and an RC makes
 * its pods; the services and the broker are stopped, the broker starts on 4.4.0 over the same data directory and the
 * upgrade is finalized (kafka-features upgrade --release-version 4.4), and the services start again. Then: no
 * mutation is applied again (the writer's count of applied creates is the scale-up's alone), the pods made before are
 * the same pods, the RC still scales, and trace explains a pod created before the upgrade from the records 3.9.1 wrote.
 * Not in `npm test`: two Kafka starts and a whole stack of its own cost about three minutes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rawKube } from '@kcm-bus/harness/kube.ts';
import { parseMetrics } from '@kcm-bus/harness/metrics-text.ts';
import { rcClient, rcManifest } from '@kcm-bus/harness/rc.ts';
import { waitFor } from '@kcm-bus/harness/wait.ts';
import { say } from '@kcm-bus/stack/cli.ts';
import { stackConfig } from '@kcm-bus/stack/config.ts';
import type { StackEndpoints } from '@kcm-bus/stack/endpoints.ts';
import { formattedBy } from '@kcm-bus/stack/kafka-upgrade.ts';
import { kafkaRelease } from '@kcm-bus/stack/kafka-versions.ts';
import { stopProcess } from '@kcm-bus/stack/procs.ts';
import { serviceParts } from '@kcm-bus/stack/services.ts';
import { down, up } from '@kcm-bus/stack/stack.ts';
import { startPart } from '@kcm-bus/stack/start.ts';
import { podTrace } from '../support/trace.ts';

const FROM = kafkaRelease('3.9.1');
const TO = kafkaRelease('4.4.0');
const c = stackConfig('kafka-upgrade', { ...process.env, KCM_BUS_PORT_BASE: '17800', KCM_BUS_NODES: '1' });
const log = say();
const ns = 'upgrade';

/** onKafka brings the stack up on a Kafka release (the one KCM_BUS_KAFKA_VERSION picks) with every service. */
async function onKafka(version: string): Promise<StackEndpoints> {
  process.env['KCM_BUS_KAFKA_VERSION'] = version;
  const e = await up(c, log);
  for (const part of serviceParts(c, e)) await startPart(c, part, log);
  return e;
}

/** stopBus stops every service and the broker (SIGTERM: a controlled shutdown), leaving the data and the rest up. */
async function stopBus(e: StackEndpoints): Promise<void> {
  for (const part of serviceParts(c, e)) await stopProcess(c.dir, part.name);
  await stopProcess(c.dir, 'kafka');
}

/** appliedCreates reads the writer's count of pod creates applied for replicationcontroller-controller. */
async function appliedCreates(): Promise<number> {
  const page = await (await fetch(`http://${c.host}:${c.ports.writer}/metrics`)).text();
  const created = { controller: 'replicationcontroller-controller', verb: 'Create', outcome: 'Applied' };
  return parseMetrics(page)('kcm_bus_writer_mutations_total', created);
}

describe(`Kafka ${FROM.version} → ${TO.version} with its data kept, under a running kcm-bus`, () => {
  let kube: ReturnType<typeof rawKube>;
  let e: StackEndpoints;
  let before20: string[] = [];

  before(async () => {
    await down(c, { purge: true });
    e = await onKafka(FROM.version);
    kube = rawKube(join(c.dir, 'endpoints.json'));
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    await kube('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rcManifest('web', 20));
    before20 = (await rcClient(kube, ns).running('web', 20)).map((p) => p.metadata.name);
    assert.equal(formattedBy(join(c.dir, 'kafka')), FROM.version);
    await stopBus(e);
    e = await onKafka(TO.version);
  });
  after(async () => {
    delete process.env['KCM_BUS_KAFKA_VERSION'];
    await down(c, { purge: true });
  });

  it(`finalizes the upgrade: the storage is at ${TO.version}`, () => {
    assert.equal(formattedBy(join(c.dir, 'kafka')), TO.version);
  });

  it('resumes from the committed offsets: the pods made before are kept, none is made again, and the RC still scales', async () => {
    const { pods, scale, running } = rcClient(kube, ns);
    assert.deepEqual((await pods('web')).map((p) => p.metadata.name).sort(), [...before20].sort());
    await scale('web', 25);
    const after25 = (await running('web', 25)).map((p) => p.metadata.name);
    assert.ok(
      before20.every((uid) => after25.includes(uid)),
      'every pod made on 3.9.1 is still there',
    );
    assert.equal(
      await waitFor('the writer to count its creates', async () => (await appliedCreates()) || undefined),
      5,
    );
  });

  it('trace explains a pod created before the upgrade, from the records Kafka 3.9.1 wrote', async () => {
    const name = before20[0];
    assert.ok(name);
    const steps = await podTrace(e, `${ns}/${name}`, 'kcm-bus-upgrade-trace');
    const create = steps.find((s) => s.verb === 'Create');
    assert.equal(create?.controller, 'replicationcontroller-controller', JSON.stringify(steps));
    assert.ok(create?.result, 'its result is on the topics too');
  });
});
