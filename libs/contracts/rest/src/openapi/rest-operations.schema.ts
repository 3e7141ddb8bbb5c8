import { z } from 'zod';
import { collaborator, commentV2, labelV2, projectV2, sectionV2, taskV2 } from './rest-v2-objects.schema';
import { collaboratorStateApiV1, commentApiV1, labelApiV1, page, projectApiV1, projectInvitationApiV1, projectPersonApiV1, rolePermissionsApiV1, sectionApiV1, taskApiV1 } from './api-v1-objects.schema';
import * as input from './rest-inputs.schema';
import {
  folderApiV1,
  productivityStatsApiV1,
  userApiV1,
  workspaceApiV1,
  workspaceInvitationApiV1,
  workspaceMembershipApiV1,
  workspacePlanDetailsApiV1,
  workspaceUserApiV1,
} from './api-v1-account-objects.schema';

/**
 * Each REST v2 and api/v1 operation's contract: what it takes (query, JSON body) and what it
 * answers (a 200 body, or 204). The rest service validates requests with `query` and `body`;
 * the OpenAPI document and the e2e response check are generated from all of it. REST v1 is
 * not described (its readers stay as they are).
 */
export type DocumentedSurface = 'rest-v2' | 'rest-api-v1';
export const DOCUMENTED_SURFACES: readonly DocumentedSurface[] = ['rest-v2', 'rest-api-v1'];

export interface OperationContract {
  readonly query?: z.ZodObject;
  readonly body?: z.ZodObject;
  /** The 200 body; null: the operation answers 204 with no body. */
  readonly response: z.ZodType | null;
}

type Contracts = Readonly<Record<string, Partial<Record<DocumentedSurface, OperationContract>>>>;

/** A contract whose response schema keeps its type (MCP reads its replies by it). */
type Answering<Response extends z.ZodType | null> = OperationContract & { readonly response: Response };

interface Kind {
  readonly v2: z.ZodType;
  readonly api: z.ZodType;
}
const TASK = { v2: taskV2, api: taskApiV1 } satisfies Kind;
const PROJECT = { v2: projectV2, api: projectApiV1 } satisfies Kind;
const SECTION = { v2: sectionV2, api: sectionApiV1 } satisfies Kind;
const LABEL = { v2: labelV2, api: labelApiV1 } satisfies Kind;
const COMMENT = { v2: commentV2, api: commentApiV1 } satisfies Kind;
const COLLABORATOR = { v2: collaborator, api: collaborator } satisfies Kind;
const SHARED_LABEL = { v2: z.string(), api: z.string() } satisfies Kind;

type Both<V2 extends z.ZodType | null, Api extends z.ZodType | null> = { readonly 'rest-v2': Answering<V2>; readonly 'rest-api-v1': Answering<Api> };

/** The same contract on both surfaces, each answering its own object (null: 204 on both). */
function both<K extends Kind>(kind: K, contract?: Omit<OperationContract, 'response'>): Both<K['v2'], K['api']>;
function both(kind: null, contract?: Omit<OperationContract, 'response'>): Both<null, null>;
function both(kind: Kind | null, contract: Omit<OperationContract, 'response'> = {}): Both<z.ZodType | null, z.ZodType | null> {
  return { 'rest-v2': { ...contract, response: kind?.v2 ?? null }, 'rest-api-v1': { ...contract, response: kind?.api ?? null } };
}

/** A list: a whole array on REST v2, a `{results, next_cursor}` page on api/v1. */
function list<V2 extends z.ZodType, Api extends z.ZodType>(kind: { readonly v2: V2; readonly api: Api }, query: z.ZodObject = z.object({}), apiQuery: z.ZodObject = query): Both<z.ZodArray<V2>, ReturnType<typeof page<Api>>> {
  return {
    'rest-v2': { query, response: z.array(kind.v2) },
    'rest-api-v1': { query: apiQuery.extend(input.pageQuery.shape), response: page(kind.api) },
  };
}

const api = <C extends OperationContract>(contract: C) => ({ 'rest-api-v1': contract });
const apiPage = <T extends z.ZodType>(item: T, query: z.ZodObject = z.object({})) => api({ query: query.extend(input.pageQuery.shape), response: page(item) });

