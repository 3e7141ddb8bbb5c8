import type { z } from 'zod';
import type { COMMENT_ADD_ARGS } from './fields/comment-fields';
import type { FILTER_ADD_ARGS, FILTER_UPDATE_ARGS } from './fields/filter-fields';
import type { LABEL_ADD_ARGS, LABEL_UPDATE_ARGS } from './fields/label-fields';
import type { PROJECT_ADD_ARGS, PROJECT_UPDATE_ARGS } from './fields/project-fields';
import type { REMINDER_ADD_ARGS } from './fields/reminder-fields';
import type { SECTION_ADD_ARGS, SECTION_UPDATE_ARGS } from './fields/section-fields';
import type { TASK_ADD_ARGS, TASK_UPDATE_ARGS } from './fields/task-fields';

/*
 * The arguments of the Sync API commands as a client of the unified API (api/v1) sends them, as
 * types only (exported through the types-only `wire` entry, which the web app reads through
 * `@doable/contracts-web-wire`). The older generations' aliases (`collapsed`, integer ids, 0/1
 * flags, `date_completed`, ...) are the engine's to accept and are left out. The add and update
 * commands of a resource with a field table take its fields from the table (TASK_ADD_ARGS,
 * PROJECT_UPDATE_ARGS, ...: the same shapes the commands validate with); the rest are written
 * here. `command-args.integration-spec.ts` (sync engine) runs a sample of each through the real
 * command, so a line the engine would refuse fails there.
 */

type Id = string;

/** A due (or a deadline) as a command sets it: a phrase the server parses, or a date. */
export type DueArg = {
  readonly string?: string;
  readonly date?: string;
  readonly timezone?: string | null;
  readonly lang?: string;
  readonly is_recurring?: boolean;
};

export type DeadlineArg = {
  readonly date: string;
  readonly lang?: string;
};

export type DurationArg = {
  readonly amount: number;
  readonly unit: 'minute' | 'day';
};

/** The task fields a command takes, from the table; the dates typed here (the table leaves them to the date parser). */
type TaskFieldArgs<Shape extends z.ZodRawShape> = Omit<z.input<z.ZodObject<Shape>>, 'due' | 'deadline' | 'duration'> & {
  readonly due?: DueArg | null;
  readonly deadline?: DeadlineArg | null;
  readonly duration?: DurationArg | null;
};

export type ItemAddArgs = TaskFieldArgs<typeof TASK_ADD_ARGS>;
export type ItemUpdateArgs = TaskFieldArgs<typeof TASK_UPDATE_ARGS> & { readonly id: Id };

/** The fields a command of another resource takes, from its table, as a client sends them. */
type FieldArgs<Shape extends z.ZodRawShape> = Readonly<z.input<z.ZodObject<Shape>>>;

/** A command on one object, or (the per-id answer) on several. */
export type OneOrMany = { readonly id: Id; readonly ids?: undefined } | { readonly ids: readonly Id[]; readonly id?: undefined };

/** A reminder's fields, from the reminder table; its due typed here (the table leaves it to the date parser). */
export type ReminderAddArgs = Omit<FieldArgs<typeof REMINDER_ADD_ARGS>, 'due'> & { readonly due?: DueArg };

export type UserUpdateArgs = {
  readonly full_name?: string;
  readonly timezone?: string;
  readonly start_day?: number;
  readonly next_week?: number;
  readonly start_page?: string;
  readonly time_format?: 0 | 1;
  readonly date_format?: 0 | 1;
  readonly lang?: string;
  readonly email?: string;
  readonly password?: string;
  readonly current_password?: string;
};

/**
 * The Sync API commands whose arguments a wire client is typed against, by command type. Type
 * literals (not interfaces), so each is a plain record of its arguments where a queue keeps them.
 */
export type SyncCommandArgs = {
  readonly item_add: ItemAddArgs;
  readonly item_update: ItemUpdateArgs;
  readonly item_complete: OneOrMany & { readonly completed_at?: string; readonly force_history?: boolean };
  readonly item_close: { readonly id: Id };
  readonly item_uncomplete: OneOrMany;
  readonly item_delete: OneOrMany;
  readonly item_move: { readonly id: Id; readonly project_id?: Id; readonly section_id?: Id; readonly parent_id?: Id };
  readonly item_reorder: { readonly items: ReadonlyArray<{ readonly id: Id; readonly child_order: number }> };
  readonly note_add: FieldArgs<typeof COMMENT_ADD_ARGS>;
  readonly project_add: FieldArgs<typeof PROJECT_ADD_ARGS>;
  readonly project_update: FieldArgs<typeof PROJECT_UPDATE_ARGS> & { readonly id: Id };
  readonly project_delete: { readonly id: Id };
  readonly project_archive: { readonly id: Id };
  readonly project_unarchive: { readonly id: Id };
  readonly project_leave: { readonly project_id: Id };
  readonly section_add: FieldArgs<typeof SECTION_ADD_ARGS>;
  readonly section_update: FieldArgs<typeof SECTION_UPDATE_ARGS> & { readonly id: Id };
  readonly section_delete: { readonly id: Id };
  readonly section_archive: { readonly id: Id };
  readonly section_reorder: { readonly sections: ReadonlyArray<{ readonly id: Id; readonly section_order: number }> };
  readonly label_add: FieldArgs<typeof LABEL_ADD_ARGS>;
  readonly label_update: FieldArgs<typeof LABEL_UPDATE_ARGS> & { readonly id: Id };
  readonly label_delete: { readonly id: Id };
  readonly filter_add: FieldArgs<typeof FILTER_ADD_ARGS>;
  readonly filter_update: FieldArgs<typeof FILTER_UPDATE_ARGS> & { readonly id: Id };
  readonly reminder_add: ReminderAddArgs;
  readonly reminder_delete: { readonly id: Id };
  readonly user_update: UserUpdateArgs;
  readonly share_project: { readonly project_id: Id; readonly email: string };
  readonly delete_collaborator: { readonly project_id: Id; readonly email: string };
  readonly delete_invitation: { readonly invitation_id: Id };
  readonly accept_invitation: { readonly invitation_id: Id; readonly invitation_secret: string };
  readonly reject_invitation: { readonly invitation_id: Id; readonly invitation_secret: string };
  readonly live_notifications_mark_read: { readonly ids: readonly Id[] };
  readonly live_notifications_mark_read_all: Readonly<Record<string, never>>;
};

export type SyncCommandType = keyof SyncCommandArgs;
