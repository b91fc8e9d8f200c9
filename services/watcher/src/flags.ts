import type { FlagSpec } from '@kcm-bus/runtime/service/flags.ts';
import { WATCHED_KINDS } from '@kcm-bus/schemas/kinds.ts';

/** WATCHER_FLAGS are the watcher's own flags (client-go reflector names where it has them). */
export const WATCHER_FLAGS: readonly FlagSpec[] = [
  { name: 'kubeconfig', type: 'string', default: '', help: 'Kubeconfig with list/watch rights (default: $KUBECONFIG).' },
  { name: 'kinds', type: 'list', default: WATCHED_KINDS.map((k) => k.plural), help: 'Kinds to watch, by plural.' },
  { name: 'partitions', type: 'number', default: 6, help: 'Partitions of a watch topic the watcher creates (an existing topic keeps its count).' },
  { name: 'audit-window-seconds', type: 'number', default: 86_400, help: 'retention.ms of the history topics (kcm.watch.*): every record this young stays readable, in order, for replay, trace and audit.' },
  { name: 'watermark-interval-ms', type: 'number', default: 1000, help: 'How often a watermark record goes to every partition.' },
  { name: 'page-size', type: 'number', default: 500, help: 'Items per page of a list (client-go pager\'s default).' },
  { name: 'min-watch-timeout-seconds', type: 'number', default: 300, help: 'Watches end after [min, 2·min) seconds and are renewed (reflector minWatchTimeout).' },
  { name: 'watch-idle-timeout-seconds', type: 'number', default: 150, help: 'Watchdog: a watch without events or bookmarks for this long is restarted.' },
  { name: 'keep-managed-fields', type: 'boolean', default: false, help: 'Keep metadata.managedFields (stripped by default, as upstream\'s informers do).' },
];
