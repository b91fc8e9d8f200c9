/** ReplicaSetSeen is a ReplicaSet as a client's watch delivered it, with the delivery time (ms since the epoch). */
export type ReplicaSetSeen = {
  readonly at: number;
  readonly rs: {
    readonly metadata: { readonly name: string; readonly resourceVersion?: string };
    readonly spec: {
      readonly replicas?: number;
      readonly template?: { readonly spec?: { readonly containers?: readonly { readonly image?: string }[] } };
    };
    readonly status?: { readonly availableReplicas?: number };
  };
};

/** NEW_IMAGE is the image the rollout sets: the new ReplicaSet is the one whose template runs it. */
export const NEW_IMAGE = 'nginx:2';

const imageOf = (s: ReplicaSetSeen): string | undefined => s.rs.spec.template?.spec?.containers?.[0]?.image;

/**
 * stepLatencies are the controller's reaction times in a rollout (ms): for each scaling step (a ReplicaSet's
 * spec.replicas changed, its creation aside) preceded, since the previous step, by a readiness step of the new
 * ReplicaSet (its status.availableReplicas rose), the time from the last such readiness step to it. A step with no
 * readiness step before it (the scale-down that follows a scale-up in the next sync) is not a reaction to readiness
 * and is left out.
 */
export function stepLatencies(seen: readonly ReplicaSetSeen[]): number[] {
  const replicas = new Map<string, number | undefined>();
  const available = new Map<string, number>();
  const latencies: number[] = [];
  let ready: number | undefined;
  for (const s of [...seen].sort((a, b) => a.at - b.at)) {
    const name = s.rs.metadata.name;
    if (imageOf(s) === NEW_IMAGE) {
      const now = s.rs.status?.availableReplicas ?? 0;
      if (now > (available.get(name) ?? 0)) ready = s.at;
      available.set(name, now);
    }
    const scaled = replicas.has(name) && replicas.get(name) !== s.rs.spec.replicas;
    replicas.set(name, s.rs.spec.replicas);
    if (!scaled) continue;
    if (ready !== undefined) latencies.push(s.at - ready);
    ready = undefined;
  }
  return latencies;
}
