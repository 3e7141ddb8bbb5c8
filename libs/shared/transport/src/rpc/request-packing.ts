import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { DomainError } from '@doable/shared-errors';

/**
 * Large requests travel compressed. NATS refuses messages over its max_payload (1 MB by
 * default), and an edge request carrying a 1 MiB body, which the gateway must accept, is just
 * over it once wrapped. JSON compresses well, so a request longer than PACK_ABOVE_CHARS is sent
 * deflated. The handler side inflates it before validation, with a bound on the output so a
 * small message cannot inflate into a huge one. What still does not fit is a coded 413
 * (see transport-error.ts).
 */
export const PACK_ABOVE_CHARS = 256 * 1024;
const MAX_UNPACKED_BYTES = 16 * 1024 * 1024;
const MARK = 'doable.packed.v1';

interface PackedRequest {
  readonly mark: typeof MARK;
  readonly deflated: string;
}

function isPacked(value: unknown): value is PackedRequest {
  return typeof value === 'object' && value !== null && (value as PackedRequest).mark === MARK && typeof (value as PackedRequest).deflated === 'string';
}

/** The message to send for a request: itself when small, deflated when large. */
export function packRequest(payload: unknown, aboveChars = PACK_ABOVE_CHARS): unknown {
  const json = JSON.stringify(payload);
  if (json === undefined || json.length <= aboveChars) return payload;
  return { mark: MARK, deflated: deflateRawSync(Buffer.from(json, 'utf8')).toString('base64') } satisfies PackedRequest;
}

/** The request a handler validates: the payload itself, or what a packed one inflates to. */
export function unpackRequest(payload: unknown): unknown {
  if (!isPacked(payload)) return payload;
  try {
    return JSON.parse(inflateRawSync(Buffer.from(payload.deflated, 'base64'), { maxOutputLength: MAX_UNPACKED_BYTES }).toString('utf8')) as unknown;
  } catch {
    throw new DomainError('PAYLOAD_TOO_LARGE', 'A packed request could not be unpacked within its size bound');
  }
}
