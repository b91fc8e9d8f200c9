import { partitioned } from '@kcm-bus/runtime/reconcile/declaration.ts';
import { runController } from '@kcm-bus/runtime/reconcile/run-controller.node.ts';
import { stateTopic } from '@kcm-bus/schemas/kinds.ts';
import type { Pod, ReplicationController } from '@kcm-bus/k8s/core-v1.ts';
import { rcControllerSpec } from './controller-spec.ts';
import { PROJECTED_POD_FIELDS, projectPod } from './project-pod.ts';
import { POD_INDEXERS, RC_INDEXERS } from './rc-lookup.ts';
import { DEFAULT_RC_CONFIG } from './reconcile-rc.ts';
import { CONTROLLER_NAME, PODS, RCS } from './replication-controller.ts';

await runController({
  service: 'reconciler-rc',
  name: CONTROLLER_NAME,
  workqueue: 'replicationmanager',
  inputs: {
    pods: partitioned<Pod>(stateTopic(PODS), { indexers: POD_INDEXERS, project: projectPod, fields: PROJECTED_POD_FIELDS }),
    rcs: partitioned<ReplicationController>(stateTopic(RCS), { indexers: RC_INDEXERS }),
  },
  workers: { name: 'concurrent-rc-syncs', default: 5, help: 'RCs synced at once (kube-controller-manager\'s flag).' },
  expectations: true,
  spec: (listers) => rcControllerSpec(listers, DEFAULT_RC_CONFIG),
});
