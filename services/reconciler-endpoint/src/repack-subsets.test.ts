import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointAddress } from '@kcm-bus/k8s/core-v1.ts';
import { dumpPort, fnv128a } from './dump-for-hash.ts';
import { repackSubsets } from './repack-subsets.ts';

const addr = (ip: string, uid: string, name: string): EndpointAddress => ({
  ip,
  nodeName: 'n1',
  targetRef: { kind: 'Pod', namespace: 'ns', name, uid },
});
const [a, b, c] = [addr('1.2.3.4', 'ua', 'a'), addr('1.2.3.5', 'ub', 'b'), addr('1.2.3.6', 'uc', 'c')];

describe('fnv128a and dump.ForHash (vectors printed by Go against k8s.io/api v0.37.2)', () => {
  it("given text, then the digest is hash/fnv.New128a's", () => {
    assert.equal(fnv128a(''), '6c62272e07bb014262b821756295c58d');
    assert.equal(fnv128a('a'), 'd228cb696f1a8caf78912b704e4a8964');
  });
  it("given a long text with non-ASCII characters, then the digest is Go's (every limb and carry exercised)", () => {
    assert.equal(
      fnv128a('(v1.EndpointAddress){IP:(string)10.0.0.1 é}'.repeat(100)),
      '2519278e6747f4f991564dcba6d46245',
    );
  });
  it("given a port, then its dump and hash are Go's", () => {
    const dump = dumpPort({ name: 'p', port: 8080, protocol: 'TCP' });
    assert.equal(
      dump,
      '(v1.EndpointPort){Name:(string)p Port:(int32)8080 Protocol:(v1.Protocol)TCP AppProtocol:(*string)<nil>}',
    );
    assert.equal(fnv128a(dump), '60d9ca3205caf60744c6b8e5edf8d15f');
    assert.equal(
      dumpPort({ name: 'p', port: 8080, protocol: 'TCP', appProtocol: 'http' }),
      '(v1.EndpointPort){Name:(string)p Port:(int32)8080 Protocol:(v1.Protocol)TCP AppProtocol:(*string)http}',
    );
  });
});

describe('repackSubsets (endpoints.RepackSubsets)', () => {
  it("given one address per port and pod, then ports sharing an address set share a subset, not ready wins, in Go's order", () => {
    const got = repackSubsets([
      { addresses: [a], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] },
      { addresses: [b], ports: [{ name: 'http', port: 8081, protocol: 'TCP' }] },
      { notReadyAddresses: [c], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] },
      { addresses: [a], ports: [{ name: 'dns', port: 53, protocol: 'UDP' }] },
      { addresses: [a], ports: [{ name: 'dns-tcp', port: 53, protocol: 'TCP' }] },
    ]);
    assert.deepEqual(got, [
      { addresses: [b], ports: [{ name: 'http', port: 8081, protocol: 'TCP' }] },
      { addresses: [a], notReadyAddresses: [c], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] },
      {
        addresses: [a],
        ports: [
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
          { name: 'dns', port: 53, protocol: 'UDP' },
        ],
      },
    ]);
  });
  it('given one port number on two protocols, then UDP sorts before TCP as upstream (TestSyncEndpointsProtocolMultiProtocolSamePort)', () => {
    const got = repackSubsets([
      {
        addresses: [{ ip: '1.2.3.4' }],
        ports: [
          { port: 8080, protocol: 'TCP' },
          { port: 8080, protocol: 'UDP' },
        ],
      },
    ]);
    assert.deepEqual(got, [
      {
        addresses: [{ ip: '1.2.3.4' }],
        ports: [
          { port: 8080, protocol: 'UDP' },
          { port: 8080, protocol: 'TCP' },
        ],
      },
    ]);
  });
  it('given an address both ready and not ready for a port, then it is not ready; unsorted addresses come back sorted by IP', () => {
    const got = repackSubsets([{ addresses: [b, a], notReadyAddresses: [a], ports: [{ port: 80 }] }]);
    assert.deepEqual(got, [{ addresses: [b], notReadyAddresses: [a], ports: [{ port: 80 }] }]);
  });
  it('given addresses without ports (a headless Service), then they form a subset without ports', () => {
    assert.deepEqual(repackSubsets([{ addresses: [b] }, { addresses: [a] }]), [{ addresses: [a, b] }]);
  });
});
