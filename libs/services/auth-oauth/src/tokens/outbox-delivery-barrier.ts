import { AuthEvents } from '@doable/contracts-auth';
import type { DataSource } from 'typeorm';
import type { RevocationBarrier } from './revocation-barrier';

/** How often the outbox is looked at, and how long before the revocation is called unconfirmed. */
const POLL_MS = 50;
const GIVE_UP_MS = 10_000;

/**
 * The barrier of a CLI working on a running embedded system (`npm start`), which it cannot
 * reach over NATS: the system's own relay publishes the revocation events from the outbox, and
 * the in-process bus hands a broadcast to the gateway's listener before the relay marks the row
 * published (the listener runs on the next check phase; the mark needs a database round trip).
 * So once every revocation row of these tokens is marked, no gateway of that system accepts
 * them. Rejects (unconfirmed) when the system does not relay them in time.
 */
export class OutboxDeliveryBarrier implements RevocationBarrier {
  constructor(
    private readonly dataSource: DataSource,
    private readonly giveUpMs = GIVE_UP_MS,
  ) {}

  async revoked(tokenHashes: readonly string[]): Promise<void> {
    if (tokenHashes.length === 0) return;
    const deadline = Date.now() + this.giveUpMs;
    for (;;) {
      const [{ pending }] = await this.dataSource.query<Array<{ pending: number }>>(
        `SELECT count(*)::int AS pending FROM auth.outbox WHERE published_at IS NULL AND subject = $1 AND payload->>'tokenHash' = ANY($2::text[])`,
        [AuthEvents.tokenRevoked.name, tokenHashes],
      );
      if (pending === 0) return;
      if (Date.now() >= deadline) throw new Error(`${pending} revocation events not relayed within ${this.giveUpMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
