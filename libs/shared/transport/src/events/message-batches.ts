const NOTHING_YET = Symbol('nothing yet');

/** Resolves after the work already queued (promise callbacks, the I/O just read) has run. */
function afterQueuedWork(): Promise<typeof NOTHING_YET> {
  return new Promise((resolve) => setImmediate(() => resolve(NOTHING_YET)));
}

/**
 * Batches from a stream of messages without waiting to fill them: a batch is the next message
 * (waited for) and those that have already arrived behind it, up to `max`. So a consumer that
 * keeps up handles each event at once, alone, and one that falls behind takes what piled up
 * while it worked in one go: the batches grow with the load, and no event waits for a batch to
 * fill. A message asked for but not yet come when a batch closes is the next batch's first.
 */
export class MessageBatches<T> {
  private pending: Promise<IteratorResult<T>> | undefined;
  private ended = false;

  constructor(
    private readonly messages: AsyncIterator<T>,
    private readonly max: number,
  ) {}

  /** The next batch, or undefined once the stream has ended. */
  async next(): Promise<T[] | undefined> {
    if (this.ended) return undefined;
    const first = await this.upcoming();
    this.pending = undefined;
    if (first.done) {
      this.ended = true;
      return undefined;
    }
    const batch = [first.value];
    while (batch.length < this.max) {
      const next = await Promise.race([this.upcoming(), afterQueuedWork()]);
      if (next === NOTHING_YET) break;
      this.pending = undefined;
      if (next.done) {
        this.ended = true;
        break;
      }
      batch.push(next.value);
    }
    return batch;
  }

  private upcoming(): Promise<IteratorResult<T>> {
    return (this.pending ??= this.messages.next());
  }
}
