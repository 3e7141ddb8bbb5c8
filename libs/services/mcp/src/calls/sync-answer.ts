import { projectApiV1, sectionApiV1, taskApiV1, userApiV1 } from '@doable/contracts-rest';
import { z } from 'zod';

/** An object only the Sync API has (filters, reminders): no api/v1 REST twin describes it, so only its id and tombstone are checked. */
const syncOnlyObject = z.looseObject({ id: z.string(), is_deleted: z.boolean().optional() });
export type SyncOnlyObject = z.output<typeof syncOnlyObject>;

/** A `completed_info` entry: what is completed under a project (and its archived sections), a section or a parent task. */
const completedInfoEntry = z.union([
  z.strictObject({ project_id: z.string(), completed_items: z.int().min(0), archived_sections: z.int().min(0) }),
  z.strictObject({ section_id: z.string(), id: z.string(), completed_items: z.int().min(0) }),
  z.strictObject({ item_id: z.string(), id: z.string(), completed_items: z.int().min(0) }),
]);
export type CompletedInfoEntry = z.output<typeof completedInfoEntry>;

/**
 * What a Sync API (api/v1) answer holds that the tools read, as the contract's schemas describe
 * it: the api/v1 dialect writes tasks, projects and sections with the writers whose output api/v1
 * REST answers, and the user as `GET /api/v1/user` does without its completion counters.
 * DomainCalls.sync parses every answer with it, as DomainCalls.rest parses a REST reply with the
 * operation's response schema: a key the answer loses or a value of another type is the answering
 * service's bug, found here rather than inside a tool.
 */
export const syncAnswerReply = z.looseObject({
  items: z.array(taskApiV1).optional(),
  projects: z.array(projectApiV1).optional(),
  sections: z.array(sectionApiV1).optional(),
  filters: z.array(syncOnlyObject).optional(),
  reminders: z.array(syncOnlyObject).optional(),
  user: userApiV1.omit({ completed_count: true, completed_today: true }).optional(),
  completed_info: z.array(completedInfoEntry).optional(),
  /** Per command uuid: `ok`, or its refusal (commandOutcome reads either). */
  sync_status: z.record(z.string(), z.unknown()).optional(),
  temp_id_mapping: z.record(z.string(), z.string()).optional(),
});
export type SyncAnswer = z.output<typeof syncAnswerReply>;

/** The resource types the tools list through the Sync API, each with its object. */
export type SyncListed = { readonly [Type in 'items' | 'projects' | 'sections' | 'filters' | 'reminders']: NonNullable<SyncAnswer[Type]>[number] };
export type SyncListedType = keyof SyncListed;

/** The lists of a Sync API answer, by resource type (those asked for). */
export type SyncLists = { readonly [Type in SyncListedType]?: ReadonlyArray<SyncListed[Type]> };
