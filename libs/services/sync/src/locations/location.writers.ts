import type { SyncDialect } from '../read/resource-source';
import type { RecentLocation } from './location.model';

/**
 * How each dialect writes one place. Sync v9 as the public API documents it, an array
 * `[name, loc_lat, loc_long]`; api/v1 as an object, because every @doist/todoist-sdk that
 * speaks it (10.5, 11, 17) validates `locations` as `record<string, unknown>[]` and rejects an
 * array entry (client-schemas.md).
 */
export const LOCATION_WRITERS: Readonly<Record<SyncDialect, (place: RecentLocation) => unknown>> = {
  'sync-v9': (place) => [place.name, place.loc_lat, place.loc_long],
  'sync-api-v1': (place) => ({ name: place.name, loc_lat: place.loc_lat, loc_long: place.loc_long }),
};
