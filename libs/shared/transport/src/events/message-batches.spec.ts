import { MessageBatches } from './message-batches';

/** An async stream fed by the test: what is pushed is there at once; `end` closes it. */
class Feed<T> implements AsyncIterator<T> {
  private readonly queued: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private ended = false;

  push(...items: T[]): void {
    for (const item of items) {
      const waiting = this.waiting;
      this.waiting = undefined;
      if (waiting) waiting({ done: false, value: item });
      else this.queued.push(item);
    }
  }

  end(): void {
    this.ended = true;
    this.waiting?.({ done: true, value: undefined });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queued.length > 0) return Promise.resolve({ done: false, value: this.queued.shift()! });
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

describe('MessageBatches', () => {
  it('takes what has already arrived, up to the maximum, and the rest as the next batch', async () => {
    const feed = new Feed<number>();
    feed.push(1, 2, 3, 4, 5);
    const batches = new MessageBatches(feed, 3);
    await expect(batches.next()).resolves.toEqual([1, 2, 3]);
    await expect(batches.next()).resolves.toEqual([4, 5]);
  });

  it('does not wait to fill a batch: one message alone is a batch', async () => {
    const feed = new Feed<number>();
    const batches = new MessageBatches(feed, 100);
    const first = batches.next();
    feed.push(1);
    await expect(first).resolves.toEqual([1]);
    // Asked for while the batch closed, it is the first of the next batch, with what came beside it.
    feed.push(2, 3);
    await expect(batches.next()).resolves.toEqual([2, 3]);
  });

  it('ends when the stream ends, after the messages it still had', async () => {
    const feed = new Feed<number>();
    feed.push(1, 2);
    feed.end();
    const batches = new MessageBatches(feed, 10);
    await expect(batches.next()).resolves.toEqual([1, 2]);
    await expect(batches.next()).resolves.toBeUndefined();
    await expect(batches.next()).resolves.toBeUndefined();
  });
});
