/**
 * Text pieces as one UTF-8 message, each encoded straight into its place: no joined string for V8
 * to flatten first (a 100 KB event's envelope is three pieces, see envelopeTextParts), and the
 * bytes outside V8's heap. A fresh buffer per message: the NATS client may hold it until it flushes.
 */
export function utf8Message(parts: readonly string[]): Uint8Array {
  if (parts.length === 1) return Buffer.from(parts[0], 'utf8');
  const bytes = Buffer.allocUnsafe(parts.reduce((sum, part) => sum + Buffer.byteLength(part, 'utf8'), 0));
  let at = 0;
  for (const part of parts) at += bytes.write(part, at, 'utf8');
  return bytes;
}
