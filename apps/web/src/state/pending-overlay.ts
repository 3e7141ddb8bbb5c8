import type { Command, Filter, Item, Label, Note, Project, Reminder, Section, SyncData, SyncUser } from '../api/sync-types';
import { QUICK_ADD } from './quick-add-command';

/** A due the person typed; the server computes the date, so until it answers only the text is known. */
function typedDue(due: unknown): Item['due'] {
  if (due === null) return null;
  if (due && typeof due === 'object' && 'string' in due) return { date: '', ...(due as { string: string; date?: string }) };
  // A date picked in the calendar: known here, shown as it will be stored.
  if (due && typeof due === 'object' && typeof (due as { date?: unknown }).date === 'string') return { date: (due as { date: string }).date };
  return undefined;
}

/** An id or text argument as a string (ids may be numbers in older clients' commands). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** A reminder_add's reminder as the server will store it (its kind's fields only). */
function pendingReminder(id: string, args: Record<string, unknown>): Reminder {
  const base = { id, item_id: text(args['item_id']) };
  if (args['type'] === 'location') {
    return { ...base, type: 'location', name: text(args['name']), loc_lat: text(args['loc_lat']), loc_long: text(args['loc_long']), loc_trigger: args['loc_trigger'] === 'on_leave' ? 'on_leave' : 'on_enter', radius: Number(args['radius'] ?? 100) };
  }
  return {
    ...base,
    type: args['type'] === 'absolute' ? 'absolute' : 'relative',
    minute_offset: typeof args['minute_offset'] === 'number' ? args['minute_offset'] : null,
    due: (args['due'] as Reminder['due']) ?? null,
  };
}

/** The profile fields user_update sets that the app shows; the zone is read from tz_info in api/v1. */
function updatedUser(user: SyncUser, args: Record<string, unknown>): SyncUser {
  const next: SyncUser = { ...user };
  if (typeof args['full_name'] === 'string') next.full_name = args['full_name'].trim();
  if (typeof args['timezone'] === 'string') next.tz_info = { ...user.tz_info, timezone: args['timezone'] };
  for (const key of ['start_day', 'time_format', 'date_format'] as const) {
    const value = args[key];
    if (typeof value === 'number') next[key] = value;
  }
  return next;
}

/** An item_add's task as the server will store it, as far as the command says. */
function pendingItem(id: string, args: Record<string, unknown>, data: SyncData): Item {
  return {
    id,
    content: text(args['content']),
    project_id: text(args['project_id']) || (data.user?.inbox_project_id ?? ''),
    section_id: (args['section_id'] as string | undefined) ?? null,
    parent_id: (args['parent_id'] as string | undefined) ?? null,
    priority: Number(args['priority'] ?? 1),
    due: typedDue(args['due']) ?? null,
    labels: (args['labels'] as string[] | undefined) ?? [],
    checked: false,
    child_order: Number.MAX_SAFE_INTEGER,
  };
}

function idsOf(args: Record<string, unknown>): string[] {
  if (Array.isArray(args['ids'])) return args['ids'].map(text);
  return args['id'] === undefined ? [] : [text(args['id'])];
}

/**
 * What the person sees: the server's state with the commands not yet answered applied on top.
 * Kept apart from the server's state so that a refused command simply disappears from the
 * overlay and the screen shows what the server kept, and a created task is never shown twice
 * (its temp row goes when its command is answered, in the same request that brings the real one).
 */
