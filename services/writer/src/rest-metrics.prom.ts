import { Counter, Histogram, type Registry } from 'prom-client';
import type { RestClientMetrics } from './api.kube.ts';

/**
 * promRestClientMetrics registers client-go's rest client series: rest_client_requests_total{code,method,host}
 * and rest_client_request_duration_seconds{verb,host} (k8s.io/client-go/tools/metrics, buckets as component-base's).
 */
export function promRestClientMetrics(registry: Registry): RestClientMetrics {
  const registers = [registry];
  const requests = new Counter({
    name: 'rest_client_requests_total',
    help: 'Number of HTTP requests, partitioned by status code, method, and host.',
    labelNames: ['code', 'method', 'host'],
    registers,
  });
  const latency = new Histogram({
    name: 'rest_client_request_duration_seconds',
    help: 'Request latency in seconds. Broken down by verb, and host.',
    labelNames: ['verb', 'host'],
    registers,
    buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  });
  return {
    observe: (method, code, host, seconds) => {
      requests.inc({ code, method, host });
      latency.observe({ verb: method, host }, seconds);
    },
  };
}
