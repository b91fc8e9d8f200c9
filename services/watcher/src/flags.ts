import { cutKinds } from '@kcm-bus/catalog/controllers.ts';
import type { FlagSpec } from '@kcm-bus/runtime/service/index.ts';
import { WATCHED_KINDS } from '@kcm-bus/schemas/kinds.ts';

/** WATCHER_FLAGS are the watcher's own flags (client-go reflector names where it has them). */
export const WATCHER_FLAGS: readonly FlagSpec[] = [
  {
    name: 'kubeconfig',
    type: 'string',
    default: '',
    help: 'Kubeconfig with list/watch rights (default: $KUBECONFIG).',
  },
  { name: 'kinds', type: 'list', default: WATCHED_KINDS.map((k) => k.plural), help: 'Kinds to watch, by plural.' },
  {
    name: 'partitions',
    type: 'number',
    default: 6,
    help: 'Partitions of a watch topic the watcher creates (an existing topic keeps its count).',
  },
  {
    name: 'audit-window-seconds',
    type: 'number',
    default: 86_400,
    help: 'retention.ms of the history topics (kcm.watch.*): every record this young stays readable, in order, for replay, trace and audit.',
  },
  {
    name: 'watermark-interval-ms',
    type: 'number',
    default: 1000,
    help: 'The least time between two watermarks of a kind (a record to every partition saying the kind is complete up to its time) while the watched kinds change; a change after a quiet spell is marked at once.',
  },
  {
    name: 'watermark-idle-interval-ms',
    type: 'number',
    default: 5000,
    help: "How often a kind's watermark goes out while none of the watched kinds changes: how old an idle input may look to a consumer (plus transit). Keep it well under reconciler-node's --max-input-staleness (20 s).",
  },
  {
    name: 'watermark-quiet-kinds',
    type: 'list',
    default: ['leases', 'nodes'],
    help: 'Kinds whose changes do not hasten the watermarks (by plural): no controller reads them beside other kinds at a cut (node lifecycle reads Nodes and Leases whole, for freshness only), and every Lease renewal would keep every kind at the busy pace.',
  },
  {
    name: 'watermark-prompt-kinds',
    type: 'list',
    default: cutKinds(),
    help: "Kinds whose creations bring every kind's watermark at once, also while changes go on (by plural; default: the kinds whose new objects the catalog's controllers sync at a cut, newAtCut): a controller syncs a new object of them at a cut (reconciler-rc an RC, a ReplicaSet or a Deployment, reconciler-endpoint a Service), once the other kinds are known complete up to its creation, so the cut waits about one poll (at most 100 ms), not up to --watermark-interval-ms.",
  },
  {
    name: 'publish-linger-kinds',
    type: 'list',
    default: ['leases'],
    help: "Kinds whose watch events wait up to --publish-linger-ms after the kind's last publication, to go out together (by plural): their readers take them at a periodic pass (node lifecycle reads Leases every --node-monitor-period), and each of a cluster's Lease renewals would otherwise be a Kafka request of its own. A change after a quiet spell goes at once.",
  },
  {
    name: 'publish-linger-ms',
    type: 'number',
    default: 200,
    help: "How long after a publication of a --publish-linger-kinds kind the next one waits (Kafka's linger.ms, per kind).",
  },
  {
    name: 'state-checkpoint-interval-ms',
    type: 'number',
    default: 1000,
    help: 'How often the state topics (kcm.state.*) take the latest record of each key the history topics took meanwhile, in one transaction, marking the partitions it wrote to (every partition once per --state-checkpoint-full-interval-ms).',
  },
  {
    name: 'state-checkpoint-full-interval-ms',
    type: 'number',
    default: 600000,
    help: 'How often a state checkpoint marks every partition of every kind, where the others mark only the partitions they wrote to: what a restoring member reads past the state of a partition where nothing changed is at most this much history (its watermarks). Between them, a checkpoint of one marker goes out whenever none did for --watermark-idle-interval-ms, so a watcher a newer one fenced finds out within that.',
  },
  { name: 'page-size', type: 'number', default: 500, help: "Items per page of a list (client-go pager's default)." },
  {
    name: 'min-watch-timeout-seconds',
    type: 'number',
    default: 300,
    help: 'Watches end after [min, 2·min) seconds and are renewed (reflector minWatchTimeout).',
  },
  {
    name: 'watch-idle-timeout-seconds',
    type: 'number',
    default: 150,
    help: 'Watchdog: a watch without events or bookmarks for this long is restarted.',
  },
  {
    name: 'keep-managed-fields',
    type: 'boolean',
    default: false,
    help: "Keep metadata.managedFields (stripped by default, as upstream's informers do).",
  },
  {
    name: 'secret-digest-key-file',
    type: 'string',
    default: '',
    help: "The deployment's secret digest key (at least 32 bytes): a secret's values never travel, each is replaced by its HMAC-SHA256 under this key. Default: secret-digest.key in --signing-dir. Required when secrets are among --kinds.",
  },
];
