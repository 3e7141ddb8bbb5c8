/**
 * DNS-rebinding protection (MCP transports, "Security Warning"): a page on another site must not
 * reach the assistant server through a browser by pointing its own name at this address. The
 * Host it reached must be one of ours, and a browser's Origin (clients outside browsers send
 * none) must be one we trust or the very site the request reached.
 */
export interface HostOriginPolicy {
  /** Host names (no port): a request to any port of these is ours. */
  readonly hosts: ReadonlySet<string>;
  /** Origins (`scheme://host[:port]`) whose pages may call. */
  readonly origins: ReadonlySet<string>;
}

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

function hostnameOf(hostOrUrl: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(hostOrUrl) ? hostOrUrl : `http://${hostOrUrl}`;
  try {
    return new URL(withScheme).hostname.toLowerCase();
  } catch {
    return '';
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return '';
  }
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** From the settings: explicit lists, or the public URL's host and the local names. */
export function hostOriginPolicy(publicUrl: string, allowedHosts: string, allowedOrigins: string): HostOriginPolicy {
  const hosts = allowedHosts.trim() !== '' ? list(allowedHosts).map(hostnameOf) : [hostnameOf(publicUrl), ...LOCAL_HOSTS];
  const origins = allowedOrigins.trim() !== '' ? list(allowedOrigins).map(originOf) : [originOf(publicUrl)];
  return { hosts: new Set(hosts.filter((host) => host !== '')), origins: new Set(origins.filter((origin) => origin !== '')) };
}

export type HostOriginVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/**
 * `reached`: `scheme://host[:port]` as the gateway was addressed; `origin`: the Origin header,
 * when a browser sent one.
 */
export function checkHostOrigin(policy: HostOriginPolicy, reached: string | undefined, origin: string | undefined): HostOriginVerdict {
  const host = reached === undefined ? '' : hostnameOf(reached);
  if (!policy.hosts.has(host)) return { allowed: false, reason: `Host ${host || '(none)'} is not allowed` };
  if (origin === undefined || origin === '') return { allowed: true };
  const normalised = originOf(origin);
  if (normalised !== '' && (policy.origins.has(normalised) || (reached !== undefined && normalised === originOf(reached)))) return { allowed: true };
  return { allowed: false, reason: `Origin ${origin} is not allowed` };
}