const projectFull = z.strictObject({ project: projectApiV1, comments_count: z.int().min(0), tasks: z.array(taskApiV1), sections: z.array(sectionApiV1), collaborators: z.array(projectPersonApiV1), notes: z.array(commentApiV1) });
const projectJoined = projectFull.omit({ comments_count: true }).extend({ items: z.array(taskApiV1), comments: z.array(commentApiV1), collaborator_states: z.array(collaboratorStateApiV1), folder: folderApiV1.nullable(), subprojects: z.array(projectApiV1) });

export const REST_OPERATION_CONTRACTS = {
  'tasks.filter': api({ query: input.taskFilterQuery, response: page(taskApiV1) }),
  'tasks.list': { 'rest-v2': { query: input.taskListQueryV2, response: z.array(taskV2) }, 'rest-api-v1': { query: input.taskListQueryApiV1, response: page(taskApiV1) } },
  'tasks.create': both(TASK, { body: input.taskCreateBody }),
  'tasks.get': both(TASK),
  'tasks.update': both(TASK, { body: input.taskUpdateBody }),
  'tasks.delete': both(null),
  'tasks.close': both(null),
  'tasks.reopen': both(null),
  'tasks.move': api({ body: input.taskMoveBody, response: taskApiV1 }),

  'projects.archived_count': api({ query: z.object({ workspace_id: input.workspaceScopedQuery.shape.workspace_id }), response: z.strictObject({ count: z.int().min(0) }) }),
  'projects.archived': apiPage(projectApiV1),
  'projects.permissions': api({ response: rolePermissionsApiV1 }),
  'projects.search': api({ query: input.searchQuery, response: page(projectApiV1) }),
  'projects.move_to_workspace': api({ body: input.projectMoveToWorkspaceBody, response: z.strictObject({ project: projectApiV1 }) }),
  'projects.move_to_personal': api({ body: input.projectMoveToPersonalBody, response: z.strictObject({ project: projectApiV1 }) }),
  'projects.list': list(PROJECT),
  'projects.create': { 'rest-v2': { body: input.projectCreateBodyV2, response: projectV2 }, 'rest-api-v1': { body: input.projectCreateBodyApiV1, response: projectApiV1 } },
  'projects.get': both(PROJECT),
  'projects.update': { 'rest-v2': { body: input.projectUpdateBodyV2, response: projectV2 }, 'rest-api-v1': { body: input.projectUpdateBodyApiV1, response: projectApiV1 } },
  'projects.delete': both(null),
  'projects.archive': api({ response: projectApiV1 }),
  'projects.unarchive': api({ response: projectApiV1 }),
  'projects.collaborators': list(COLLABORATOR),
  'projects.invitations': api({ response: z.array(projectInvitationApiV1) }),
  'projects.full': api({ response: projectFull }),
  'projects.join': api({ response: projectJoined }),

  'sections.search': api({ query: input.sectionSearchQuery, response: page(sectionApiV1) }),
  'sections.archived': apiPage(sectionApiV1, input.sectionListQuery),
  'sections.list': list(SECTION, input.sectionListQuery),
  'sections.create': both(SECTION, { body: input.sectionCreateBody }),
  'sections.get': both(SECTION),
  'sections.update': { 'rest-v2': { body: input.sectionUpdateBodyV2, response: sectionV2 }, 'rest-api-v1': { body: input.sectionUpdateBodyApiV1, response: sectionApiV1 } },
  'sections.delete': both(null),
  'sections.archive': api({ response: sectionApiV1 }),
  'sections.unarchive': api({ response: sectionApiV1 }),

  'labels.shared': list(SHARED_LABEL, input.sharedLabelsQuery),
  'labels.shared.rename': both(null, { body: input.sharedLabelRenameBody }),
  'labels.shared.remove': both(null, { body: input.sharedLabelRemoveBody }),
  'labels.search': api({ query: input.searchQuery, response: page(labelApiV1) }),
  'labels.list': list(LABEL),
  'labels.create': both(LABEL, { body: input.labelCreateBody }),
  'labels.get': both(LABEL),
  'labels.update': both(LABEL, { body: input.labelUpdateBody }),
  'labels.delete': both(null),

  'comments.list': list(COMMENT, input.commentListQuery),
  'comments.create': both(COMMENT, { body: input.commentCreateBody }),
  'comments.get': both(COMMENT),
  'comments.update': both(COMMENT, { body: input.commentUpdateBody }),
  'comments.delete': both(null),

  'workspaces.users': api({ response: z.strictObject({ workspace_users: z.array(workspaceUserApiV1), has_more: z.boolean(), next_cursor: z.string().nullable() }) }),
  'workspaces.invitations': api({ response: z.array(z.string()) }),
  'workspaces.invitations.all': api({ response: z.array(workspaceInvitationApiV1) }),
  'workspaces.invitations.delete': api({ response: workspaceInvitationApiV1 }),
  'workspaces.invitations.accept': api({ response: workspaceInvitationApiV1 }),
  'workspaces.invitations.reject': api({ response: workspaceInvitationApiV1 }),
  'workspaces.join': api({ response: workspaceMembershipApiV1 }),
  'workspaces.plan_details': api({ response: workspacePlanDetailsApiV1 }),
  'workspaces.list': api({ response: z.array(workspaceApiV1) }),
  'workspaces.create': api({ response: workspaceApiV1 }),
  'workspaces.get': api({ response: workspaceApiV1 }),
  'workspaces.update': api({ response: workspaceApiV1 }),
  'workspaces.delete': api({ response: null }),
  'workspaces.users.invite': api({ response: z.strictObject({ invited_emails: z.array(z.string()) }) }),
  'workspaces.users.update': api({ response: workspaceMembershipApiV1 }),
  'workspaces.users.remove': api({ response: null }),
  'workspaces.projects.active': apiPage(projectApiV1),
  'workspaces.projects.archived': apiPage(projectApiV1),

  'folders.list': apiPage(folderApiV1, z.object({ workspace_id: input.workspaceScopedQuery.shape.workspace_id })),
  'folders.create': api({ response: folderApiV1 }),
  'folders.get': api({ response: folderApiV1 }),
  'folders.update': api({ response: folderApiV1 }),
  'folders.delete': api({ response: null }),

  'user.get': api({ response: userApiV1 }),
  'user.productivity_stats': api({ response: productivityStatsApiV1 }),
  'id_mappings.get': api({ response: z.array(z.strictObject({ old_id: z.string(), new_id: z.string() })) }),
} satisfies Contracts;

