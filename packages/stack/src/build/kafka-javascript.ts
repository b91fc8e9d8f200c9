import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Recipe } from '../obtain.ts';
import { sh } from '../sh.ts';
import { VERSIONS } from '../versions.ts';

/** KAFKA_JAVASCRIPT is the npm package the recipe installs: Confluent's client for Node.js on librdkafka. */
export const KAFKA_JAVASCRIPT = '@confluentinc/kafka-javascript';

/**
 * kafkaJavascriptRecipe installs Confluent's librdkafka client into the cache for `npm run bench:client`; no service
 * depends on it. Its install fetches a prebuilt addon from GitHub, which this machine kind does not reach, and then
 * builds the librdkafka it bundles, by default downloading OpenSSL, zlib, zstd and curl to link in statically (also
 * unreachable). CKJS_LINKING=dynamic builds it against the system's OpenSSL and zlib instead (Debian's libssl-dev
 * and zlib1g-dev), and the addon is compiled against the headers of the Node.js that runs this (it is a nan addon,
 * bound to that Node.js's ABI), which the npm package `node` ships beside its binary.
 */
export const kafkaJavascriptRecipe: Recipe = {
  part: 'kafka-javascript',
  version: VERSIONS.kafkaJavascript,
  async build(dir, log) {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'kcm-bus-kafka-javascript', private: true }));
    const args = ['install', '--no-audit', '--no-fund', '--foreground-scripts'];
    await sh('npm', [...args, `${KAFKA_JAVASCRIPT}@${VERSIONS.kafkaJavascript}`], {
      cwd: dir,
      log,
      env: kafkaJavascriptBuildEnv(),
    });
  },
};

/** kafkaJavascriptBuildEnv puts this Node.js first on the PATH (node-gyp builds for the node it finds) and names its headers. */
export function kafkaJavascriptBuildEnv(): NodeJS.ProcessEnv {
  const bin = dirname(process.execPath);
  const home = nodeHeadersHome(dirname(bin));
  return {
    ...process.env,
    ...(home ? { npm_config_nodedir: home } : {}),
    PATH: `${bin}:${process.env['PATH'] ?? ''}`,
    CKJS_LINKING: 'dynamic',
  };
}

/**
 * nodeHeadersHome is the folder holding include/node of the running Node.js: its own prefix for a distribution, or
 * the platform package the npm package `node` installs beside it; undefined: node-gyp looks for them itself.
 */
function nodeHeadersHome(prefix: string): string | undefined {
  const candidates = [prefix, join(prefix, 'node_modules', `node-${process.platform}-${process.arch}`)];
  return candidates.find((home) => existsSync(join(home, 'include', 'node', 'node_api.h')));
}
