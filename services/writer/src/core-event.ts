import { createHash } from 'node:crypto';
import type { EventType, MutationEvent, ObjectReference } from '@kcm-bus/runtime/mutation/index.ts';
import { metaTime, unixNanos } from './event-time.ts';
import { MAX_EVENT_MESSAGE_LENGTH, truncateMessage } from './truncate-message.ts';

/**
 * CoreEvent is the core/v1 Event the writer creates or patches, with the fields client-go's recorder fills
 * (null fields are left out of the JSON). resourceVersion is the server's, learned through updateState.
 */
export type CoreEvent = {
  readonly name: string;
  readonly namespace: string;
  readonly involvedObject: ObjectReference;
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
  readonly source: MutationEvent['source'];
  readonly count: number;
  readonly firstTimestamp: string;
  readonly lastTimestamp: string;
  readonly resourceVersion: string | null;
};

/**
 * makeEvent turns a recorded event and its time (the mutation's createdAt) into a new Event: count 1, first and
 * last timestamp = that time, namespace = the involved object's or `default`, name `<object>.<hex unix nanos>`,
 * message cut to MAX_EVENT_MESSAGE_LENGTH (which also bounds the correlator's cache keys).
 * Mirrors client-go recorderImpl.makeEvent; using the recorder's time rather than the writer's makes the name the
 * same when a mutation is replayed, so the replay meets AlreadyExists.
 */
export function makeEvent(recorded: MutationEvent, time: string): CoreEvent {
  const nanos = unixNanos(time);
  const ref = recorded.involvedObject;
  const { type, reason, source } = recorded;
  const message = truncateMessage(recorded.message, MAX_EVENT_MESSAGE_LENGTH);
  const at = metaTime(nanos);
  const namespace = ref.namespace === null || ref.namespace === '' ? 'default' : ref.namespace;
  return {
    name: generateEventName(ref.name, nanos),
    namespace,
    involvedObject: ref,
    type,
    reason,
    message,
    source,
    count: 1,
    firstTimestamp: at,
    lastTimestamp: at,
    resourceVersion: null,
  };
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * generateEventName is `<refName>.<hex unixNano>`, or, when that is not a DNS subdomain, a UUID-shaped name.
 * Mirrors client-go tools/record/util.GenerateEventName, except that the UUID is derived from the same input
 * instead of random, so it too is stable under replay.
 */
export function generateEventName(refName: string, unixNano: bigint): string {
  const name = `${refName}.${unixNano.toString(16)}`;
  if (name.length <= 253 && DNS1123_SUBDOMAIN.test(name)) return name;
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** objectParts are the involved object's identifying fields, in client-go's key order. */
function objectParts(e: CoreEvent): readonly (string | null)[] {
  const o = e.involvedObject;
  return [e.source.component, e.source.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion];
}

/**
 * getEventKey identifies identical events (everything but time and count), the eventLogger's dedup key. Mirrors
 * client-go getEventKey; parts are joined unambiguously (JSON) where client-go concatenates.
 */
export function getEventKey(e: CoreEvent): string {
  const [component, host, kind, namespace, name, uid, apiVersion] = objectParts(e);
  return JSON.stringify([
    component,
    host,
    kind,
    namespace,
    name,
    e.involvedObject.fieldPath,
    uid,
    apiVersion,
    e.type,
    e.reason,
    e.message,
  ]);
}

/**
 * getSpamKey identifies a source and object (and event type, as current client-go does) for the spam filter's
 * token buckets. Mirrors client-go getSpamKey.
 */
export function getSpamKey(e: CoreEvent): string {
  return JSON.stringify([...objectParts(e), e.type]);
}

/**
 * eventAggregatorByReason groups events that differ only in message: the aggregate key and the message as the
 * local key. Mirrors client-go EventAggregatorByReasonFunc (reportingController/Instance are empty in core/v1
 * events our recorder makes).
 */
export function eventAggregatorByReason(e: CoreEvent): { readonly aggregateKey: string; readonly localKey: string } {
  return { aggregateKey: JSON.stringify([...objectParts(e), e.type, e.reason]), localKey: e.message };
}
