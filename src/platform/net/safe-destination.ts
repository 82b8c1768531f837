// Vets outgoing webhook destinations twice: when an endpoint is registered
// (parse, scheme, resolve every address) and on every connection (a `lookup`
// hook for node:http that refuses any resolved address outside the public
// internet). The second check is what defeats DNS rebinding: the socket
// connects to exactly the address that was vetted.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import { isLocalHostName, refusedAddressReason } from './address-policy.js';

export class UnsafeDestinationError extends Error {
  override name = 'UnsafeDestinationError';
}

export interface ResolvedAddress {
  address: string;
  family: number;
}
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** `new URL('http://[::1]').hostname` keeps the brackets; sockets want them off. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/** The checks that need no DNS: scheme, local names, IP literals. Throws UnsafeDestinationError. */
export function parseDestination(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeDestinationError('is not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsafeDestinationError(`must use http or https, not ${url.protocol.replace(/:$/, '')}`);
  }
  const host = bareHost(url.hostname);
  if (!host) throw new UnsafeDestinationError('has no host');
  if (allowPrivate) return url;
  if (isLocalHostName(host)) throw new UnsafeDestinationError(`points at this machine (${host})`);
  if (net.isIP(host)) assertPublicAddress(host);
  return url;
}

export function assertPublicAddress(address: string): void {
  const reason = refusedAddressReason(address);
  if (reason) {
    throw new UnsafeDestinationError(
      `resolves to ${address}, ${reason}; private destinations need WEBHOOK_ALLOW_PRIVATE=true`,
    );
  }
}

/**
 * Full registration-time check: also resolves the host name and refuses it if
 * any of its addresses is not public (an attacker controls which one we get).
 */
export async function vetDestination(
  raw: string,
  opts: { allowPrivate: boolean; resolver?: Resolver },
): Promise<URL> {
  const url = parseDestination(raw, opts.allowPrivate);
  const host = bareHost(url.hostname);
  if (opts.allowPrivate || net.isIP(host)) return url;
  let addresses: ResolvedAddress[];
  try {
    addresses = await (opts.resolver ?? systemResolver)(host);
  } catch {
    throw new UnsafeDestinationError(`host ${host} does not resolve`);
  }
  if (addresses.length === 0) throw new UnsafeDestinationError(`host ${host} does not resolve`);
  for (const a of addresses) assertPublicAddress(a.address);
  return url;
}

/**
 * A `lookup` for http.request that resolves like the system does and then
 * refuses non-public answers, so the connection can only go to a vetted address.
 */
export function guardedLookup(allowPrivate: boolean, resolver: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname)
      .then((found) => {
        const family = typeof options === 'object' ? options.family : undefined;
        const usable = found.filter((a) => !family || a.family === family);
        if (usable.length === 0) throw new UnsafeDestinationError(`host ${hostname} does not resolve`);
        if (!allowPrivate) for (const a of usable) assertPublicAddress(a.address);
        if (typeof options === 'object' && options.all) {
          (callback as (e: Error | null, a: ResolvedAddress[]) => void)(null, usable);
        } else {
          const first = usable[0] as ResolvedAddress;
          callback(null, first.address, first.family);
        }
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, '', 0));
  };
}
