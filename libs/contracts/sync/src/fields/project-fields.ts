import { flag, idArg, storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { argShape, type DialectKey, type FieldTable } from './field-line';
import { colorArg } from './shared-args';
import { wireId, wireNullableId, wireTimestamp } from './wire-schemas';

/** How a project is shown, a workspace project's stage, and who may find it (the stored values). */
export const VIEW_STYLES = ['list', 'board', 'calendar'] as const;
export const PROJECT_STATUSES = ['PLANNED', 'IN_PROGRESS', 'PAUSED', 'COMPLETED', 'CANCELED'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const PROJECT_VISIBILITIES = ['restricted', 'team', 'public'] as const;
export type ProjectVisibility = (typeof PROJECT_VISIBILITIES)[number];

/** Argument pieces of the project commands. */
export const projectNameArg = z.string().trim().min(1).max(120);
const descriptionArg = z.string().max(16_384);
const viewStyleArg = z.enum(VIEW_STYLES);
const statusArg = z.enum(PROJECT_STATUSES);

/** Only a workspace project writes these keys (sdk 17's WorkspaceProject); a personal one has none of them. */
const workspaceOnly = { when: { set: 'workspace_id' } } as const;

/**
 * The project's fields (sync.projects; `project` in every API), one line each, in the order
 * api/v1 writes them (v9 writes its keys in the same order). What a line says and how it is
 * derived: field-line.ts and docs/architecture/adding-a-field.md. project-fields.spec.ts walks
 * the table against the golden answers, field-table-columns.integration-spec.ts (sync-domain)
 * against the migrations, project-fields-portability.spec.ts against backups and templates.
 *
 * Arguments the project commands take beside these: the `collapsed` alias (v9), `access` (sdk
 * 17's `{ visibility }`, which a line cannot name: the argument is not the field),
 * `collaborator_role_default` (its values are the role model's, COLLABORATOR_ROLES in
 * project-roles.ts, which sits above this folder and decides who may do what) and `id`.
 */
export const PROJECT_FIELDS = {
  id: { column: { type: 'bigint', nullable: false }, apiV1: 'id', v9: 'id', schema: wireId, restV2: { key: 'id', render: 'value' }, v8: ['id'], v7: ['id'], restV1: ['id'], backup: true, template: false, csv: [] },
  owner_id: { column: { type: 'bigint', nullable: false }, backup: false, template: false, csv: [] },
  name: {
    column: { type: 'text', nullable: false },
    args: { add: projectNameArg, update: projectNameArg.optional() },
    apiV1: 'name',
    v9: 'name',
    schema: z.string(),
    restV2: { key: 'name', render: 'value' },
    v8: ['name'],
    v7: ['name'],
    restV1: ['name'],
    backup: true,
    template: false,
    csv: [],
  },
  description: {
    column: { type: 'text', nullable: false },
    args: { add: descriptionArg.optional(), update: descriptionArg.optional() },
    apiV1: 'description',
    schema: z.string(),
    backup: true,
    template: false,
    csv: [],
  },
  color: {
    column: { type: 'text', nullable: false },
    args: { add: colorArg.optional(), update: colorArg.optional() },
    apiV1: 'color',
    v9: 'color',
    schema: z.string(),
    restV2: { key: 'color', render: 'value', schema: z.string().describe('A colour name (berry_red, ...).') },
    // v8 and REST v1 write the colour's integer, v7 its legacy index.
    v8: ['color'],
    v7: ['color'],
    restV1: ['color'],
    backup: true,
    template: false,
    csv: [],
  },
  parent_id: {
    column: { type: 'bigint', nullable: true },
    args: { add: z.union([z.string(), z.number()]).nullable().optional() },
    apiV1: 'parent_id',
    v9: 'parent_id',
    schema: wireNullableId,
    restV2: { key: 'parent_id', render: 'value' },
    v8: ['parent_id'],
    // v7 placed a project by indent in one flat list; REST v1 kept `parent` beside parent_id.
    v7: ['indent'],
    restV1: ['parent_id?', 'parent?'],
    backup: true,
    template: false,
    csv: [],
  },
  child_order: {
    column: { type: 'integer', nullable: false },
    args: { add: storedInteger.min(0).optional() },
    apiV1: 'child_order',
    v9: 'child_order',
    schema: z.int(),
    restV2: { key: 'order', render: 'value' },
    v8: ['child_order'],
    v7: ['item_order'],
    restV1: ['order'],
    backup: true,
    template: false,
    csv: [],
  },
  /** A key the SDKs require that no Doable field backs. */
  default_order: { column: null, apiV1: 'default_order', fixed: 0, schema: z.int(), backup: false, template: false, csv: [] },
  is_collapsed: {
    column: { type: 'boolean', nullable: false },
    args: { add: flag.optional(), update: flag.optional() },
    apiV1: 'is_collapsed',
    v9: 'collapsed',
    schema: z.boolean(),
    v8: ['collapsed'],
    v7: ['collapsed'],
    backup: false,
    template: false,
    csv: [],
  },
  is_favorite: {
    column: { type: 'boolean', nullable: false },
    args: { add: flag.optional(), update: flag.optional() },
    apiV1: 'is_favorite',
    v9: 'is_favorite',
    schema: z.boolean(),
    restV2: { key: 'is_favorite', render: 'value' },
    v8: ['is_favorite'],
    restV1: ['favorite'],
    backup: true,
    template: false,
    csv: [],
  },
  is_archived: { column: { type: 'boolean', nullable: false }, apiV1: 'is_archived', v9: 'is_archived', schema: z.boolean(), v8: ['is_archived'], v7: ['is_archived'], backup: true, template: false, csv: [] },
  is_deleted: { column: { type: 'boolean', nullable: false }, apiV1: 'is_deleted', v9: 'is_deleted', schema: z.boolean(), v8: ['is_deleted'], v7: ['is_deleted'], backup: true, template: false, csv: [] },
  /** No plan freezes a project yet. */
  is_frozen: { column: null, apiV1: 'is_frozen', fixed: false, schema: z.boolean(), backup: false, template: false, csv: [] },
  /** More than one active member: computed by every read of a project (SHARED_SQL in sync-domain), never stored. */
  shared: {
    column: null,
    apiV1: 'is_shared',
    v9: 'shared',
    schema: z.boolean(),
    restV2: { key: 'is_shared', render: 'value' },
    v8: ['shared'],
    v7: ['shared'],
    restV1: ['shared'],
    backup: false,
    template: false,
    csv: [],
  },
  /** Tasks can be assigned to the other members of a shared project. */
  can_assign_tasks: { column: null, apiV1: 'can_assign_tasks', from: 'shared', schema: z.boolean(), backup: false, template: false, csv: [] },
  /**
   * A pre-v9 sharing artefact: null in v9 and v8; REST v1 writes the project's id while it is
   * shared (what matches the members' copies across accounts) and 0 when it is not.
   */
  sync_id: { column: null, v9: 'sync_id', render: 'null', v8: ['sync_id'], restV1: ['sync_id'], backup: false, template: false, csv: [] },
  view_style: {
    column: { type: 'text', nullable: false },
    args: { add: viewStyleArg.optional(), update: viewStyleArg.optional() },
    apiV1: 'view_style',
    v9: 'view_style',
    schema: z.string(),
    restV2: { key: 'view_style', render: 'value' },
    backup: true,
    // A template's `meta` row (TYPE meta, CONTENT view_style=board).
    template: true,
    csv: ['CONTENT'],
  },
  created_at: { column: { type: 'timestamptz', nullable: false }, apiV1: 'created_at', render: 'timestamp', schema: wireTimestamp.nullable(), backup: false, template: false, csv: [] },
  updated_at: { column: { type: 'timestamptz', nullable: false }, apiV1: 'updated_at', render: 'timestamp', schema: wireTimestamp.nullable(), backup: false, template: false, csv: [] },
  inbox_project: {
    column: { type: 'boolean', nullable: false },
    apiV1: 'inbox_project',
    v9: 'inbox_project',
    when: 'true',
    schema: z.literal(true).optional().describe('Sent only on the inbox.'),
    restV2: { key: 'is_inbox_project', render: 'value', schema: z.boolean() },
    v8: ['inbox_project?'],
    v7: ['inbox_project?'],
    restV1: ['inbox_project?'],
    backup: true,
    template: false,
    csv: [],
  },
  version: { column: { type: 'bigint', nullable: false }, backup: false, template: false, csv: [] },
  workspace_id: {
    column: { type: 'bigint', nullable: true },
    args: { add: idArg.nullable().optional() },
    apiV1: 'workspace_id',
    ...workspaceOnly,
    schema: wireId.optional(),
    backup: false,
    template: false,
    csv: [],
  },
  folder_id: {
    column: { type: 'bigint', nullable: true },
    // Null takes a project out of its folder.
    args: { add: idArg.nullable().optional(), update: idArg.nullable().optional() },
    apiV1: 'folder_id',
    ...workspaceOnly,
    schema: wireNullableId.optional(),
    backup: false,
    template: false,
    csv: [],
  },
  is_invite_only: {
    column: { type: 'boolean', nullable: false },
    args: { add: flag.optional(), update: flag.optional() },
    apiV1: 'is_invite_only',
    ...workspaceOnly,
    schema: z.boolean().nullable().optional(),
    backup: false,
    template: false,
    csv: [],
  },
  status: {
    column: { type: 'text', nullable: false },
    args: { add: statusArg.optional(), update: statusArg.optional() },
    apiV1: 'status',
    ...workspaceOnly,
    schema: z.string().nullable().optional(),
    backup: false,
    template: false,
    csv: [],
  },
  /** api/v1 `access.visibility`; the commands take it as `access` (see above). */
  visibility: {
    column: { type: 'text', nullable: false },
    apiV1: 'access',
    ...workspaceOnly,
    wrap: 'visibility',
    schema: z.looseObject({ visibility: z.string().nullable() }).optional(),
    backup: false,
    template: false,
    csv: [],
  },
  /** The role an invited or joining collaborator gets; the commands take it (see above). */
  collaborator_role_default: {
    column: { type: 'text', nullable: false },
    apiV1: 'collaborator_role_default',
    ...workspaceOnly,
    schema: z.string().nullable().optional(),
    backup: false,
    template: false,
    csv: [],
  },
  is_link_sharing_enabled: {
    column: { type: 'boolean', nullable: false },
    args: { update: flag.optional() },
    apiV1: 'is_link_sharing_enabled',
    ...workspaceOnly,
    schema: z.boolean().nullable().optional(),
    backup: false,
    template: false,
    csv: [],
  },
  /** The reading user's role in the project: only reads made for one user compute it (null otherwise). */
  role: { column: null, apiV1: 'role', ...workspaceOnly, schema: z.string().nullable().optional(), backup: false, template: false, csv: [] },
  /** Comments on the project itself, where a read counted them (the REST surfaces' `comment_count`; api/v1 has none). */
  note_count: { column: null, restV2: { key: 'comment_count', render: 'value', schema: z.int().min(0) }, restV1: ['comment_count'], backup: false, template: false, csv: [] },
  /** The project's page in the web app. */
  url: { column: null, restV2: { key: 'url', render: 'url', schema: z.string() }, restV1: ['url'], backup: false, template: false, csv: [] },
  /** REST v2's team inbox: Doable has no team inbox, so never. */
  is_team_inbox: { column: null, fixed: false, restV2: { key: 'is_team_inbox', render: 'value', schema: z.boolean() }, backup: false, template: false, csv: [] },
} as const satisfies FieldTable;

export type ProjectFieldName = keyof typeof PROJECT_FIELDS;
/** The keys of an api/v1 project, from the table. */
export type ApiV1ProjectKey = DialectKey<typeof PROJECT_FIELDS, 'apiV1'>;

/** project_add's arguments that are project fields (the command adds `collapsed`, `access`, `collaborator_role_default`). */
export const PROJECT_ADD_ARGS = argShape(PROJECT_FIELDS, 'add');
/** project_update's arguments that are project fields (the command adds `id`, `collapsed`, `access`, `collaborator_role_default`). */
export const PROJECT_UPDATE_ARGS = argShape(PROJECT_FIELDS, 'update');