export function applyPending(data: SyncData, pending: readonly Command[]): SyncData {
  if (pending.length === 0) return data;
  const items = new Map(data.items);
  const notes = new Map(data.notes);
  const reminders = new Map(data.reminders);
  let user = data.user;
  const projects = new Map(data.projects);
  const sections = new Map(data.sections);
  const labels = new Map(data.labels);
  const filters = new Map(data.filters);
  const notifications = new Map(data.live_notifications);
  for (const { type, args, temp_id } of pending) {
    if (type === 'live_notifications_mark_read' || type === 'live_notifications_mark_read_all') {
      const ids = type === 'live_notifications_mark_read' ? idsOf(args) : [...notifications.keys()];
      for (const id of ids) {
        const notification = notifications.get(id);
        if (notification) notifications.set(id, { ...notification, is_unread: false });
      }
      continue;
    }
    if (type === 'accept_invitation' || type === 'reject_invitation') {
      // The invitation is answered: its buttons go at once.
      for (const [id, notification] of notifications) {
        if (notification['invitation_id'] === args['invitation_id']) notifications.set(id, { ...notification, state: type === 'accept_invitation' ? 'accepted' : 'rejected', is_unread: false });
      }
      continue;
    }
    if (applyOrganising(type, args, temp_id, { sections, labels, filters, items })) continue;
    switch (type) {
      case 'item_add':
        items.set(temp_id ?? '', pendingItem(temp_id ?? '', args, data));
        break;
      // A queued quick add shows as typed until the server's parser answers (quick-add-command.ts).
      case QUICK_ADD:
        // Answered already (the task is made) and synced: the task shows once, as the server keeps it.
        if (typeof args['answered_id'] === 'string' && items.has(args['answered_id'])) break;
        items.set(temp_id ?? '', pendingItem(temp_id ?? '', (args['preview'] as Record<string, unknown> | undefined) ?? { content: args['text'] }, data));
        break;
      case 'item_update': {
        const id = text(args['id']);
        const item = items.get(id);
        if (!item) break;
        const { id: _id, due, ...rest } = args;
        const next: Item = { ...item, ...(rest as Partial<Item>) };
        const typed = typedDue(due);
        if (typed !== undefined) next.due = typed;
        items.set(id, next);
        break;
      }
      case 'item_complete':
      case 'item_close':
      case 'item_uncomplete':
        for (const id of idsOf(args)) {
          const item = items.get(id);
          if (item) items.set(id, { ...item, checked: type !== 'item_uncomplete' });
        }
        break;
      case 'item_reorder':
        for (const entry of (args['items'] as { id: string; child_order: number }[] | undefined) ?? []) {
          const item = items.get(entry.id);
          if (item) items.set(entry.id, { ...item, child_order: entry.child_order });
        }
        break;
      case 'item_move': {
        const id = text(args['id']);
        const item = items.get(id);
        if (item && args['project_id'] !== undefined) items.set(id, { ...item, project_id: text(args['project_id']), section_id: null, parent_id: null });
        else if (item && args['section_id'] !== undefined) {
          const section = data.sections.get(text(args['section_id']));
          items.set(id, { ...item, section_id: text(args['section_id']), parent_id: null, ...(section ? { project_id: section.project_id } : {}) });
        } else if (item && args['parent_id'] !== undefined) {
          const parent = items.get(text(args['parent_id']));
          items.set(id, { ...item, parent_id: text(args['parent_id']), ...(parent ? { project_id: parent.project_id, section_id: parent.section_id ?? null } : {}) });
        }
        break;
      }
      case 'item_delete':
        for (const id of idsOf(args)) items.delete(id);
        break;
      case 'note_add': {
        const id = temp_id ?? '';
        const note: Note = { id, item_id: args['item_id'] as string | undefined, content: text(args['content']), posted_uid: data.user?.id, posted_at: new Date().toISOString() };
        notes.set(id, note);
        break;
      }
      case 'reminder_add': {
        const id = temp_id ?? '';
        reminders.set(id, pendingReminder(id, args));
        break;
      }
      case 'reminder_delete':
        reminders.delete(text(args['id']));
        break;
      case 'user_update':
        if (user) user = updatedUser(user, args);
        break;
      case 'project_add': {
        const id = temp_id ?? '';
        // Last among the person's projects, where the server puts a project added without an order.
        const project: Project = { id, name: text(args['name']), child_order: Number.MAX_SAFE_INTEGER, ...(args['color'] !== undefined ? { color: text(args['color']) } : {}) };
        if (args['parent_id'] !== undefined) project.parent_id = text(args['parent_id']);
        if (args['workspace_id'] !== undefined) project.workspace_id = text(args['workspace_id']);
        // A sub-project is where its parent is (the server puts it in the parent's workspace).
        else if (project.parent_id) {
          const workspaceId = projects.get(project.parent_id)?.workspace_id;
          if (workspaceId) project.workspace_id = workspaceId;
        }
        projects.set(id, project);
        break;
      }
      case 'project_update': {
        const id = text(args['id']);
        const project = projects.get(id);
        if (project) {
          const changed: Partial<Project> = {};
          if (typeof args['name'] === 'string') changed.name = args['name'];
          if (typeof args['color'] === 'string') changed.color = args['color'];
          if (typeof args['is_favorite'] === 'boolean') changed.is_favorite = args['is_favorite'];
          projects.set(id, { ...project, ...changed });
        }
        break;
      }
      case 'project_archive':
      case 'project_unarchive': {
        const project = projects.get(text(args['id']));
        if (project) projects.set(project.id, { ...project, is_archived: type === 'project_archive' });
        break;
      }
      case 'project_leave':
        projects.delete(text(args['project_id']));
        for (const [itemId, item] of items) if (item.project_id === text(args['project_id'])) items.delete(itemId);
        break;
      case 'project_delete':
        // The server deletes the project's tasks with it.
        for (const id of idsOf(args)) {
          projects.delete(id);
          for (const [itemId, item] of items) if (item.project_id === id) items.delete(itemId);
        }
        break;
      // Shown by applyOrganising above, or (sharing) only once the server has answered.
      case 'section_add':
      case 'section_update':
      case 'section_reorder':
      case 'section_archive':
      case 'section_delete':
      case 'label_add':
      case 'label_update':
      case 'label_delete':
      case 'filter_add':
      case 'filter_update':
      case 'share_project':
      case 'delete_collaborator':
      case 'delete_invitation':
        break;
      // A command an older build of the app left in the queue, of a type this one no longer makes.
      default:
        break;
    }
  }
  return { ...data, items, notes, reminders, projects, user, sections, labels, filters, live_notifications: notifications };
}

