/**
 * An account as an import source describes it, whatever it came from (the JSON of a full sync
 * from the hosted service or from Doable, a Todoist backup ZIP, a template CSV): plain data, no
 * ids of this server. `key`s are the source's own ids (or positions), unique per kind, and only
 * tie the pieces together (a task's project, parent and section).
 */
export interface AccountSnapshot {
  readonly projects: readonly SnapshotProject[];
  readonly sections: readonly SnapshotSection[];
  readonly tasks: readonly SnapshotTask[];
  /** Task comments and project comments. */
  readonly notes: readonly SnapshotNote[];
  readonly labels: readonly SnapshotLabel[];
  readonly filters: readonly SnapshotFilter[];
  readonly reminders: readonly SnapshotReminder[];
}

export interface SnapshotProject {
  readonly key: string;
  readonly name: string;
  /** The source's Inbox: its contents land in the account's own Inbox, no project is made. */
  readonly isInbox: boolean;
  readonly parentKey: string | null;
  readonly color: string | number | null;
  readonly childOrder: number | null;
  readonly viewStyle: string | null;
  readonly isFavorite: boolean;
  readonly isArchived: boolean;
  readonly description: string | null;
}

export interface SnapshotSection {
  readonly key: string;
  readonly projectKey: string;
  readonly name: string;
  readonly order: number | null;
  readonly isArchived: boolean;
}

export interface SnapshotDue {
  readonly date: string | null;
  readonly string: string | null;
  readonly timezone: string | null;
  readonly lang: string | null;
}

export interface SnapshotTask {
  readonly key: string;
  readonly projectKey: string;
  readonly sectionKey: string | null;
  readonly parentKey: string | null;
  readonly content: string;
  readonly description: string;
  /** The API's scale: 4 is the most urgent (p1). */
  readonly priority: number;
  readonly childOrder: number | null;
  readonly labels: readonly string[];
  readonly due: SnapshotDue | null;
  readonly deadline: { readonly date: string; readonly lang: string | null } | null;
  readonly duration: { readonly amount: number; readonly unit: string } | null;
  readonly isCollapsed: boolean;
  readonly checked: boolean;
  readonly completedAt: string | null;
  /** The task's other fields a backup keeps, by item_add's argument names, as the backup has them (restoredAsTheyAre). */
  readonly fields?: Readonly<Record<string, unknown>>;
}

export interface SnapshotNote {
  readonly key: string;
  /** Exactly one of taskKey / projectKey. */
  readonly taskKey: string | null;
  readonly projectKey: string | null;
  readonly content: string;
  readonly fileAttachment: Record<string, unknown> | null;
}

export interface SnapshotLabel {
  readonly name: string;
  readonly color: string | number | null;
  readonly order: number | null;
  readonly isFavorite: boolean;
}

export interface SnapshotFilter {
  readonly name: string;
  readonly query: string;
  readonly color: string | number | null;
  readonly order: number | null;
  readonly isFavorite: boolean;
}

export interface SnapshotReminder {
  readonly key: string;
  readonly taskKey: string;
  readonly type: 'relative' | 'absolute' | 'location';
  readonly minuteOffset: number | null;
  readonly due: SnapshotDue | null;
  readonly location: { readonly name: string; readonly lat: string; readonly long: string; readonly trigger: string; readonly radius: number | null } | null;
}

export const emptySnapshot = (): AccountSnapshot => ({ projects: [], sections: [], tasks: [], notes: [], labels: [], filters: [], reminders: [] });
