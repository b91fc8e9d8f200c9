import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SERVICE_MALLOC_ENV, SERVICE_NODE_ARGS } from '@kcm-bus/runtime/service/index.ts';
import { dockerfileSections, type Workspace } from './dockerfile-sections.ts';

const WORKSPACES: readonly Workspace[] = [
  { dir: 'test', name: '@x/test', dependencies: ['@x/stack', 'yaml'] },
  { dir: 'services/api', name: '@x/api', dependencies: ['@x/runtime', 'kafkajs'] },
  { dir: 'packages/stack', name: '@x/stack', dependencies: ['@x/runtime'] },
  { dir: 'packages/runtime', name: '@x/runtime', dependencies: ['@x/schemas'] },
  { dir: 'schemas', name: '@x/schemas', dependencies: [] },
];

describe("dockerfileSections: a service's Dockerfile COPY lines, malloc's environment and its command", () => {
  it("given the workspaces, then every workspace's package.json is copied, sorted (npm ci checks each against the lockfile)", () => {
    assert.deepEqual(dockerfileSections('api', WORKSPACES)['workspace-manifests'], [
      'COPY packages/runtime/package.json packages/runtime/',
      'COPY packages/stack/package.json packages/stack/',
      'COPY schemas/package.json schemas/',
      'COPY services/api/package.json services/api/',
      'COPY test/package.json test/',
    ]);
  });

  it('given a service, then the sources copied are its own and those of the workspaces it depends on, transitively', () => {
    assert.deepEqual(dockerfileSections('api', WORKSPACES)['workspace-sources'], [
      'COPY packages/runtime packages/runtime',
      'COPY schemas schemas',
      'COPY services/api services/api',
    ]);
  });

  it("given a service, then its ENV sets malloc's settings and its CMD runs its main script with node's flags, as serviceLaunch does", () => {
    const sections = dockerfileSections('api', WORKSPACES);
    assert.deepEqual(sections['malloc-env'], [
      `ENV ${Object.entries(SERVICE_MALLOC_ENV)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ')}`,
    ]);
    assert.equal(sections['command']?.length, 1);
    const command = JSON.parse(/^CMD (\[.*\])$/.exec(sections['command']?.[0] ?? '')?.[1] ?? 'null') as unknown;
    assert.deepEqual(command, ['node', ...SERVICE_NODE_ARGS, 'services/api/src/main.ts']);
  });
});
