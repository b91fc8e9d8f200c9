import { httpCall, type TlsClient } from './probes.ts';
import { kwokNode, rbacObjects } from './kube-access.ts';

/** apiCreate creates an object through the apiserver; an object that already exists counts as created. */
export async function apiCreate(server: string, tls: TlsClient, path: string, body: object): Promise<void> {
  const answer = await httpCall(`${server}${path}`, { method: 'POST', body: JSON.stringify(body), tls });
  if (answer.status >= 200 && answer.status < 300) return;
  if (answer.status === 409) return;
  throw new Error(`POST ${path}: ${answer.status} ${answer.body.slice(0, 500)}`);
}

/** bootstrapRbac binds the kcm-bus identities to their least-privilege ClusterRoles. */
export async function bootstrapRbac(server: string, tls: TlsClient): Promise<void> {
  for (const { path, body } of rbacObjects()) await apiCreate(server, tls, path, body);
}

/** registerNodes registers fake nodes that the stack's kwok process then runs. */
export async function registerNodes(server: string, tls: TlsClient, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await apiCreate(server, tls, '/api/v1/nodes', kwokNode(`kwok-node-${i}`));
}
