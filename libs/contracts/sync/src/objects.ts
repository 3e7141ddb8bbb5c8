import { commandUuid, principalSchema, type Principal, storableString } from '@doable/contracts-common';
import { z } from 'zod';

/**
 * Object reads and single writes for the resource-style dialects (REST v1, REST v2, api/v1 REST).
 * The rest service keeps no data: it sends sync commands (so every rule, limit, event and
 * idempotency guarantee is the Sync API's) and then asks for objects, which come back in the
 * api/v1 shape (`ApiTask`, `ApiProject`, ...: the query's resource decides which, see
 * object-replies.ts). Each dialect maps them from there.
 */

/**
 * The Sync command uuid a request's `X-Request-Id` stands for: REST writes and quick add record
 * their outcome under it, so a replayed request is answered from the command log, and ids sent
 * by REST clients never collide with the uuids Sync clients choose.
 */
export const requestIdUuid = (requestId: string): string => `rest:${requestId}`;

/** An object id, or a temp id created by the same request's commands. */
const objectId = z.string().min(1).max(100);
const name = z.string().min(1).max(1024);

/** Offset pages; the rest service wraps them in opaque cursors bound to user and parameters. */
export const pageSchema = z.object({ limit: z.number().int().min(1).max(200), offset: z.number().int().min(0).max(1_000_000) });
export type Page = z.infer<typeof pageSchema>;

const page = { page: pageSchema.optional() };
/**
 * Task queries may ask for the ids of the personal labels the returned tasks carry (REST v1
 * writes `label_ids`). Only those labels are named, so a `task:add` token can be answered the
 * task it created without being allowed to read the label list.
 */
const withLabelIds = { label_ids: z.boolean().optional() };

/** The object kinds api/v1 `id_mappings/{obj}/{ids}` answers for. */
export const ID_MAPPING_OBJECTS = ['sections', 'tasks', 'comments', 'reminders', 'location_reminders', 'projects'] as const;
export type IdMappingObject = (typeof ID_MAPPING_OBJECTS)[number];

export const objectQuerySchema = z.discriminatedUnion('resource', [
  z.object({
    resource: z.literal('tasks'),
    ids: z.array(objectId).max(500).optional(),
    project_id: objectId.optional(),
    section_id: objectId.optional(),
    parent_id: objectId.optional(),
    label: name.optional(),
    ...withLabelIds,
    ...page,
  }),
  z.object({ resource: z.literal('tasks_by_filter'), filter: z.string().min(1).max(1024), lang: z.string().max(8).optional(), ...withLabelIds, ...page }),
  z.object({ resource: z.literal('task'), id: objectId, ...withLabelIds }),
  z.object({ resource: z.literal('projects'), archived: z.boolean().optional(), search: name.optional(), ...page }),
  z.object({ resource: z.literal('project'), id: objectId }),
  z.object({ resource: z.literal('sections'), project_id: objectId.optional(), search: name.optional(), archived: z.boolean().optional(), ...page }),
  z.object({ resource: z.literal('section'), id: objectId }),
  z.object({ resource: z.literal('labels'), search: name.optional(), ...page }),
  z.object({ resource: z.literal('label'), id: objectId }),
  z.object({ resource: z.literal('shared_labels'), omit_personal: z.boolean().optional(), ...page }),
  z.object({ resource: z.literal('comments'), task_id: objectId.optional(), project_id: objectId.optional(), ...page }),
  z.object({ resource: z.literal('comment'), id: objectId }),
  z.object({ resource: z.literal('collaborators'), project_id: objectId, ...page }),
  /** A project's open invitations, addresses with no account included (Doable's own `projects/{id}/invitations`). */
  z.object({ resource: z.literal('project_invitations'), project_id: objectId }),
  z.object({ resource: z.literal('user') }),
  z.object({ resource: z.literal('productivity_stats') }),
  /** The user's archived projects, or (with workspace_id) the archived projects of a workspace they can see. */
  z.object({ resource: z.literal('archived_projects_count'), workspace_id: objectId.optional() }),
  /** A project with its active tasks, sections, people and comments (api/v1 `projects/{id}/full`). */
  z.object({ resource: z.literal('project_full'), id: objectId }),
  /** The workspaces the user is an active member of (api/v1 `workspaces`), and one of them. */
  z.object({ resource: z.literal('workspaces') }),
  z.object({ resource: z.literal('workspace'), id: objectId }),
  /** Members of one workspace, or of all the user's workspaces (api/v1 `workspaces/users`). */
  z.object({ resource: z.literal('workspace_users'), workspace_id: objectId.optional(), ...page }),
  /** Pending invitations of one workspace, or of every workspace where the user may invite. */
  z.object({ resource: z.literal('workspace_invitations'), workspace_id: objectId.optional() }),
  /**
   * One invitation, in any state: the user's own by its secret (what accept/reject answer), or a
   * workspace's to an email (what invitations/delete answers, read before it is deleted).
   */
  z.object({ resource: z.literal('workspace_invitation'), invitation_secret: z.string().min(1).max(200).optional(), workspace_id: objectId.optional(), email: z.string().min(1).max(320).optional() }),
  z.object({ resource: z.literal('workspace_plan_details'), workspace_id: objectId }),
  /** A member's membership (api/v1 JoinWorkspaceResult): the user's own by workspace or join code, or another member's by id. */
  z.object({ resource: z.literal('workspace_membership'), workspace_id: objectId.optional(), invite_code: z.string().min(1).max(200).optional(), user_id: objectId.optional() }),
  /** A workspace's projects the user can see or join (api/v1 `workspaces/{id}/projects/active|archived`). */
  z.object({ resource: z.literal('workspace_projects'), workspace_id: objectId, archived: z.boolean(), ...page }),
  z.object({ resource: z.literal('folders'), workspace_id: objectId.optional(), ...page }),
  z.object({ resource: z.literal('folder'), id: objectId }),
  /** What `projects/{id}/join` answers: the project with what it holds, its people and their states, its folder and subprojects. */
  z.object({ resource: z.literal('project_joined'), id: objectId }),
  /** Which of these ids name objects the user can see (api/v1 `id_mappings`); at most 100. */
  z.object({ resource: z.literal('id_mappings'), object: z.enum(ID_MAPPING_OBJECTS), ids: z.array(objectId).min(1).max(100) }),
  /**
   * What each project and workspace role may do (api/v1 `projects/permissions`): one object,
   * derived by sync from its commands' declared policies, the same the role_actions resource holds.
   */
  z.object({ resource: z.literal('role_permissions') }),
]);
export type ObjectQuery = z.infer<typeof objectQuerySchema>;
export type ObjectResource = ObjectQuery['resource'];

