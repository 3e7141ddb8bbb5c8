import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import { LOCATION_LIST_COLUMNS, type LocationList, type RecentLocation, sameLocations, withRecentLocation } from './location.model';

const JSON_COLUMNS: ReadonlySet<string> = new Set(['entries']);

/** Each user's recent places (one row per user). Every method runs on the caller's transaction. */
@Injectable()
export class LocationRepository {
  /** The user's list; an empty one (id null, version 0) when none was ever recorded. */
  async find(manager: EntityManager, userId: string): Promise<LocationList> {
    const rows = await manager.query<LocationList[]>(`SELECT ${LOCATION_LIST_COLUMNS} FROM sync.locations WHERE user_id = $1`, [userId]);
    return rows[0] ?? { id: null, user_id: userId, entries: [], version: '0' };
  }

  /** Puts a place first in the user's list (see withRecentLocation); writes only when the list changes. */
  async record(manager: EntityManager, userId: string, place: RecentLocation, version: string): Promise<void> {
    // Makes sure the row exists, then locks it: concurrent first places cannot both insert.
    await manager.query(`INSERT INTO sync.locations (user_id, version) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING`, [userId, version]);
    const [list] = await manager.query<LocationList[]>(`SELECT ${LOCATION_LIST_COLUMNS} FROM sync.locations WHERE user_id = $1 FOR UPDATE`, [userId]);
    const entries = withRecentLocation(list.entries, place);
    if (!sameLocations(entries, list.entries)) await updateVersioned(manager, 'sync.locations', [list.id!], { entries }, version, { jsonColumns: JSON_COLUMNS });
  }

  /** Empties the user's list (reminders are not touched); writes only when there was something to clear. */
  async clear(manager: EntityManager, userId: string, version: string): Promise<void> {
    const rows = await manager.query<LocationList[]>(`SELECT ${LOCATION_LIST_COLUMNS} FROM sync.locations WHERE user_id = $1 FOR UPDATE`, [userId]);
    const list = rows[0];
    if (list && list.entries.length > 0) await updateVersioned(manager, 'sync.locations', [list.id!], { entries: [] }, version, { jsonColumns: JSON_COLUMNS });
  }
}
