/**
 * The layering rule, checked by the test command (see docs/design.md#tests; test/unit/layers.test.ts proves each rule
 * fires):
 * - packages in order: schemas imports no workspace; runtime imports schemas (and knows no controller by name: the
 *   catalog is the application's); k8s imports runtime and schemas; the catalog imports runtime, k8s and schemas;
 *   services import runtime, k8s, the catalog and schemas; tools import runtime, the catalog and schemas; the stack
 *   imports runtime, the catalog, tools and schemas; the harness (what drives a running stack from outside, for tests
 *   and benchmarks) imports runtime, the catalog, the stack and schemas;
 *   test imports any;
 * - the bench drives the system from outside (the stack, the services' commands as processes, the topics): it imports
 *   packages and schemas, never services/* or test/*; and nothing outside bench/ imports bench/;
 * - services never import each other;
 * - pure modules (every module of schemas, packages/runtime, packages/k8s, packages/catalog and services/* except adapters
 *   `*.<impl>.ts`, `main.ts` and tests) import no kafkajs, ioredis, avsc, client-node, prom-client or node I/O;
 * - only the watcher and the writer import @kubernetes/client-node (and schemas' dev tools, `*.kube.ts`);
 * - only the bus adapter (packages/runtime/src/bus/*.kafka.ts) imports kafkajs;
 * - outside packages/runtime, a runtime area is reached only through its entry (src/<area>/index.ts), an adapter, a
 *   fixture or a contract; the controller side (runtime/src/controller) imports nothing of the consumer side, the bus,
 *   replay or the reconciler service; the consumer side reaches a controller only through controller-types.ts;
 * - schemas/generator is a dev tool: no module of packages or services (tests and fixtures aside, like test/ and
 *   bench/) and nothing of the wire model (schemas/avro, which the generator and the runtime's codec both import)
 *   reaches it, even indirectly.
 */
const PURE =
  '^(schemas|packages/(runtime|k8s|catalog)|services/[^/]+)/.*(?<!\\.(kafka|redis|kube|avro|prom|http|node|fs|test))\\.ts$';
const IO = '^(node:)?(fs|fs/promises|net|http|https|http2|tls|dgram|dns|child_process|cluster|worker_threads)$';

/** LAYERS name, for each workspace folder, the workspace folders it may import besides itself. */
const LAYERS = {
  schemas: [],
  'packages/runtime': ['schemas'],
  'packages/k8s': ['packages/runtime', 'schemas'],
  'packages/catalog': ['packages/runtime', 'packages/k8s', 'schemas'],
  'packages/tools': ['packages/runtime', 'packages/catalog', 'schemas'],
  'packages/stack': ['packages/runtime', 'packages/catalog', 'packages/tools', 'schemas'],
  'packages/harness': ['packages/runtime', 'packages/catalog', 'packages/stack', 'schemas'],
  'services/[^/]+': ['packages/runtime', 'packages/k8s', 'packages/catalog', 'schemas'],
};

const packagesInOrder = Object.entries(LAYERS).map(([from, allowed]) => ({
  name: 'packages-in-order',
  comment: `${from} may import ${allowed.join(', ') || 'no other workspace'}: the packages form layers without a cycle.`,
  severity: 'error',
  from: { path: `^${from}/` },
  to: { path: '^(schemas|packages/[^/]+|services/[^/]+|test)/', pathNot: `^(${[from, ...allowed].join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...packagesInOrder,
    {
      name: 'bench-drives-from-outside',
      comment:
        "bench/ drives the system from outside: the stack, the services' commands (spawned processes), the topics. It imports packages and schemas, never a service's or the tests' modules (what both it and the tests need lives in packages/harness).",
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^(services|test)/' },
    },
    {
      name: 'nothing-imports-bench',
      comment: 'The benchmarks are a leaf: no package, service, schema or test imports bench/.',
      severity: 'error',
      from: { pathNot: '^bench/' },
      to: { path: '^bench/' },
    },
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
      to: { path: `(^|/)node_modules/(kafkajs|ioredis|avsc|@kubernetes/client-node|prom-client)/|${IO}` },
    },
    {
      name: 'only-watcher-and-writer-use-the-api',
      comment:
        "Only the watcher reads the API and only the writer writes it; reconcilers hold no API client (schemas' *.kube.ts are dev tools).",
      severity: 'error',
      from: { path: '^(packages/(runtime|k8s|tools)/|services/(?!watcher/|writer/)|schemas/(?!.*\\.kube\\.ts$))' },
      to: { path: '(^|/)node_modules/@kubernetes/client-node/' },
    },
    {
      name: 'only-the-bus-adapter-uses-kafkajs',
      comment:
        'kafkajs is constructed and called only in the bus adapter (packages/runtime/src/bus/*.kafka.ts), so another client touches that folder only.',
      severity: 'error',
      from: { pathNot: '^packages/runtime/src/bus/.*\\.kafka(\\.test)?\\.ts$' },
      to: { path: '(^|/)node_modules/kafkajs/' },
    },
    {
      name: 'runtime-through-its-entries',
      comment:
        "Outside packages/runtime, a runtime area is reached through its public entry (src/<area>/index.ts), an adapter (*.<impl>.ts), a fixture or a contract: the modules behind an entry are the area's own.",
      severity: 'error',
      from: { pathNot: '^packages/runtime/' },
      to: {
        path: '^packages/runtime/src/[^/]+/',
        pathNot: '/(index|[^/]+\\.(kafka|redis|kube|avro|prom|http|node|fs|fixture|contract))\\.ts$',
      },
    },
    {
      name: 'controller-side-knows-no-consumer',
      comment:
        'The controller side (per-key state, workqueue use, expectations, read your writes, informers) knows nothing of how records reach it: no consumer group, bus, replay or service wiring.',
      severity: 'error',
      from: { path: '^packages/runtime/src/controller/' },
      to: { path: '^packages/runtime/src/(consumer|bus|reconciler|replay)/' },
    },
    {
      name: 'consumer-feeds-controllers-through-their-port',
      comment:
        'The consumer side (group membership, restore, readers, routing) reaches a controller through its port alone (ControllerFeed and the event types in controller/controller-types.ts).',
      severity: 'error',
      from: { path: '^packages/runtime/src/consumer/' },
      to: { path: '^packages/runtime/src/controller/', pathNot: '/controller-types\\.ts$' },
    },
    {
      name: 'the-generator-is-a-dev-tool',
      comment:
        "schemas/generator turns the apiserver's OpenAPI into the wire model (schemas/avro) at development time; what runs reads that model and the committed schemas. So no module of packages or services (tests and their fixtures aside, like test/ and bench/) and nothing of the wire model reaches schemas/generator, even through another module.",
      severity: 'error',
      from: { path: '^(packages/[^/]+|services/[^/]+|schemas/avro)/', pathNot: '\\.(test|fixture)\\.ts$' },
      to: { path: '^schemas/generator/', reachable: true },
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
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js'],
    },
  },
};
