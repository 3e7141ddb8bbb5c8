import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { checkClientIdUrl, checkClientMetadataDocument, type ClientMetadata, isPublicAddress, METADATA_MAX_BYTES, METADATA_TIMEOUT_MS, type MetadataFetchPolicy } from './client-metadata-policy';

export type MetadataResult = { readonly ok: true; readonly metadata: ClientMetadata } | { readonly ok: false; readonly reason: string };

/**
 * The address check runs in the connection's own DNS lookup, so the address connected to is the
 * one checked: a name that answers a public address first and a private one second (DNS
 * rebinding) cannot slip between a check and the fetch.
 */
function guardedLookup(policy: MetadataFetchPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.find((entry) => !policy.allowPrivate && !isPublicAddress(entry.address));
      if (refused || addresses.length === 0) return callback(new Error(`${hostname} resolves to a non-public address`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** GETs a client's metadata document: a short deadline, a small size cap, no redirects, JSON only. */
export function fetchClientMetadata(clientId: string, policy: MetadataFetchPolicy): Promise<MetadataResult> {
  const checked = checkClientIdUrl(clientId, policy);
  if (!checked.ok) return Promise.resolve(checked);
  // An address written in the URL is connected to without any lookup: checked here instead.
  const literal = checked.url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) !== 0 && !policy.allowPrivate && !isPublicAddress(literal)) return Promise.resolve({ ok: false, reason: `${literal} is a non-public address` });
  const request = checked.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<MetadataResult>((resolve) => {
    const refuse = (reason: string) => resolve({ ok: false, reason });
    const req = request(checked.url, { method: 'GET', headers: { accept: 'application/json' }, lookup: guardedLookup(policy), timeout: METADATA_TIMEOUT_MS }, (res) => {
      // No redirects: the document must be at the URL that names the client.
      if (res.statusCode !== 200) {
        res.resume();
        return refuse(`the document answered HTTP ${res.statusCode}`);
      }
      if (!/^application\/(.+\+)?json\b/i.test(res.headers['content-type'] ?? '')) {
        res.resume();
        return refuse('the document is not JSON');
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > METADATA_MAX_BYTES) {
          req.destroy();
          return refuse(`the document is larger than ${METADATA_MAX_BYTES} bytes`);
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        if (size > METADATA_MAX_BYTES) return;
        try {
          resolve(checkClientMetadataDocument(clientId, JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown));
        } catch {
          refuse('the document is not valid JSON');
        }
      });
      res.on('error', () => refuse('the document could not be read'));
    });
    req.on('timeout', () => {
      req.destroy();
      refuse('the document did not arrive in time');
    });
    req.on('error', (err) => refuse(`the document could not be fetched: ${err.message}`));
    req.end();
  });
}
