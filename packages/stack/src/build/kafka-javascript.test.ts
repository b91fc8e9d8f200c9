import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { kafkaJavascriptBuildEnv } from './kafka-javascript.ts';

describe('kafkaJavascriptBuildEnv', () => {
  const env = kafkaJavascriptBuildEnv();

  it('builds librdkafka against the system libraries, not its own downloads', () => {
    assert.equal(env['CKJS_LINKING'], 'dynamic');
  });

  it("puts the running node first on the PATH, so node-gyp builds for this node's ABI", () => {
    assert.equal(env['PATH']?.split(':')[0], dirname(process.execPath));
  });

  it('names the headers of the running node (the npm package node ships them beside its binary)', () => {
    const dir = env['npm_config_nodedir'];
    assert.ok(dir, 'no headers found beside the running node');
    const header = readFileSync(join(dir, 'include', 'node', 'node_version.h'), 'utf8');
    const version = (name: string): string | undefined => header.match(new RegExp(`#define ${name} (\\d+)`))?.[1];
    const [major, minor, patch] = ['NODE_MAJOR_VERSION', 'NODE_MINOR_VERSION', 'NODE_PATCH_VERSION'].map(version);
    assert.equal(`v${major}.${minor}.${patch}`, process.version);
  });
});
