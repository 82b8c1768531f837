// Which network destinations an outgoing webhook may reach. Without this, a
// webhook URL is a way to make the server probe its own network (SSRF):
// loopback, private ranges, cloud metadata (169.254.169.254) and friends.
import net from 'node:net';

type Range = [prefix: bigint, bits: number, what: string];

const v4 = (a: string): bigint => {
  const parts = a.split('.').map(Number);
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
};

const V4_RANGES: Range[] = [
  [v4('0.0.0.0'), 8, 'an unspecified ("this network") address'],
  [v4('10.0.0.0'), 8, 'a private address'],
  [v4('100.64.0.0'), 10, 'a carrier-grade NAT address'],
  [v4('127.0.0.0'), 8, 'a loopback address'],
  [v4('169.254.0.0'), 16, 'a link-local address'],
  [v4('172.16.0.0'), 12, 'a private address'],
  [v4('192.0.0.0'), 24, 'an IETF protocol assignment address'],
  [v4('192.168.0.0'), 16, 'a private address'],
  [v4('198.18.0.0'), 15, 'a benchmarking address'],
  [v4('224.0.0.0'), 4, 'a multicast address'],
  [v4('240.0.0.0'), 4, 'a reserved or broadcast address'],
];

/** Expands an IPv6 literal (maybe with an embedded dotted IPv4 tail) to a 128-bit number. */
function v6(a: string): bigint {
  let text = a.split('%')[0] ?? a; // drop a zone id (fe80::1%eth0)
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const n = v4(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g || '0', 16)), 0n);
}

const V6_RANGES: Range[] = [
  [v6('fe80::'), 10, 'a link-local address'],
  [v6('fc00::'), 7, 'a unique-local (private) address'],
  [v6('ff00::'), 8, 'a multicast address'],
];

const inRange = (n: bigint, width: number, [prefix, bits]: Range) =>
  n >> BigInt(width - bits) === prefix >> BigInt(width - bits);

function checkV4(n: bigint): string | null {
  return V4_RANGES.find((r) => inRange(n, 32, r))?.[2] ?? null;
}

/**
 * Why an IP address is refused as a webhook destination, or null when it is a
 * public address. IPv4-mapped, IPv4-compatible and NAT64 IPv6 forms are judged
 * by the IPv4 address they carry.
 */
export function refusedAddressReason(address: string): string | null {
  const family = net.isIP(address);
  if (family === 4) return checkV4(v4(address));
  if (family !== 6) return 'not an IP address';
  const n = v6(address);
  if (n === 0n) return 'an unspecified address';
  if (n === 1n) return 'a loopback address';
  const top96 = n >> 32n;
  const low32 = n & 0xffffffffn;
  if (top96 === 0xffffn || top96 === 0n) return checkV4(low32); // ::ffff:a.b.c.d and ::a.b.c.d
  if (top96 === v6('64:ff9b::') >> 32n) return checkV4(low32); // NAT64 well-known prefix
  return V6_RANGES.find((r) => inRange(n, 128, r))?.[2] ?? null;
}

/** Host names that mean "this machine" whatever DNS says. */
export function isLocalHostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.+$/, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h === 'localhost.localdomain' ||
    h === 'ip6-localhost' ||
    h === 'ip6-loopback'
  );
}