const CONTRACTS: Contracts = REST_OPERATION_CONTRACTS;

/** The contract of an operation on a surface, when the document describes it. */
export function restOperationContract(operation: string, surface: string): OperationContract | undefined {
  return CONTRACTS[operation]?.[surface as DocumentedSurface];
}

type Operations = typeof REST_OPERATION_CONTRACTS;

/** The operations api/v1 REST answers, by name (`tasks.get`): every one (REST v2 has fewer). */
export type ApiV1Operation = keyof Operations;

/** An api/v1 operation's 200 body schema, with its type (null: it answers 204). */
export type ApiV1ResponseSchema<Op extends ApiV1Operation> = Operations[Op]['rest-api-v1']['response'];

/** What an api/v1 operation answers, as its schema parses it (null for a 204). */
export type ApiV1Response<Op extends ApiV1Operation> = ApiV1ResponseSchema<Op> extends z.ZodType ? z.output<ApiV1ResponseSchema<Op>> : null;

/**
 * An api/v1 operation's response schema, typed: a caller of the rest service (MCP) validates the
 * reply with it, so the reply's type is the contract's, not one the caller chose.
 */
export function apiV1ResponseSchema<Op extends ApiV1Operation>(operation: Op): ApiV1ResponseSchema<Op> {
  return REST_OPERATION_CONTRACTS[operation]['rest-api-v1'].response;
}

/**
 * An api/v1 operation's 200 body, parsed by the operation's response schema (null for a 204):
 * the reply gets the contract's type because it was checked against it. Throws the schema's
 * ZodError when the body is not what the contract says.
 */
export function parseApiV1Response<Op extends ApiV1Operation>(operation: Op, body: unknown): ApiV1Response<Op>;
export function parseApiV1Response(operation: ApiV1Operation, body: unknown): unknown {
  const schema: z.ZodType | null = apiV1ResponseSchema(operation);
  return schema === null ? null : schema.parse(body);
}
