/** A place a location reminder was set on, as the user named it. Coordinates are strings, as reminders keep them. */
export interface RecentLocation {
  name: string;
  loc_lat: string;
  loc_long: string;
}

/**
 * A user's list of recently used places (the `locations` resource), most recent first: one row
 * per user, rewritten whole. The list has no ids of its own, so it is versioned as one object.
 */
export interface LocationList {
  /** null for a user who never set a location reminder (no row yet). */
  id: string | null;
  user_id: string;
  entries: RecentLocation[];
  version: string;
}

/**
 * How many places a list keeps. The list only feeds a "recent places" picker in the clients, and
 * it is rewritten whole on every location reminder and sent whole whenever it changes: without
 * a cap it would grow with the account's whole history and every such write and sync with it.
 * Twenty is more places than a picker shows.
 */
export const MAX_RECENT_LOCATIONS = 20;

export const LOCATION_LIST_COLUMNS = `id::text, user_id::text, entries, version::text`;

/** Same name, and the same coordinates as numbers ("52.5200" is "52.52"). */
function samePlace(a: RecentLocation, b: RecentLocation): boolean {
  return a.name === b.name && Number(a.loc_lat) === Number(b.loc_lat) && Number(a.loc_long) === Number(b.loc_long);
}

/** The list with a place used now: first, once (an older copy is dropped), and capped. */
export function withRecentLocation(entries: readonly RecentLocation[], place: RecentLocation): RecentLocation[] {
  return [place, ...entries.filter((entry) => !samePlace(entry, place))].slice(0, MAX_RECENT_LOCATIONS);
}

export function sameLocations(a: readonly RecentLocation[], b: readonly RecentLocation[]): boolean {
  return a.length === b.length && a.every((entry, index) => entry.name === b[index].name && entry.loc_lat === b[index].loc_lat && entry.loc_long === b[index].loc_long);
}
