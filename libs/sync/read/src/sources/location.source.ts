import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type LocationList, LocationRepository } from '@doable/sync-domain';

/**
 * The `locations` resource: the user's recent places. Its entries have no ids, so there is
 * nothing to tombstone: an incremental sync carries the whole list when it changed after the
 * token's version (an empty list after clear_locations), and leaves the key out when it did not,
 * since clients replace their list with what they receive and `[]` would wipe it.
 * A full sync always carries it.
 */
@Injectable()
export class LocationSource implements ResourceSource<'locations'> {
  readonly type = 'locations' as const;

  constructor(private readonly locations: LocationRepository) {}

  async listActive(manager: EntityManager, userId: string): Promise<LocationList[]> {
    return [await this.locations.find(manager, userId)];
  }

  async listChangedSince(manager: EntityManager, userId: string, version: string): Promise<LocationList[]> {
    const list = await this.locations.find(manager, userId);
    return BigInt(list.version) > BigInt(version) ? [list] : [];
  }
}
