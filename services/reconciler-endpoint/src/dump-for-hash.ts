import type { EndpointAddress, EndpointPort, EndpointSubset, ObjectReference } from '@kcm-bus/k8s/core-v1.ts';

/*
 * The order upstream's RepackSubsets gives ports and subsets is that of fnv-128a hashes of k8s.io/utils/dump.ForHash
 * (spew, %#v) of the Go structs. These print the same text, so kcm-bus writes subsets in upstream's order.
 */

const OFFSET_BASIS = [0x6295c58d, 0x62b82175, 0x07bb0142, 0x6c62272e];
const TWO_32 = 0x1_0000_0000;

/** fnv128a is hash/fnv.New128a over the UTF-8 bytes of text, as 32 hex digits (the digest's bytes in order). */
export function fnv128a(text: string): string {
  const h = [...OFFSET_BASIS] as [number, number, number, number];
  for (const byte of new TextEncoder().encode(text)) {
    h[0] = (h[0] ^ byte) >>> 0;
    // h *= 2^88 + 0x13b (mod 2^128), in 32-bit limbs, lowest first.
    const s2 = ((h[0] & 0xff) << 24) >>> 0;
    const s3 = ((h[0] >>> 8) | ((h[1] & 0xff) << 24)) >>> 0;
    let carry = 0;
    for (let i = 0; i < 4; i++) {
      const t = h[i]! * 0x13b + carry + (i === 2 ? s2 : i === 3 ? s3 : 0);
      h[i] = t % TWO_32;
      carry = Math.floor(t / TWO_32);
    }
  }
  return h.reverse().map((limb) => limb.toString(16).padStart(8, '0')).join('');
}

const ptr = (s: string | undefined): string => (s === undefined ? '(*string)<nil>' : `(*string)${s}`);

const list = <T>(type: string, items: readonly T[] | undefined, dump: (item: T) => string): string =>
  (items === undefined ? `(${type})<nil>` : `(${type})[${items.map(dump).join(' ')}]`);

function portFields(p: EndpointPort): string {
  return `{Name:(string)${p.name ?? ''} Port:(int32)${p.port} Protocol:(v1.Protocol)${p.protocol ?? ''} AppProtocol:${ptr(p.appProtocol)}}`;
}

function refDump(r: ObjectReference | undefined): string {
  if (r === undefined) return '(*v1.ObjectReference)<nil>';
  return `(*v1.ObjectReference){Kind:(string)${r.kind ?? ''} Namespace:(string)${r.namespace ?? ''} Name:(string)${r.name ?? ''} `
    + `UID:(types.UID)${r.uid ?? ''} APIVersion:(string)${r.apiVersion ?? ''} ResourceVersion:(string)${r.resourceVersion ?? ''} FieldPath:(string)${r.fieldPath ?? ''}}`;
}

function addressFields(a: EndpointAddress): string {
  return `{IP:(string)${a.ip} Hostname:(string)${a.hostname ?? ''} NodeName:${ptr(a.nodeName)} TargetRef:${refDump(a.targetRef)}}`;
}

/** dumpPort is dump.ForHash(v1.EndpointPort). */
export function dumpPort(p: EndpointPort): string {
  return `(v1.EndpointPort)${portFields(p)}`;
}

/** dumpSubset is dump.ForHash(v1.EndpointSubset); an absent list is a nil slice. */
export function dumpSubset(s: EndpointSubset): string {
  return `(v1.EndpointSubset){Addresses:${list('[]v1.EndpointAddress', s.addresses, addressFields)} `
    + `NotReadyAddresses:${list('[]v1.EndpointAddress', s.notReadyAddresses, addressFields)} Ports:${list('[]v1.EndpointPort', s.ports, portFields)}}`;
}
