import { Agent, request, type AgentOptions, type RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import { type CredentialCache, sendWithCredentials } from '@kcm-bus/runtime/credentials/index.ts';
import { apiResourceOf, fieldSelectorOf, type WatchedKind } from '@kcm-bus/schemas/kinds.ts';
import { ApiStatusError, type ListPage, type ListWatcher } from './list-watcher.ts';
import { LineSplitter, parseWatchLine, type RawWatchEvent } from './watch-stream.ts';

/** MAX_PENDING_LINES is how many unhandled watch lines are buffered before the stream is paused. */
const MAX_PENDING_LINES = 1000;

/** acceptOf is what a kind is listed and watched as: a metadata-only kind's as PartialObjectMetadata(List), no content. */
const acceptOf = (kind: WatchedKind, as: 'PartialObjectMetadataList' | 'PartialObjectMetadata'): string =>
  kind.metadataOnly === true ? `application/json;as=${as};g=meta.k8s.io;v=v1` : 'application/json';

/**
 * kubeListWatcher is the ListWatcher of one kind over HTTPS with the kubeconfig's TLS identity (kept-alive connections)
 * and the credentials' current headers; a list or watch refused 401 is sent once more with fresh credentials.
 */
export async function kubeListWatcher(
  kc: KubeConfig,
  credentials: CredentialCache,
  kind: WatchedKind,
): Promise<ListWatcher> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('the kubeconfig names no cluster server');
  const tls: RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  const base: RequestOptions = { ...tls, agent: new Agent({ ...(tls as AgentOptions), keepAlive: true }) };
  const path = `${kind.apiVersion === 'v1' ? '/api/v1' : `/apis/${kind.apiVersion}`}/${apiResourceOf(kind)}`;
  const fieldSelector = fieldSelectorOf(kind);
  const selected = fieldSelector === undefined ? {} : { fieldSelector };
  const url = (query: Record<string, string>): string =>
    `${server}${path}?${new URLSearchParams({ ...query, ...selected }).toString()}`;
  const authenticated = (target: string, opts: RequestOptions, accept: string): Promise<IncomingMessage> =>
    sendWithCredentials(
      credentials,
      (auth) => get(target, { ...opts, headers: { ...auth, accept } }),
      (err) => err instanceof ApiStatusError && err.code === 401,
    );
  return {
    async list({ limit, continue: token }) {
      const page = url({ limit: String(limit), ...(token ? { continue: token } : {}) });
      const res = await authenticated(page, base, acceptOf(kind, 'PartialObjectMetadataList'));
      const body = JSON.parse(await readBody(res)) as {
        items?: ListPage['items'];
        metadata?: { resourceVersion?: string; continue?: string };
      };
      return {
        items: body.items ?? [],
        resourceVersion: body.metadata?.resourceVersion ?? '',
        continue: body.metadata?.continue || undefined,
      };
    },
    async watch({ resourceVersion, timeoutSeconds, signal, onOpen }, onEvent) {
      const query = {
        watch: 'true',
        allowWatchBookmarks: 'true',
        resourceVersion,
        timeoutSeconds: String(timeoutSeconds),
      };
      const res = await authenticated(url(query), { ...base, signal }, acceptOf(kind, 'PartialObjectMetadata'));
      onOpen?.();
      await consume(res, onEvent, signal);
    },
  };
}

function get(url: string, opts: RequestOptions): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ...opts, method: 'GET' }, (res) => {
      if (res.statusCode === 200) return resolve(res);
      readBody(res).then((text) => reject(statusError(res.statusCode ?? 0, text)), reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function statusError(code: number, text: string): ApiStatusError {
  let message = text.slice(0, 300);
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? message;
  } catch {
    // not a Status object: keep the text
  }
  return new ApiStatusError(`${code}: ${message}`, code);
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

/** consume hands a watch stream's events to onEvent one at a time, pausing the stream while it lags. */
function consume(
  res: IncomingMessage,
  onEvent: (e: RawWatchEvent) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = new LineSplitter();
    let chain = Promise.resolve();
    let pending = 0;
    const fail = (err: unknown): void => {
      res.destroy();
      reject(err);
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      for (const line of lines.push(chunk)) {
        pending++;
        chain = chain
          .then(() => onEvent(parseWatchLine(line)))
          .then(() => {
            if (--pending < MAX_PENDING_LINES / 2) res.resume();
          });
        chain.catch(fail);
      }
      if (pending > MAX_PENDING_LINES) res.pause();
    });
    res.on('end', () => void chain.then(() => resolve(), fail));
    res.on('error', (err) => (signal.aborted ? resolve() : fail(err)));
    res.on('close', () => {
      if (signal.aborted) resolve();
      else if (!res.complete) fail(new Error('watch connection dropped'));
    });
  });
}
