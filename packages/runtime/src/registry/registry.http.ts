import { RegistryError, type Compatibility, type SchemaRegistry } from './registry.ts';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

/**
 * httpSchemaRegistry speaks the Confluent schema registry REST API over fetch. Schemas by id are cached
 * forever (ids are immutable); registrations are cached per subject and schema text.
 */
export function httpSchemaRegistry(baseUrl: string, fetcher: typeof fetch = fetch): SchemaRegistry {
  const base = baseUrl.replace(/\/+$/, '');
  const byId = new Map<number, Promise<object>>();
  const registered = new Map<string, Promise<number>>();
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetcher(`${base}${path}`, {
      method, headers: { 'content-type': CONTENT_TYPE, accept: CONTENT_TYPE },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new RegistryError(`schema registry ${method} ${path}: ${res.status} ${text.slice(0, 300)}`, res.status);
    return text ? JSON.parse(text) : undefined;
  };
  const once = <K, V>(cache: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> => {
    const hit = cache.get(key);
    if (hit) return hit;
    const loading = load().catch((err: unknown) => {
      cache.delete(key);
      throw err;
    });
    cache.set(key, loading);
    return loading;
  };
  return {
    register: (subject, schema) => once(registered, `${subject}\n${JSON.stringify(schema)}`, async () =>
      ((await call('POST', `/subjects/${encodeURIComponent(subject)}/versions`, { schema: JSON.stringify(schema) })) as { id: number }).id),
    schemaById: (id) => once(byId, id, async () =>
      JSON.parse(((await call('GET', `/schemas/ids/${id}`)) as { schema: string }).schema) as object),
    setCompatibility: async (subject: string, level: Compatibility) => {
      await call('PUT', `/config/${encodeURIComponent(subject)}`, { compatibility: level });
    },
  };
}
