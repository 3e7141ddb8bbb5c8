import type { ApiProject, ApiSection, ApiSyncUser, ApiTask } from '@doable/contracts-sync';

/** An object only the Sync API has (filters, reminders): no api/v1 REST twin to type it, so read as JSON. */
export type SyncOnlyObject = { readonly id: string; readonly is_deleted?: boolean } & Readonly<Record<string, unknown>>;

/** A `completed_info` entry: what is completed under a project, a section or a parent task. */
export type CompletedInfoEntry = { readonly completed_items: number } & ({ readonly project_id: string } | { readonly section_id: string } | { readonly item_id: string });

/**
 * The resource types the tools list through the Sync API, each with its object: the api/v1
 * dialect writes tasks, projects and sections with the writers whose output api/v1 REST answers
 * (the contract's Api* types).
 */
export interface SyncListed {
  readonly items: ApiTask;
  readonly projects: ApiProject;
  readonly sections: ApiSection;
  readonly filters: SyncOnlyObject;
  readonly reminders: SyncOnlyObject;
}
export type SyncListedType = keyof SyncListed;

/** The lists of a Sync API answer, by resource type (those asked for). */
export type SyncLists = { readonly [Type in SyncListedType]?: ReadonlyArray<SyncListed[Type]> };

/** What a Sync API (api/v1) answer holds that the tools read: the lists asked for, the user, completed_info, and the commands' outcomes. */
export type SyncAnswer = SyncLists & {
  readonly user?: ApiSyncUser;
  readonly completed_info?: readonly CompletedInfoEntry[];
  readonly sync_status?: Readonly<Record<string, unknown>>;
  readonly temp_id_mapping?: Record<string, string>;
};
