import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

/** TlsClient is the client identity and trust a probe or bootstrap request uses against the apiserver. */
export type TlsClient = { readonly ca: string; readonly cert: string; readonly key: string };

/** HttpAnswer is a status code and body. */
export type HttpAnswer = { readonly status: number; readonly body: string };

/** httpCall makes one HTTP(S) request with a timeout; TLS requests present the client identity given. */
export function httpCall(
  url: string,
  opts: { method?: string; body?: string; tls?: TlsClient; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const secure = url.startsWith('https:');
    const request = secure ? httpsRequest : httpRequest;
    const req = request(
      url,
      {
        method: opts.method ?? 'GET',
        timeout: opts.timeoutMs ?? 5000,
        headers: opts.body === undefined ? {} : { 'content-type': 'application/json' },
        ...(secure
          ? { ca: opts.tls?.ca, cert: opts.tls?.cert, key: opts.tls?.key, rejectUnauthorized: opts.tls !== undefined }
          : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${opts.timeoutMs ?? 5000} ms: ${url}`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** httpOk is a readiness probe: true when the URL answers 200 (and the body matches, when asked). */
export async function httpOk(url: string, tls?: TlsClient, body?: RegExp): Promise<boolean> {
  try {
    const answer = await httpCall(url, tls ? { tls, timeoutMs: 3000 } : { timeoutMs: 3000 });
    return answer.status === 200 && (body === undefined || body.test(answer.body));
  } catch {
    return false;
  }
}

/** redisPing is a readiness probe speaking RESP on a raw socket: true on +PONG. */
export function redisPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d: Buffer) => done(d.toString().startsWith('+PONG')));
  });
}
