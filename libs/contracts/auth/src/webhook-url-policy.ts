import { BlockList, isIP } from 'node:net';

/** What an operator allows of webhook receivers (WEBHOOKS_ALLOW_HTTP, WEBHOOKS_ALLOW_PRIVATE). */
export interface WebhookAddressPolicy {
  /** Plain http receivers (a self-hosted network); otherwise https only, the public rule. */
  readonly allowHttp: boolean;
  /** Loopback, link-local, private and other non-public addresses; otherwise refused (no SSRF). */
  readonly allowPrivate: boolean;
}

/**
 * Addresses a receiver may not have unless private receivers are allowed: anything that is not
 * the public internet (RFC 6890 special-purpose ranges), so a callback URL cannot reach the
 * cluster's own services, the cloud metadata endpoint (169.254.169.254) or the host itself.
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is its IPv4 address. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Whether a receiver at this IP address may be called under the policy. */
export function isAllowedAddress(address: string, policy: WebhookAddressPolicy): boolean {
  if (isIP(address) === 0) return false;
  if (policy.allowPrivate) return true;
  const { address: plain, family } = unmapped(address);
  return !NON_PUBLIC.check(plain, family);
}

/**
 * Why a callback URL is refused at configuration time, or undefined when it is acceptable:
 * absolute https (http when allowed), no credentials, no fragment, and a host that is not a
 * forbidden address literal or a name that is one by definition (localhost). Names are
 * resolved again at each delivery, and refused if any address is forbidden (DNS rebinding).
 */
export function webhookUrlProblem(value: string, policy: WebhookAddressPolicy): string | undefined {
  if (value.length > 2000) return 'The callback URL is longer than 2000 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'The callback URL is not an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    return policy.allowHttp ? 'The callback URL must use http or https' : 'The callback URL must use https';
  }
  if (url.username !== '' || url.password !== '') return 'The callback URL must not contain credentials';
  if (url.hash !== '' || value.includes('#')) return 'The callback URL must not contain a fragment';
  const host = hostOf(url);
  if (!policy.allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) return 'The callback URL must not name a loopback host';
  if (isIP(host) !== 0 && !isAllowedAddress(host, policy)) return 'The callback URL must not name a loopback, link-local or private address';
  return undefined;
}

/** The URL's host as a name or a bare IP address (IPv6 without its brackets). */
export function hostOf(url: URL): string {
  const host = url.hostname.toLowerCase();
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host.replace(/\.$/, '');
}