export const objectCommandSchema = z.object({
  type: storableString.min(1).max(64),
  uuid: commandUuid,
  temp_id: storableString.min(1).max(100).optional(),
  args: z.record(z.string(), z.unknown()),
});
export type ObjectCommand = z.infer<typeof objectCommandSchema>;

export const objectsRequestSchema = z.object({
  principal: principalSchema,
  /** Run first, in order; the first refused command fails the request with its own error. */
  commands: z.array(objectCommandSchema).max(100),
  /** Read after the commands; temp ids of those commands resolve. */
  query: objectQuerySchema.nullable(),
  /** The origin the caller reached (`scheme://host[:port]`): the user object's `websocket_url` names the push channel there. */
  origin: z.string().max(2048).optional(),
  render: z.object({ dialect: z.literal('rest-v2'), public_url: z.string().min(1).max(2048) }).optional(),
});

/**
 * An answer the caller wants written in its own dialect rather than as api/v1 objects: REST v2,
 * whose writers are the sync service's (libs/sync/dialects/src/rest-v2), with `url`s under
 * `public_url`. The answer is then `body`, the JSON text of the object or the list: rest passes it
 * on as it is, where it would otherwise parse hundreds of api/v1 tasks only to write and
 * serialise them again. Release 1.0.0 rendered task lists only: a rest of a later release asks
 * the others of a sync of its own release (sync is rolled before rest, docs/operations/upgrades.md).
 */
export type ObjectsRender = NonNullable<z.infer<typeof objectsRequestSchema>['render']>;

/** The queries an answer may be rendered of: the objects REST v2 has (a single object, or a list of them). */
export const RENDERED_RESOURCES = [
  'task',
  'tasks',
  'tasks_by_filter',
  'project',
  'projects',
  'section',
  'sections',
  'label',
  'labels',
  'comment',
  'comments',
  'collaborators',
] as const satisfies readonly ObjectResource[];
export type RenderedResource = (typeof RENDERED_RESOURCES)[number];

const RENDERED: ReadonlySet<ObjectResource> = new Set(RENDERED_RESOURCES);

/** A query an answer may be rendered of. */
export type RenderedQuery = Extract<ObjectQuery, { resource: RenderedResource }>;

export function isRenderedQuery(query: ObjectQuery): query is RenderedQuery {
  return RENDERED.has(query.resource);
}

export interface ObjectsRequest {
  readonly principal: Principal;
  readonly commands: readonly ObjectCommand[];
  readonly query: ObjectQuery | null;
  readonly origin?: string;
  /** Only with a query of a RENDERED_RESOURCES resource. */
  readonly render?: ObjectsRender;
}
