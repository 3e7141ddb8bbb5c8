/**
 * UTF-8 bytes cut into slices of at most `maxBytes`, never inside a character: each slice
 * decodes to text on its own, and the texts joined are the text of the whole. A cut that falls
 * on a continuation byte (10xxxxxx) moves back to the start of its character.
 */
export function utf8Slices(bytes: Buffer, maxBytes: number): Buffer[] {
  // Four bytes is the longest UTF-8 character: a smaller slice could not always advance.
  if (maxBytes < 4) throw new RangeError(`slices of ${maxBytes} bytes cannot hold every character`);
  const slices: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    let end = Math.min(start + maxBytes, bytes.length);
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--;
    slices.push(bytes.subarray(start, end));
    start = end;
  }
  return slices;
}
