import type { CoreEvent } from './core-event.ts';
import type { EventWrite } from './event-correlator.ts';
import { type KubeRequest, PATCH_CONTENT_TYPES } from './request.ts';
import { resourcePath } from './rest-path.ts';

const at = (namespace: string) => ({ apiVersion: 'v1', resource: 'events', namespace });
const dropNulls = (_key: string, value: unknown): unknown => (value === null ? undefined : value);

/** eventObject is a CoreEvent as the core/v1 Event JSON the apiserver takes (null fields left out). */
export function eventObject(event: CoreEvent): object {
  const { name, namespace, resourceVersion: _rv, ...fields } = event;
  return { apiVersion: 'v1', kind: 'Event', metadata: { name, namespace }, ...fields };
}

/**
 * eventRequest is the request of a correlated event: a POST of the new Event, or a strategic merge PATCH of count,
 * lastTimestamp and message onto the existing one (the events sink's Create and Patch). When that patch meets
 * 404 (the Event expired), send eventCreateRequest(write.event) instead, as client-go's recordEvent does.
 */
export function eventRequest(write: Exclude<EventWrite, { readonly type: 'Drop' }>, fieldManager: string): KubeRequest {
  if (write.type === 'Create') return eventCreateRequest(write.event, fieldManager);
  const { event, patch } = write;
  return {
    method: 'PATCH',
    path: resourcePath(at(event.namespace), event.name),
    query: { fieldManager },
    headers: { Accept: 'application/json', 'Content-Type': PATCH_CONTENT_TYPES['strategic-merge'] },
    body: JSON.stringify(patch),
    name: event.name,
    preconditionTests: false,
  };
}

/** eventCreateRequest POSTs an Event (resourceVersion left empty, as recordEvent does before Create). */
export function eventCreateRequest(event: CoreEvent, fieldManager: string): KubeRequest {
  return {
    method: 'POST',
    path: resourcePath(at(event.namespace)),
    query: { fieldManager },
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(eventObject(event), dropNulls),
    name: event.name,
    preconditionTests: false,
  };
}
