import type { RawKube } from '@kcm-bus/harness/kube.ts';

/**
 * scaleTo sets the replicas of the controller `name` in `collection` (an RC's or a ReplicaSet's path in namespace ns)
 * through its scale subresource, with no resourceVersion: a status write in between is no conflict.
 */
export async function scaleTo(
  kube: RawKube,
  collection: string,
  ns: string,
  name: string,
  replicas: number,
): Promise<void> {
  const body = { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name, namespace: ns }, spec: { replicas } };
  await kube('PUT', `${collection}/${name}/scale`, body);
}
