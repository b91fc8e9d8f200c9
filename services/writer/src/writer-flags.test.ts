import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flagReader, parseFlags } from '@kcm-bus/runtime/service/index.ts';
import { WRITER_FLAGS, writerConfig } from './writer-flags.ts';

const configOf = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  writerConfig(flagReader(parseFlags(WRITER_FLAGS, argv, env)));

describe('writerConfig', () => {
  it("given no flags, then kube-controller-manager's budget (20/30), the default allowlist, 32 in flight and creates expiring after 5m", () => {
    assert.deepEqual(configOf([]), {
      kubeconfig: null,
      budget: { qps: 20, burst: 30 },
      allowlistPath: null,
      concurrency: 32,
      maxCreateAgeMs: 300_000,
      serviceAccountKeyFile: '',
      rootCAFile: '',
    });
  });

  it("given upstream's flags and the environment, then they are read (flags first)", () => {
    const argv = ['--kube-api-qps=5', '--kube-api-burst', '5', '--allowlist=/etc/allow.json', '--root-ca-file=/ca.crt'];
    const config = configOf([...argv, '--service-account-private-key-file=/sa.key'], {
      KCM_BUS_CONCURRENCY: '4',
      KCM_BUS_KUBE_API_QPS: '99',
      KCM_BUS_MAX_CREATE_AGE: '90s',
    });
    assert.deepEqual(config, {
      kubeconfig: null,
      budget: { qps: 5, burst: 5 },
      allowlistPath: '/etc/allow.json',
      concurrency: 4,
      maxCreateAgeMs: 90_000,
      serviceAccountKeyFile: '/sa.key',
      rootCAFile: '/ca.crt',
    });
  });

  it('given a negative qps, then no client-side limit; given concurrency 0, then an error naming the flag', () => {
    assert.equal(configOf(['--kube-api-qps=-1']).budget.qps, Infinity);
    assert.throws(() => configOf(['--concurrency=0']), /--concurrency must be a positive integer/);
  });
});
