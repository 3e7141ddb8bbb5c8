import type { z } from 'zod';
import type { ApiAttachment } from './api-objects';
import type { TASK_ADD_ARGS, TASK_UPDATE_ARGS } from './fields/task-fields';

/*
 * The arguments of the Sync API commands as a client of the unified API (api/v1) sends them, as
 * types only (exported through the types-only `wire` entry, which the web app reads through
 * `@doable/contracts-web-wire`). The older generations' aliases (`collapsed`, integer ids, 0/1
 * flags, `date_completed`, ...) are the engine's to accept and are left out. A task's fields come
 * from the task field table (TASK_ADD_ARGS, TASK_UPDATE_ARGS: the same shapes item_add and
 * item_update validate with); the other resources' commands are written here until their field
 * tables give them too. `command-args.integration-spec.ts` (sync engine) runs a sample of each
 * through the real command, so a line the engine would refuse fails there.
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

/** A command on one object, or (the per-id answer) on several. */
export type OneOrMany = { readonly id: Id; readonly ids?: undefined } | { readonly ids: readonly Id[]; readonly id?: undefined };

export type ReminderArgs = {
  readonly type?: 'relative' | 'absolute' | 'location';
  readonly notify_uid?: Id;
  readonly minute_offset?: number;
  readonly due?: DueArg;
  readonly name?: string;
  readonly loc_lat?: string;
  readonly loc_long?: string;
  readonly loc_trigger?: 'on_enter' | 'on_leave';
  readonly radius?: number;
};

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
  readonly note_add: { readonly item_id?: Id; readonly project_id?: Id; readonly content: string; readonly file_attachment?: ApiAttachment | null };
  readonly project_add: { readonly name: string; readonly color?: string; readonly parent_id?: Id | null; readonly is_favorite?: boolean; readonly workspace_id?: Id };
  readonly project_update: { readonly id: Id; readonly name?: string; readonly color?: string; readonly is_favorite?: boolean; readonly is_collapsed?: boolean };
  readonly project_delete: { readonly id: Id };
  readonly project_archive: { readonly id: Id };
  readonly project_unarchive: { readonly id: Id };
  readonly project_leave: { readonly project_id: Id };
  readonly section_add: { readonly name: string; readonly project_id: Id; readonly section_order?: number };
  readonly section_update: { readonly id: Id; readonly name?: string; readonly is_collapsed?: boolean };
  readonly section_delete: { readonly id: Id };
  readonly section_archive: { readonly id: Id };
  readonly section_reorder: { readonly sections: ReadonlyArray<{ readonly id: Id; readonly section_order: number }> };
  readonly label_add: { readonly name: string; readonly color?: string; readonly item_order?: number; readonly is_favorite?: boolean };
  readonly label_update: { readonly id: Id; readonly name?: string; readonly color?: string; readonly item_order?: number; readonly is_favorite?: boolean };
  readonly label_delete: { readonly id: Id };
  readonly filter_add: { readonly name: string; readonly query: string; readonly color?: string; readonly item_order?: number; readonly is_favorite?: boolean };
  readonly filter_update: { readonly id: Id; readonly name?: string; readonly query?: string; readonly color?: string; readonly item_order?: number; readonly is_favorite?: boolean };
  readonly reminder_add: ReminderArgs & { readonly item_id: Id };
  readonly reminder_delete: { readonly id: Id };
  readonly user_update: UserUpdateArgs;
  readonly share_project: { readonly project_id: Id; readonly email: string };
  readonly delete_collaborator: { readonly project_id: Id; readonly email: string };
  readonly accept_invitation: { readonly invitation_id: Id; readonly invitation_secret: string };
  readonly reject_invitation: { readonly invitation_id: Id; readonly invitation_secret: string };
  readonly live_notifications_mark_read: { readonly ids: readonly Id[] };
  readonly live_notifications_mark_read_all: Readonly<Record<string, never>>;
};

export type SyncCommandType = keyof SyncCommandArgs;
