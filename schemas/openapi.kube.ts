import { request, type RequestOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import type { OpenApiDocument } from './generator/openapi.ts';
import { openApiPaths } from './watch-schemas.ts';

/** fetchOpenApi reads the apiserver's OpenAPI v3 documents of the watched group versions. */
export async function fetchOpenApi(kubeconfig: string): Promise<Map<string, OpenApiDocument>> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error(`${kubeconfig} names no cluster server`);
  const docs = new Map<string, OpenApiDocument>();
  for (const path of openApiPaths())
    docs.set(path, JSON.parse(await get(kc, `${server}/openapi/v3/${path}`)) as OpenApiDocument);
  return docs;
}

async function get(kc: KubeConfig, url: string): Promise<string> {
  const opts: RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  return new Promise((resolve, reject) => {
    request(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode === 200) resolve(body);
        else reject(new Error(`GET ${url}: ${res.statusCode} ${body.slice(0, 200)}`));
      });
    })
      .on('error', reject)
      .end();
  });
}
