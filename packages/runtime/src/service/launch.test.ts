import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SERVICE_MALLOC_ENV, SERVICE_NODE_ARGS, serviceLaunch } from './launch.ts';

describe('serviceLaunch', () => {
  it("runs the script with this process's node, node's flags before it and the arguments after it", () => {
    const launch = serviceLaunch('services/writer/src/main.ts', ['--kubeconfig', 'k']);
    assert.equal(launch.command, process.execPath);
    assert.deepEqual(launch.args, [...SERVICE_NODE_ARGS, 'services/writer/src/main.ts', '--kubeconfig', 'k']);
  });

  it("keeps the caller's environment and sets glibc's malloc thresholds over it", () => {
    const launch = serviceLaunch('main.ts', [], { KCM_BUS_X: 'kept', MALLOC_TRIM_THRESHOLD_: '1' });
    assert.equal(launch.env['KCM_BUS_X'], 'kept');
    for (const [name, value] of Object.entries(SERVICE_MALLOC_ENV)) assert.equal(launch.env[name], value);
  });
});
