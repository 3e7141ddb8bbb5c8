import { isUtf8 } from 'node:buffer';
import { DomainError } from '@doable/shared-errors';

function invalidUtf8(): DomainError {
  return new DomainError('INVALID_UTF8', 'The request body is not valid UTF-8');
}

/** A body declared (or defaulted) UTF-8 must be UTF-8: decoding would silently turn bad bytes into U+FFFD. */
export function checkUtf8Bytes(raw: Buffer, charset: string | null): void {
  if ((charset ?? 'utf-8') === 'utf-8' && !isUtf8(raw)) throw invalidUtf8();
}

/** Runs of percent-escapes (`%C3%A9`): the bytes a form value spells once decoded. */
const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/g;

/**
 * A form body is ASCII on the wire; its values are UTF-8 once percent-decoded. Each run of
 * escapes must decode to valid UTF-8 (a lone `%FF` would otherwise become U+FFFD). A `%` not
 * followed by two hex digits stays literal, as the parser keeps it.
 */
export function checkFormBytes(raw: Buffer, charset: string | null): void {
  checkUtf8Bytes(raw, charset);
  for (const run of raw.toString('latin1').matchAll(PERCENT_RUN)) {
    if (!isUtf8(Buffer.from(run[0].replace(/%/g, ''), 'hex'))) throw invalidUtf8();
  }
}
