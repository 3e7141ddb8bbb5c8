/**
 * nats.js gathers a message that spans socket reads in a buffer that starts as a copy of the
 * first read's tail and doubles as the rest arrive, copying what it holds at every doubling: a
 * 580 KB REST v2 list or a 900 KB chunk of a full sync, read 64 KiB at a time, was copied about
 * twice over, each time into fresh memory (the gateway and rest: 0.6-0.8 ms of CPU per list in
 * bench S5, issue #48). Once the parser has read a message's size (its MSG line) and starts
 * gathering, this hands it a buffer of that size, so every read is copied once, where it stays.
 *
 * It changes the parser's prototype, once per process (every connection's parser, and the ones
 * nats.js makes anew on a reconnect, share it), and leaves a parser of a shape it does not know
 * (another nats.js version) as it is.
 */
interface GatheringBuffer {
  readonly length: number;
  readonly capacity: number;
  bytes(options: { copy: boolean }): Uint8Array;
  reset(): void;
  write(bytes: Uint8Array): number;
}

interface ParserInternals {
  msgBuf?: GatheringBuffer;
  ma?: { size?: unknown };
  parse: (this: ParserInternals, buf: Uint8Array) => void;
}

const SIZED = Symbol('sizedInbound');

type GatheringBufferClass = new (bytes: ArrayBuffer) => GatheringBuffer;

/** Applies to the parser of this connection's protocol (and so to every parser of its class). */
export function sizeInboundMessages<T extends object>(connection: T): T {
  const parser = (connection as { protocol?: { parser?: ParserInternals } }).protocol?.parser;
  if (parser) sizeGatheringOf(parser);
  return connection;
}

/** The patch itself, on a parser's prototype (exported for the spec, which drives a bare parser). */
export function sizeGatheringOf(parser: ParserInternals): void {
  const prototype = Object.getPrototypeOf(parser) as ParserInternals & { [SIZED]?: true };
  if (prototype[SIZED] || typeof prototype.parse !== 'function' || !('msgBuf' in parser)) return;
  prototype[SIZED] = true;
  const parse = prototype.parse;
  prototype.parse = function (this: ParserInternals, buf: Uint8Array): void {
    const gathering = this.msgBuf;
    parse.call(this, buf);
    const started = this.msgBuf;
    const size = this.ma?.size;
    if (!started || started === gathering || typeof size !== 'number' || started.capacity >= size) return;
    // The buffer's own class, so whatever else nats.js asks of it keeps working.
    const sized = new (started.constructor as GatheringBufferClass)(new ArrayBuffer(size));
    sized.reset();
    sized.write(started.bytes({ copy: false }));
    this.msgBuf = sized;
  };
}
