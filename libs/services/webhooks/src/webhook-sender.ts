import { lookup } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { hostOf, isAllowedAddress, type WebhookAddressPolicy, webhookUrlProblem } from '@doable/contracts-auth';

/** What one POST came to: a status, or an error (no status) when it never got one. */
export interface SendOutcome {
  readonly ok: boolean;
  readonly status: number | null;
  readonly error: string;
}

/** Read of a receiver's answer: enough to see it ended; the body is ignored. */
const MAX_RESPONSE_BYTES = 4096;

/**
 * A DNS lookup that refuses a name when ANY of its addresses is forbidden: the check happens on
 * the very addresses the socket connects to, so a name that resolved to a public address when it
 * was configured and to 127.0.0.1 now (DNS rebinding) is refused, never called.
 */
export function guardedLookup(policy: WebhookAddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const forbidden = addresses.find((entry) => !isAllowedAddress(entry.address, policy));
      if (forbidden) return callback(Object.assign(new Error(`${hostname} resolves to a refused address`), { code: 'WEBHOOK_ADDRESS_REFUSED' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * POSTs one webhook body: the policy checked again (the URL, an address literal, and every
 * resolved address), a timeout over the whole exchange, redirects not followed (a 3xx is a
 * failure), and at most a few KB of the answer read.
 */
export function sendWebhook(url: string, body: string, headers: Record<string, string>, options: { policy: WebhookAddressPolicy; timeoutMs: number }): Promise<SendOutcome> {
  const problem = webhookUrlProblem(url, options.policy);
  if (problem) return Promise.resolve({ ok: false, status: null, error: problem });
  const target = new URL(url);
  const host = hostOf(target);
  if (isIP(host) !== 0 && !isAllowedAddress(host, options.policy)) return Promise.resolve({ ok: false, status: null, error: 'refused address' });
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const requestOptions: RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup(options.policy),
      agent: false,
    };
    const outgoing = request(target, requestOptions, (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) response.destroy();
      });
      const done = () => settle({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? '' : `HTTP ${status}` });
      response.on('end', done);
      response.on('close', done);
      response.on('error', done);
    });
    const timer = setTimeout(() => {
      outgoing.destroy();
      settle({ ok: false, status: null, error: `no answer within ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    outgoing.on('error', (err) => settle({ ok: false, status: null, error: err.message }));
    outgoing.end(body);
  });
}
