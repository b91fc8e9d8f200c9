import { KubeConfig, Watch } from '@kubernetes/client-node';
import type { BenchContext } from './scenario.ts';

/** POLL_MS: how soon a watch cut by the server is resumed. */
const POLL_MS = 20;

type Pod = {
  metadata: {
    uid: string;
    resourceVersion: string;
    deletionTimestamp?: string;
    ownerReferences?: { uid: string; controller?: boolean }[];
  };
};

/** Sample is an RC's live pods (controlled by it, not terminating) from `t` seconds after the RC was created on. */
export type Sample = { readonly t: number; readonly n: number };

/** OwnedPods follows an RC's live pods by a watch: the count after each change, and every pod it ever controlled. */
export type OwnedPods = {
  readonly series: Sample[];
  readonly live: () => number;
  readonly distinct: () => number;
  readonly stop: () => void;
};

type PodCounter = {
  readonly apply: (type: string, pod: Pod) => void;
  /** replace takes a full list as the truth (after a relist): listed pods are live, the others are gone. */
  readonly replace: (pods: readonly Pod[]) => void;
  readonly series: Sample[];
  readonly live: Set<string>;
  readonly ever: Set<string>;
};

/** podCounter counts the live pods an RC controls from watch events, recording the count after each change. */
function podCounter(rcUid: string, started: number): PodCounter {
  const live = new Set<string>(),
    ever = new Set<string>(),
    series: Sample[] = [];
  const apply = (type: string, pod: Pod): void => {
    const owned = (pod.metadata.ownerReferences ?? []).some((o) => o.controller === true && o.uid === rcUid);
    const before = live.size;
    if (owned) ever.add(pod.metadata.uid);
    if (owned && type !== 'DELETED' && !pod.metadata.deletionTimestamp) live.add(pod.metadata.uid);
    else live.delete(pod.metadata.uid);
    if (live.size !== before) series.push({ t: (performance.now() - started) / 1000, n: live.size });
  };
  const replace = (pods: readonly Pod[]): void => {
    const listed = new Set(pods.map((p) => p.metadata.uid));
    for (const uid of [...live]) if (!listed.has(uid)) apply('DELETED', { metadata: { uid, resourceVersion: '' } });
    for (const pod of pods) apply('ADDED', pod);
  };
  return { apply, replace, series, live, ever };
}

/**
 * watchOwnedPods watches a namespace's pods from the RC's creation on, re-watching from the last resourceVersion when
 * cut, and relisting when the server answers 410 Gone (a chaos run compacts etcd and restarts the apiserver).
 */
export function watchOwnedPods(
  ctx: BenchContext,
  ns: string,
  rcUid: string,
  fromVersion: string,
  started: number,
): OwnedPods {
  const kc = new KubeConfig();
  kc.loadFromFile(ctx.e.kubeconfig);
  const counter = podCounter(rcUid, started);
  let rv = fromVersion,
    stopped = false,
    gone = false,
    failure: unknown,
    abort: AbortController | undefined;
  const onEvent = (type: string, pod: Pod): void => {
    if (type === 'ERROR' && (pod as { code?: number }).code === 410) gone = true;
    else if (type === 'ERROR') failure = new Error(`pod watch of ${ns}: ${JSON.stringify(pod)}`);
    else rv = pod.metadata.resourceVersion;
    if (type !== 'ERROR' && type !== 'BOOKMARK') counter.apply(type, pod);
  };
  const relist = async (): Promise<void> => {
    const list = (await ctx.kube('GET', `/api/v1/namespaces/${ns}/pods`)) as {
      metadata: { resourceVersion: string };
      items: Pod[];
    };
    counter.replace(list.items);
    rv = list.metadata.resourceVersion;
    gone = false;
  };
  const follow = (): void => {
    new Watch(kc)
      .watch(`/api/v1/namespaces/${ns}/pods`, { resourceVersion: rv, allowWatchBookmarks: true }, onEvent, () => {
        if (stopped || failure !== undefined) return;
        if (gone)
          void relist().then(follow, (err: unknown) => {
            failure = err;
          });
        else setTimeout(follow, POLL_MS);
      })
      .then(
        (c) => {
          abort = c;
          if (stopped) c.abort();
        },
        (err: unknown) => {
          failure = err;
        },
      );
  };
  follow();
  return {
    series: counter.series,
    distinct: () => counter.ever.size,
    stop: () => {
      stopped = true;
      abort?.abort();
    },
    live: () => {
      if (failure !== undefined) throw failure;
      return counter.live.size;
    },
  };
}
