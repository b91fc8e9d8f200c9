import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isIPv6String, parseIPSloppy } from './net.ts';

describe('parseIPSloppy (utilnet.ParseIPSloppy(ip).String())', () => {
  it('given IPv4 with leading zeros, then the octets are read as decimal (addBadIPPod\'s "01.2.3.4")', () => {
    assert.deepEqual(parseIPSloppy('01.2.3.4'), { family: 'IPv4', text: '1.2.3.4' });
  });
  it('given IPv6 in any spelling, then it comes back as RFC 5952', () => {
    assert.equal(parseIPSloppy('02000::4')?.text, '2000::4');
    assert.equal(parseIPSloppy('12000::4')?.text, undefined);
    assert.equal(parseIPSloppy('2000:0000:0:0:0:0:0:0005')?.text, '2000::5');
    assert.equal(parseIPSloppy('2001:DB8:0:0:1:0:0:1')?.text, '2001:db8::1:0:0:1');
    assert.equal(parseIPSloppy('::')?.text, '::');
    assert.equal(parseIPSloppy('fe80::1:2')?.text, 'fe80::1:2');
  });
  it('given an IPv4-mapped IPv6 address, then it is IPv4 (To4() != nil)', () => {
    assert.deepEqual(parseIPSloppy('::ffff:10.1.2.3'), { family: 'IPv4', text: '10.1.2.3' });
  });
  it('given text that is no IP, then undefined; isIPv6String says false', () => {
    assert.equal(parseIPSloppy('1.2.3'), undefined);
    assert.equal(parseIPSloppy('1::2::3'), undefined);
    assert.equal(isIPv6String('nope'), false);
    assert.equal(isIPv6String('3000::1'), true);
    assert.equal(isIPv6String('10.0.0.1'), false);
  });
});
