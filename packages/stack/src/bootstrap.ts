import { httpCall, type TlsClient } from './probes.ts';
import { kwokNode, rbacObjects } from './kube-access.ts';

/** apiCreate creates an object through the apiserver; an object that already exists counts as created. */
export async function apiCreate(server: string, tls: TlsClient, path: string, body: object): Promise<void> {
  const answer = await httpCall(`${server}${path}`, { method: 'POST', body: JSON.stringify(body), tls });
  if (answer.status >= 200 && answer.status < 300) return;
  if (answer.status === 409) return;
  throw new Error(`POST ${path}: ${answer.status} ${answer.body.slice(0, 500)}`);
}

/** apiApply creates an object, or replaces it when it exists (for objects that allow unconditional updates). */
export async function apiApply(
  server: string,
  tls: TlsClient,
  path: string,
  body: { readonly metadata: { readonly name: string } },
): Promise<void> {
  const created = await httpCall(`${server}${path}`, { method: 'POST', body: JSON.stringify(body), tls });
  if (created.status >= 200 && created.status < 300) return;
  if (created.status !== 409) throw new Error(`POST ${path}: ${created.status} ${created.body.slice(0, 500)}`);
  const replaced = await httpCall(`${server}${path}/${body.metadata.name}`, {
    method: 'PUT',
    body: JSON.stringify(body),
    tls,
  });
  if (replaced.status >= 300)
    throw new Error(`PUT ${path}/${body.metadata.name}: ${replaced.status} ${replaced.body.slice(0, 500)}`);
}

/** bootstrapRbac binds the kcm-bus identities to their least-privilege ClusterRoles, replacing older versions of them. */
export async function bootstrapRbac(server: string, tls: TlsClient): Promise<void> {
  for (const { path, body } of rbacObjects()) await apiApply(server, tls, path, body);
}

/** registerNodes registers fake nodes that the stack's kwok process then runs. */
export async function registerNodes(server: string, tls: TlsClient, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await apiCreate(server, tls, '/api/v1/nodes', kwokNode(`kwok-node-${i}`));
}
