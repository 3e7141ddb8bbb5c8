import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The push tokens' signing key (one row, made by the PushKey migration). */
@Injectable()
export class PushKeyRepository {
  async key(manager: EntityManager): Promise<string> {
    const rows = await manager.query<Array<{ secret: string }>>(`SELECT secret FROM sync.push_key WHERE id = 1`);
    if (!rows[0]) throw new Error('sync.push_key has no key: run the sync migrations');
    return rows[0].secret;
  }
}
