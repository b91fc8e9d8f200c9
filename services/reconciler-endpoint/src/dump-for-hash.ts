import type { EndpointAddress, EndpointPort, EndpointSubset, ObjectReference } from '@kcm-bus/k8s/core-v1.ts';

/*
 * The order upstream's RepackSubsets gives ports and subsets is that of fnv-128a hashes of k8s.io/utils/dump.ForHash
 * (spew, %#v) of the Go structs. These print the same text, so kcm-bus writes subsets in upstream's order.
 */

/** OFFSET_BASIS is FNV-128's offset basis in 16-bit limbs, lowest first. */
const OFFSET_BASIS = [0xc58d, 0x6295, 0x2175, 0x62b8, 0x0142, 0x07bb, 0x272e, 0x6c62] as const;

/**
 * fnv128a is hash/fnv.New128a over the UTF-8 bytes of text, as 32 hex digits (the digest's bytes in order). The
 * 128-bit state is eight 16-bit limbs, lowest first, so that every product stays an exact small integer: multiplying
 * by the FNV prime 2^88 + 0x13b (mod 2^128) is each limb times 0x13b plus the state shifted left 88 bits (5.5 limbs).
 */
export function fnv128a(text: string): string {
  let [h0, h1, h2, h3, h4, h5, h6, h7] = OFFSET_BASIS as readonly number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    h0 ^= bytes[i]!;
    const s5 = (h0 << 8) & 0xffff,
      s6 = ((h1 << 8) | (h0 >>> 8)) & 0xffff,
      s7 = ((h2 << 8) | (h1 >>> 8)) & 0xffff;
    let t = h0 * 0x13b;
    h0 = t & 0xffff;
    t = h1 * 0x13b + (t >>> 16);
    h1 = t & 0xffff;
    t = h2 * 0x13b + (t >>> 16);
    h2 = t & 0xffff;
    t = h3 * 0x13b + (t >>> 16);
    h3 = t & 0xffff;
    t = h4 * 0x13b + (t >>> 16);
    h4 = t & 0xffff;
    t = h5 * 0x13b + (t >>> 16) + s5;
    h5 = t & 0xffff;
    t = h6 * 0x13b + (t >>> 16) + s6;
    h6 = t & 0xffff;
    h7 = (h7 * 0x13b + (t >>> 16) + s7) & 0xffff;
  }
  return [h7, h6, h5, h4, h3, h2, h1, h0].map((limb) => limb.toString(16).padStart(4, '0')).join('');
}

const ptr = (s: string | undefined): string => (s === undefined ? '(*string)<nil>' : `(*string)${s}`);

const list = <T>(type: string, items: readonly T[] | undefined, dump: (item: T) => string): string =>
  items === undefined ? `(${type})<nil>` : `(${type})[${items.map(dump).join(' ')}]`;

function portFields(p: EndpointPort): string {
  return `{Name:(string)${p.name ?? ''} Port:(int32)${p.port} Protocol:(v1.Protocol)${p.protocol ?? ''} AppProtocol:${ptr(p.appProtocol)}}`;
}

function refDump(r: ObjectReference | undefined): string {
  if (r === undefined) return '(*v1.ObjectReference)<nil>';
  return (
    `(*v1.ObjectReference){Kind:(string)${r.kind ?? ''} Namespace:(string)${r.namespace ?? ''} Name:(string)${r.name ?? ''} ` +
    `UID:(types.UID)${r.uid ?? ''} APIVersion:(string)${r.apiVersion ?? ''} ResourceVersion:(string)${r.resourceVersion ?? ''} FieldPath:(string)${r.fieldPath ?? ''}}`
  );
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
  return (
    `(v1.EndpointSubset){Addresses:${list('[]v1.EndpointAddress', s.addresses, addressFields)} ` +
    `NotReadyAddresses:${list('[]v1.EndpointAddress', s.notReadyAddresses, addressFields)} Ports:${list('[]v1.EndpointPort', s.ports, portFields)}}`
  );
}
