import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatAge, formatLagTable, lagReport, serviceOfGroup, type LagInputs } from './lag-table.ts';

const NOW = Date.parse('2025-01-01T00:00:10Z');

/** inputs: reconciler-rc committed on two pod partitions and a results partition, with ends and watermarks. */
const inputs: LagInputs = {
  groups: [
    {
      groupId: 'kcm-bus-reconciler-rc',
      state: 'Stable',
      members: 1,
      partitions: [
        { topic: 'kcm.watch.pods', partition: 1, committed: '40' },
        { topic: 'kcm.watch.pods', partition: 0, committed: '100' },
        { topic: 'kcm.mutation-results', partition: 0, committed: '7' },
        { topic: 'kcm.mutation-results', partition: 1, committed: undefined },
        { topic: 'kcm.state.pods', partition: 0, committed: '5' },
      ],
    },
    { groupId: 'kcm-bus-read-0b6c', state: 'Stable', members: 1, partitions: [] },
    {
      groupId: 'someone-else',
      state: 'Empty',
      members: 0,
      partitions: [{ topic: 'orders', partition: 0, committed: '1' }],
    },
  ],
  ends: new Map([
    ['kcm.state.pods/0', '90'],
    ['kcm.watch.pods/0', '100'],
    ['kcm.watch.pods/1', '52'],
    ['kcm.mutation-results/0', '7'],
    ['kcm.mutation-results/1', '3'],
  ]),
  watermarks: new Map([
    ['kcm.watch.pods/0', NOW - 400],
    ['kcm.watch.pods/1', NOW - 2500],
    ['kcm.mutation-results/0', NOW - 1],
  ]),
};

describe('lag', () => {
  it("given a service group, a throwaway reader and a foreign group, when reported, then only the service is, with each partition's lag and watermark age", () => {
    const [rc, ...rest] = lagReport(inputs, NOW);
    assert.equal(rest.length, 0);
    assert.equal(rc?.service, 'reconciler-rc');
    assert.equal(rc?.totalLag, 12);
    assert.deepEqual(
      rc?.partitions.map((p) => [p.topic, p.partition, p.lag, p.watermarkAgeMs]),
      [
        ['kcm.mutation-results', 0, 0, null],
        ['kcm.mutation-results', 1, null, null],
        ['kcm.state.pods', 0, null, null],
        ['kcm.watch.pods', 0, 0, 400],
        ['kcm.watch.pods', 1, 12, 2500],
      ],
      'a state topic is read only to restore: no lag, whatever was committed there',
    );
  });

  it('given --group, when reported, then the groups it prefixes are, kcm-bus or not', () => {
    assert.deepEqual(
      lagReport(inputs, NOW, 'someone').map((g) => [g.service, g.totalLag]),
      [['someone-else', 0]],
    );
  });

  it('given a partition without a watermark or an end, when reported, then its age is null and its lag 0 (null without a commit)', () => {
    const [rc] = lagReport({ ...inputs, ends: new Map(), watermarks: new Map() }, NOW);
    assert.ok(
      rc?.partitions
        .filter((p) => !p.topic.startsWith('kcm.state.'))
        .every(
          (p) =>
            p.watermarkAgeMs === null && (p.committed === null ? p.lag === null : p.lag === 0 && p.end === p.committed),
        ),
    );
  });

  it('names the service of every kind of kcm-bus group', () => {
    assert.equal(serviceOfGroup('kcm-bus-writer'), 'writer');
    assert.equal(serviceOfGroup('kcm-bus-reconciler-node.noexec_taint_pod'), 'reconciler-node');
    assert.equal(serviceOfGroup('kcm-bus-reconciler-node.node_lifecycle_controller.global.5f0e'), 'reconciler-node');
    assert.equal(serviceOfGroup('kcm-bus-tail-5f0e'), undefined);
    assert.equal(serviceOfGroup('other'), undefined);
  });

  it('prints a line per group and aligned columns per partition', () => {
    const text = formatLagTable(lagReport(inputs, NOW));
    assert.deepEqual(text.split('\n'), [
      'reconciler-rc  kcm-bus-reconciler-rc  Stable, 1 member, lag 12',
      '  TOPIC                 PARTITION  COMMITTED  END  LAG  WATERMARK AGE',
      '  kcm.mutation-results  0          7          7    0    -',
      '  kcm.mutation-results  1          -          3    -    -',
      '  kcm.state.pods        0          5          90   -    -',
      '  kcm.watch.pods        0          100        100  0    0.4s',
      '  kcm.watch.pods        1          40         52   12   2.5s',
    ]);
    assert.equal(formatLagTable([]), 'no kcm-bus consumer groups');
    assert.equal(formatAge(61_234), '61.2s');
  });
});
