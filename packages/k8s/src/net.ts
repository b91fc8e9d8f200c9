/*
 * IP parsing as k8s.io/utils/net does it (ParseIPSloppy, IsIPv6), for addresses the API serves as text.
 */

/** ParsedIP is an IP in canonical form (Go's net.IP.String()) and its family; an IPv4-mapped IPv6 address is IPv4. */
export type ParsedIP = { readonly family: 'IPv4' | 'IPv6'; readonly text: string };

/**
 * parseIPSloppy mirrors utilnet.ParseIPSloppy(ip).String(): IPv4 octets and IPv6 groups may carry leading zeros
 * (octets read as decimal),
 * IPv6 is written back as RFC 5952 (lower case, no leading zeros, the longest run of zero groups as `::`); an
 * IPv4-mapped IPv6 address comes back as IPv4. undefined: not an IP.
 */
export function parseIPSloppy(ip: string): ParsedIP | undefined {
  if (!ip.includes(':')) {
    const v4 = parseIPv4(ip);
    return v4 && { family: 'IPv4', text: v4.join('.') };
  }
  const groups = parseIPv6(ip);
  if (groups === undefined) return undefined;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return { family: 'IPv4', text: [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.') };
  }
  return { family: 'IPv6', text: formatIPv6(groups) };
}

/** isIPv6String mirrors utilnet.IsIPv6String: the text parses as an IP that is not IPv4 (nor IPv4-mapped). */
export function isIPv6String(ip: string): boolean {
  return parseIPSloppy(ip)?.family === 'IPv6';
}

function parseIPv4(ip: string): number[] | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,9}$/.test(p))) return undefined;
  const octets = parts.map((p) => Number.parseInt(p, 10));
  return octets.every((o) => o <= 255) ? octets : undefined;
}

function parseIPv6(ip: string): number[] | undefined {
  const halves = ip.split('::');
  if (halves.length > 2) return undefined;
  const parse = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    for (const [i, part] of half.split(':').entries()) {
      const v4 = part.includes('.') && i === half.split(':').length - 1 ? parseIPv4(part) : undefined;
      if (v4) out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      else if (/^[0-9a-fA-F]{1,9}$/.test(part) && Number.parseInt(part, 16) <= 0xffff)
        out.push(Number.parseInt(part, 16));
      else return undefined;
    }
    return out;
  };
  const [head, tail] = [parse(halves[0]!), halves.length === 2 ? parse(halves[1]!) : []];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}

/** formatIPv6 is Go's IPv6 String(): the first longest run of two or more zero groups becomes `::`. */
function formatIPv6(groups: readonly number[]): string {
  let [bestStart, bestLen] = [-1, 1];
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [bestStart, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}