interface OrganisingMaps {
  sections: Map<string, Section>;
  labels: Map<string, Label>;
  filters: Map<string, Filter>;
  items: Map<string, Item>;
}

/** Sections, labels and saved filters made or changed here: shown at once, like tasks. True when `type` was one of them. */
function applyOrganising(type: string, args: Record<string, unknown>, tempId: string | undefined, maps: OrganisingMaps): boolean {
  const { sections, labels, filters, items } = maps;
  const id = text(args['id']);
  switch (type) {
    case 'section_add':
      sections.set(tempId ?? '', { id: tempId ?? '', name: text(args['name']), project_id: text(args['project_id']), section_order: Number.MAX_SAFE_INTEGER });
      return true;
    case 'section_update': {
      const section = sections.get(id);
      if (section && typeof args['name'] === 'string') sections.set(id, { ...section, name: args['name'] });
      return true;
    }
    case 'section_reorder':
      for (const entry of (args['sections'] as { id: string; section_order: number }[] | undefined) ?? []) {
        const section = sections.get(entry.id);
        if (section) sections.set(entry.id, { ...section, section_order: entry.section_order });
      }
      return true;
    case 'section_archive':
    case 'section_unarchive': {
      const section = sections.get(id);
      if (section) sections.set(id, { ...section, is_archived: type === 'section_archive' });
      return true;
    }
    case 'section_delete':
      // The server deletes the section's tasks with it.
      sections.delete(id);
      for (const [itemId, item] of items) if (item.section_id === id) items.delete(itemId);
      return true;
    case 'label_update': {
      const label = labels.get(id);
      if (!label) return true;
      const renamed = typeof args['name'] === 'string' ? args['name'] : label.name;
      labels.set(id, { ...label, name: renamed, ...(args['color'] !== undefined ? { color: text(args['color']) } : {}) });
      // A renamed personal label is renamed on its tasks too.
      if (renamed !== label.name) for (const [itemId, item] of items) if (item.labels?.includes(label.name)) items.set(itemId, { ...item, labels: item.labels.map((name) => (name === label.name ? renamed : name)) });
      return true;
    }
    case 'label_delete': {
      const label = labels.get(id);
      labels.delete(id);
      if (label) for (const [itemId, item] of items) if (item.labels?.includes(label.name)) items.set(itemId, { ...item, labels: item.labels.filter((name) => name !== label.name) });
      return true;
    }
    case 'filter_add':
      filters.set(tempId ?? '', { id: tempId ?? '', name: text(args['name']), query: text(args['query']), item_order: Number.MAX_SAFE_INTEGER });
      return true;
    case 'filter_update': {
      const filter = filters.get(id);
      if (filter) filters.set(id, { ...filter, ...(typeof args['name'] === 'string' ? { name: args['name'] } : {}), ...(typeof args['query'] === 'string' ? { query: args['query'] } : {}) });
      return true;
    }
    case 'filter_delete':
      filters.delete(id);
      return true;
    default:
      return false;
  }
}
