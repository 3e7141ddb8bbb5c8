import type { Headers } from './in-process-broker';

/** The slice of NATS' MsgHdrs that handlers use, over a plain record (embedded mode). */
export class MessageHeaders {
  constructor(private readonly values: Headers) {}
  get(key: string): string {
    return this.values[key.toLowerCase()] ?? '';
  }
  has(key: string): boolean {
    return key.toLowerCase() in this.values;
  }
}
