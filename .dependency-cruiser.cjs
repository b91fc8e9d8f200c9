/**
 * The layering rule, checked by the test command (see README "Layers"):
 * - services never import each other;
 * - pure modules (every module of packages/runtime and services/* except adapters `*.<impl>.ts`,
 *   `main.ts` and tests) import no kafkajs, ioredis, avsc, client-node, prom-client or node I/O;
 * - only the watcher and the writer import @kubernetes/client-node;
 * - only the bus adapter (`*.kafka.ts`) imports kafkajs.
 */
const PURE = '^(packages/runtime|services/[^/]+|schemas)/.*(?<!\\.(kafka|redis|kube|avro|prom|http|node|fs|test))\\.ts$';
const IO = '^(node:)?(fs|fs/promises|net|http|https|http2|tls|dgram|dns|child_process|cluster|worker_threads)$';

module.exports = {
  forbidden: [
    {
      name: 'services-are-independent',
      comment: 'A service never imports another service: they talk only through Kafka.',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/([^/]+)/', pathNot: '^services/$1/' },
    },
    {
      name: 'pure-modules-do-no-io',
      comment: 'Pure modules take their inputs as values; I/O lives in adapters named <port>.<impl>.ts and in main.ts.',
      severity: 'error',
      from: { path: PURE, pathNot: '/(main|index)\\.ts$' },
      to: { dependencyTypes: ['npm', 'core'], path: `(^|/)node_modules/(kafkajs|ioredis|avsc|@kubernetes/client-node|prom-client)/|${IO}` },
    },
    {
      name: 'only-watcher-and-writer-use-the-api',
      comment: 'Only the watcher reads the API and only the writer writes it; reconcilers hold no API client.',
      severity: 'error',
      from: { path: '^(packages/runtime|services/(?!watcher/|writer/))' },
      to: { path: '(^|/)node_modules/@kubernetes/client-node/' },
    },
    {
      name: 'only-the-bus-adapter-uses-kafkajs',
      comment: 'kafkajs is constructed and called only in the bus adapter (*.kafka.ts).',
      severity: 'error',
      from: { pathNot: '\\.kafka(\\.test)?\\.ts$' },
      to: { path: '(^|/)node_modules/kafkajs/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
