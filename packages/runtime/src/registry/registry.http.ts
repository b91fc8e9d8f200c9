import { request } from 'node:https';
import { RegistryError, type Compatibility, type SchemaRegistry } from './registry.ts';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

/**
 * RegistryClientOptions say how the client proves itself to the registry and whom it trusts: HTTP basic auth
 * (Confluent Cloud's API key and secret, Apicurio or Karapace users) and the PEM CA of an https:// registry
 * whose certificate Node's public CAs do not cover.
 */
export type RegistryClientOptions = {
  readonly basicAuth?: { readonly username: string; readonly password: string };
  readonly ca?: string;
};

type Answer = { readonly status: number; readonly text: string };
type Send = (method: string, url: string, headers: Readonly<Record<string, string>>, body?: string) => Promise<Answer>;

/**
 * httpSchemaRegistry speaks the Confluent schema registry REST API. Schemas by id are cached forever (ids are
 * immutable); registrations are cached per subject and schema text.
 */
export function httpSchemaRegistry(baseUrl: string, opts: RegistryClientOptions = {}): SchemaRegistry {
  const base = baseUrl.replace(/\/+$/, '');
  const byId = new Map<number, Promise<object>>();
  const registered = new Map<string, Promise<number>>();
  const send = opts.ca === undefined ? fetchSend : httpsSend(opts.ca);
  const headers = { 'content-type': CONTENT_TYPE, accept: CONTENT_TYPE, ...authorization(opts) };
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await send(method, `${base}${path}`, headers, body === undefined ? undefined : JSON.stringify(body));
    if (res.status < 200 || res.status > 299)
      throw new RegistryError(`schema registry ${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`, res.status);
    return res.text ? JSON.parse(res.text) : undefined;
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
    register: (subject, schema) =>
      once(
        registered,
        `${subject}\n${JSON.stringify(schema)}`,
        async () =>
          (
            (await call('POST', `/subjects/${encodeURIComponent(subject)}/versions`, {
              schema: JSON.stringify(schema),
            })) as { id: number }
          ).id,
      ),
    schemaById: (id) =>
      once(
        byId,
        id,
        async () => JSON.parse(((await call('GET', `/schemas/ids/${id}`)) as { schema: string }).schema) as object,
      ),
    setCompatibility: async (subject: string, level: Compatibility) => {
      await call('PUT', `/config/${encodeURIComponent(subject)}`, { compatibility: level });
    },
  };
}

/** authorization is the basic auth header (RFC 7617: base64 of `user:password`), when the registry wants one. */
function authorization(opts: RegistryClientOptions): Record<string, string> {
  const auth = opts.basicAuth;
  return auth ? { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` } : {};
}

const fetchSend: Send = async (method, url, headers, body) => {
  const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: res.status, text: await res.text() };
};

/** HTTPS_TIMEOUT_MS bounds one registry call over node:https (fetch cannot take a CA without undici). */
const HTTPS_TIMEOUT_MS = 60_000;

/** httpsSend makes registry calls trusting only the given CA (PEM), as a registry with a private CA needs. */
function httpsSend(ca: string): Send {
  return (method, url, headers, body) =>
    new Promise((resolve, reject) => {
      if (!url.startsWith('https:')) throw new Error(`a registry CA is given but ${url} is not https`);
      const req = request(url, { method, headers, ca, timeout: HTTPS_TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () =>
        req.destroy(new Error(`schema registry ${method} ${url}: no answer in ${HTTPS_TIMEOUT_MS} ms`)),
      );
      req.on('error', reject);
      req.end(body);
    });
}
