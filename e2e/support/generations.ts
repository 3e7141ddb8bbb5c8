import { http } from '@doable/shared-testing';
import type { Account, SystemUnderTest } from './system-view';

/** One task as every generation can tell it: names instead of ids, the due day instead of an instant. */
export interface TaskFact {
  readonly content: string;
  readonly project: string;
  readonly parent: string | null;
  readonly section: string | null;
  readonly labels: readonly string[];
  readonly due: string | null;
  readonly recurring: boolean;
}

/** What a generation shows of an account, in terms all of them share. */
export interface AccountFacts {
  readonly projects: readonly string[];
  readonly tasks: readonly TaskFact[];
  /** `task content: comment content`. */
  readonly notes: readonly string[];
  /** The contents of completed tasks. */
  readonly completed: readonly string[];
}

/** A user of one generation: who, against which system. */
export interface Caller {
  readonly system: SystemUnderTest;
  readonly account: Account;
}

/**
 * One API generation as a test drives it: how it reads the account into shared facts, how its
 * whole rendering looks with ids and instants masked (the golden file), and how it writes.
 */
/** What a generation can tell of a task beyond its content, project and parent. */
export interface Tells {
  readonly sections: boolean;
  readonly labels: boolean;
  readonly notes: boolean;
  readonly completed: boolean;
}

export const TELLS_EVERYTHING: Tells = { sections: true, labels: true, notes: true, completed: true };

export interface Generation {
  readonly name: string;
  readonly tells: Tells;
  facts(caller: Caller): Promise<AccountFacts>;
  render(caller: Caller): Promise<unknown>;
  /** Adds a task with this content as a subtask of the task `parent` (by content), in its own write shape. */
  addSubtask(caller: Caller, content: string, parent: string): Promise<void>;
  /** Renames the task `from` to `to`, in its own write shape. */
  renameTask(caller: Caller, from: string, to: string): Promise<void>;
  /** Tries to rename the task with this (canonical, string) id; whether the generation said it did. */
  renameById(caller: Caller, id: string, to: string): Promise<boolean>;
}

let uuids = 0;
/** A uuid no other command of the run has. */
export const nextUuid = (label: string): string => `${label}-${process.pid}-${++uuids}`;

export async function get(caller: Caller, path: string): Promise<any> {
  const response = await http(caller.system.url, 'GET', path, { token: caller.account.token });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function post(caller: Caller, path: string, body: Record<string, unknown>, form = false): Promise<any> {
  const options = form
    ? { token: caller.account.token, form: Object.fromEntries(Object.entries(body).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)])) }
    : { token: caller.account.token, json: body };
  const response = await http(caller.system.url, 'POST', path, options);
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Whether a one-command write was answered `ok` (a refused one is not an error here). */
export async function commandAccepted(caller: Caller, path: string, command: Record<string, unknown>, form = false, statusKey = 'sync_status'): Promise<boolean> {
  const uuid = nextUuid('try');
  const body = await post(caller, path, { commands: [{ ...command, uuid }] }, form);
  return body[statusKey]?.[uuid] === 'ok';
}

/** Each command of a write must be `ok`; the write's body is returned. */
export async function runCommands(caller: Caller, path: string, commands: ReadonlyArray<Record<string, unknown>>, form = false, statusKey = 'sync_status'): Promise<any> {
  const body = await post(caller, path, { commands }, form);
  const statuses = body[statusKey];
  if (!statuses || typeof statuses !== 'object') throw new Error(`${path}: no ${statusKey} in ${JSON.stringify(body)}`);
  const failed = Object.entries(statuses).filter(([, status]) => status !== 'ok');
  if (failed.length > 0) throw new Error(`${path}: ${JSON.stringify(failed)}`);
  return body;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const LEGACY_INSTANT = /^[A-Z][a-z]{2} \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/;
/** A day, or a floating date-time (a due in the user's zone): recurring dues move with the calendar. */
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?$/;
// `UserId`: the first generation's capitalised key (v6 sync), which depends on how many accounts the system has.
const ID_KEY = /(^id$|_id$|_uid$|^uid$|^UserId$)/;

/**
 * A rendering with what differs from run to run masked: ids become `#1`, `#2`... in order of
 * first appearance (the same id the same mask everywhere, so references stay visible), instants
 * become `<instant>`, days `<date>`, and sync tokens `<sync_token>`. Keys keep their order; arrays of ids too.
 */
export function masked(value: unknown): unknown {
  const ids = new Map<string, string>();
  const maskId = (id: string | number): string => {
    const key = String(id);
    if (!ids.has(key)) ids.set(key, `#${ids.size + 1}`);
    return ids.get(key)!;
  };
  const walk = (node: unknown, key: string | null): unknown => {
    if (Array.isArray(node)) return node.map((entry) => walk(entry, key));
    if (node && typeof node === 'object') {
      return Object.fromEntries(
        Object.entries(node as Record<string, unknown>).map(([name, child]) => {
          // Maps keyed by ids (day_orders, temp_id_mapping) keep their shape with masked keys.
          const maskedName = /^\d+$/.test(name) ? maskId(name) : name;
          return [maskedName, walk(child, name)];
        }),
      );
    }
    if (typeof node === 'string' && (ISO_INSTANT.test(node) || LEGACY_INSTANT.test(node))) return '<instant>';
    if (typeof node === 'string' && CALENDAR_DATE.test(node)) return '<date>';
    if (key !== null && /^(sync_token|seq_no|SeqNo|seq_no_global|SeqNoGlobal|feature_identifier)$/i.test(key)) return `<${key}>`;
    if (key !== null && ID_KEY.test(key) && (typeof node === 'number' || (typeof node === 'string' && /^\d+$/.test(node)))) return maskId(node);
    if (key !== null && /^(labels|ids|children)$/.test(key) && typeof node === 'number') return maskId(node);
    return node;
  };
  return walk(value, null);
}

/** Facts from objects in the v9 / api/v1 shapes (string ids, parent_id, due objects, label names). */
export function factsFromCurrentShapes(projects: any[], sections: any[], items: any[], notes: any[]): Omit<AccountFacts, 'completed'> {
  const projectName = new Map(projects.map((project) => [String(project.id), project.name as string]));
  const sectionName = new Map(sections.map((section) => [String(section.id), section.name as string]));
  const taskContent = new Map(items.map((item) => [String(item.id), item.content as string]));
  return sortedFacts({
    completed: [],
    projects: projects.filter((project) => !project.is_deleted && !project.is_archived).map((project) => project.name),
    tasks: items.map((item) => ({
      content: item.content,
      project: projectName.get(String(item.project_id)) ?? '?',
      parent: item.parent_id ? (taskContent.get(String(item.parent_id)) ?? '?') : null,
      section: item.section_id ? (sectionName.get(String(item.section_id)) ?? '?') : null,
      labels: item.labels,
      due: item.due ? String(item.due.date).slice(0, 10) : null,
      recurring: item.due ? item.due.is_recurring === true : false,
    })),
    notes: notes.filter((note) => note.item_id).map((note) => `${taskContent.get(String(note.item_id)) ?? '?'}: ${note.content}`),
  });
}

/** Facts in a stable order, so two generations' facts compare equal. */
export function sortedFacts<F extends AccountFacts>(facts: F): F {
  return {
    ...facts,
    projects: [...facts.projects].sort(),
    tasks: [...facts.tasks].map((task) => ({ ...task, labels: [...task.labels].sort() })).sort((a, b) => a.content.localeCompare(b.content)),
    notes: [...facts.notes].sort(),
    completed: [...facts.completed].sort(),
  };
}

/** A generation that speaks the current Sync API shapes at `path` (v9, api/v1). */
export function currentSyncGeneration(name: string, path: string, completedPath: string): Generation {
  return syncGeneration(name, path, { completedPath, labelsById: false });
}

/**
 * Sync v8 at `/sync/v8/sync`: the same commands, integer ids, a task's labels as label ids (read
 * back to names through the labels resource). Its completed listing is not served, so its facts
 * leave completed tasks out.
 */
export function syncV8Generation(): Generation {
  return syncGeneration('sync-v8', '/sync/v8/sync', { labelsById: true });
}

function syncGeneration(name: string, path: string, options: { readonly completedPath?: string; readonly labelsById: boolean }): Generation {
  const read = (caller: Caller) => post(caller, path, { sync_token: '*', resource_types: ['projects', 'sections', 'items', 'notes', 'labels'] });
  const idOf = async (caller: Caller, content: string): Promise<string | number> => {
    const body = await read(caller);
    const item = (body.items as any[]).find((candidate) => candidate.content === content);
    if (!item) throw new Error(`${name}: no task ${content}`);
    return item.id as string | number;
  };
  /** Tasks with their labels as names, whichever way the generation wrote them. */
  const namedLabels = (body: any): any[] => {
    if (!options.labelsById) return body.items;
    const labelName = new Map((body.labels as any[]).map((label) => [label.id, label.name as string]));
    return (body.items as any[]).map((item) => ({ ...item, labels: (item.labels as number[]).map((id) => labelName.get(id) ?? `?${id}`) }));
  };
  const completedPath = options.completedPath;
  return {
    name,
    tells: { ...TELLS_EVERYTHING, completed: completedPath !== undefined },
    facts: async (caller) => {
      const body = await read(caller);
      const facts = factsFromCurrentShapes(body.projects, body.sections, namedLabels(body), body.notes);
      const completed = completedPath ? ((await get(caller, completedPath)).items as any[]).map((item) => item.content as string) : [];
      return { ...facts, completed: completed.sort() };
    },
    render: async (caller) => masked(await post(caller, path, { sync_token: '*', resource_types: ['projects', 'sections', 'items', 'notes', 'labels', 'reminders'] })),
    addSubtask: async (caller, content, parent) => {
      const parentId = await idOf(caller, parent);
      await runCommands(caller, path, [{ type: 'item_add', uuid: nextUuid(name), temp_id: nextUuid('t'), args: { content, parent_id: parentId } }]);
    },
    renameTask: async (caller, from, to) => {
      const id = await idOf(caller, from);
      await runCommands(caller, path, [{ type: 'item_update', uuid: nextUuid(name), args: { id, content: to } }]);
    },
    renameById: (caller, id, to) => commandAccepted(caller, path, { type: 'item_update', args: { id: options.labelsById ? Number(id) : id, content: to } }),
  };
}

/**
 * What a generation can tell of the facts: a field it has no way to show is left out of both
 * sides of a comparison (the first generation has no sections, labels or comments).
 */
export function toldBy(tells: Tells, facts: AccountFacts): unknown {
  return {
    projects: facts.projects,
    tasks: facts.tasks.map(({ section, labels, ...task }) => ({ ...task, ...(tells.sections ? { section } : {}), ...(tells.labels ? { labels } : {}) })),
    ...(tells.notes ? { notes: facts.notes } : {}),
    ...(tells.completed ? { completed: facts.completed } : {}),
  };
}

/** The first generation (`/API/*`, public-api-facts §1.8): flat lists per project, `?token=`. */
export function firstGeneration(): Generation {
  const call = async (caller: Caller, name: string, params: Record<string, string> = {}): Promise<any> => {
    const query = new URLSearchParams({ ...params, token: caller.account.token });
    const response = await http(caller.system.url, 'GET', `/API/${name}?${query.toString()}`);
    if (response.status !== 200) throw new Error(`/API/${name} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const read = async (caller: Caller) => {
    const projects = (await call(caller, 'getProjects')) as any[];
    const lists = await Promise.all(projects.map(async (project) => ({ project, items: (await call(caller, 'getUncompletedItems', { project_id: String(project.id) })) as any[] })));
    const completed = await Promise.all(projects.map(async (project) => (await call(caller, 'getCompletedItems', { project_id: String(project.id) })) as any[]));
    return { projects, lists, completed: completed.flat() };
  };
  const find = async (caller: Caller, content: string) => {
    const { lists } = await read(caller);
    for (const { project, items } of lists) {
      const item = items.find((candidate) => candidate.content === content);
      if (item) return { project, item };
    }
    throw new Error(`first generation: no task ${content}`);
  };
  return {
    name: 'first-generation',
    tells: { sections: false, labels: false, notes: false, completed: true },
    facts: async (caller) => {
      const { projects, lists, completed } = await read(caller);
      const tasks: TaskFact[] = [];
      for (const { project, items } of lists) {
        // A task's parent is the nearest row above it one indent shallower.
        const flat = [...items].sort((a, b) => a.item_order - b.item_order);
        flat.forEach((item, index) => {
          const parent = flat.slice(0, index).reverse().find((above) => above.indent === item.indent - 1);
          tasks.push({
            content: item.content,
            project: project.name,
            parent: item.indent > 1 ? (parent?.content ?? '?') : null,
            section: null,
            labels: [],
            due: item.due_date ? new Date(item.due_date).toISOString().slice(0, 10) : null,
            recurring: /^every/i.test(item.date_string),
          });
        });
      }
      return sortedFacts({ projects: projects.map((project) => project.name), tasks, notes: [], completed: completed.map((item) => item.content) });
    },
    render: async (caller) => masked(await read(caller)),
    addSubtask: async (caller, content, parent) => {
      const { project, item } = await find(caller, parent);
      await call(caller, 'addItem', { project_id: String(project.id), content, item_order: String(item.item_order + 1), indent: String(item.indent + 1) });
    },
    renameTask: async (caller, from, to) => {
      const { item } = await find(caller, from);
      await call(caller, 'updateItem', { id: String(item.id), content: to });
    },
    renameById: async (caller, id, to) => {
      const query = new URLSearchParams({ id, content: to, token: caller.account.token });
      return (await http(caller.system.url, 'GET', `/API/updateItem?${query.toString()}`)).status === 200;
    },
  };
}

/** The keys an old sync generation answers its resources under (v6 CamelCases them). */
interface OldSyncKeys {
  readonly projects: string;
  readonly items: string;
  readonly notes: string;
  readonly labels: string;
}

/**
 * An old Sync API generation (v7, v6): flat `item_order`/`indent` lists per project, labels as
 * ids, dues as `date_string`/`due_date_utc`; no sections and no completed listing served.
 */
function oldSyncGeneration(name: string, path: string, fullRead: Record<string, unknown>, keys: OldSyncKeys): Generation {
  const read = (caller: Caller) => post(caller, path, { ...fullRead, resource_types: ['projects', 'items', 'notes', 'labels'] });
  const find = async (caller: Caller, content: string) => {
    const item = ((await read(caller))[keys.items] as any[]).find((candidate) => candidate.content === content);
    if (!item) throw new Error(`${name}: no task ${content}`);
    return item;
  };
  return {
    name,
    tells: { sections: false, labels: true, notes: true, completed: false },
    facts: async (caller) => {
      const body = await read(caller);
      const projects = body[keys.projects] as any[];
      const items = body[keys.items] as any[];
      const labelName = new Map((body[keys.labels] as any[]).map((label) => [label.id, label.name as string]));
      const projectName = new Map(projects.map((project) => [project.id, project.name as string]));
      const tasks: TaskFact[] = [];
      for (const project of projects) {
        // A task's parent is the nearest row above it one indent shallower, in its project's list.
        const flat = items.filter((item) => item.project_id === project.id).sort((a, b) => a.item_order - b.item_order);
        flat.forEach((item, index) => {
          const parent = flat.slice(0, index).reverse().find((above) => above.indent === item.indent - 1);
          tasks.push({
            content: item.content,
            project: projectName.get(item.project_id) ?? '?',
            parent: item.indent > 1 ? (parent?.content ?? '?') : null,
            section: null,
            labels: (item.labels as number[]).map((id) => labelName.get(id) ?? `?${id}`),
            due: item.due_date_utc ? new Date(item.due_date_utc).toISOString().slice(0, 10) : null,
            recurring: /^every/i.test(item.date_string ?? ''),
          });
        });
      }
      const content = new Map(items.map((item) => [item.id, item.content as string]));
      const notes = (body[keys.notes] as any[]).map((note) => `${content.get(note.item_id) ?? '?'}: ${note.content}`);
      return sortedFacts({ projects: projects.map((project) => project.name), tasks, notes, completed: [] });
    },
    render: async (caller) => masked(await post(caller, path, { ...fullRead, resource_types: ['projects', 'items', 'notes', 'labels', 'reminders'] })),
    addSubtask: async (caller, content, parent) => {
      const above = await find(caller, parent);
      const args = { content, project_id: above.project_id, item_order: above.item_order + 1, indent: above.indent + 1 };
      await runCommands(caller, path, [{ type: 'item_add', uuid: nextUuid(name), temp_id: nextUuid('t'), args }], true, keys.items === 'Items' ? 'SyncStatus' : 'sync_status');
    },
    renameTask: async (caller, from, to) => {
      const item = await find(caller, from);
      await runCommands(caller, path, [{ type: 'item_update', uuid: nextUuid(name), args: { id: item.id, content: to } }], true, keys.items === 'Items' ? 'SyncStatus' : 'sync_status');
    },
    renameById: (caller, id, to) => commandAccepted(caller, path, { type: 'item_update', args: { id: Number(id), content: to } }, true, keys.items === 'Items' ? 'SyncStatus' : 'sync_status'),
  };
}

/** Sync v7 at `/API/v7/sync`, form-encoded as its clients sent it. */
export function syncV7Generation(): Generation {
  return oldSyncGeneration('sync-v7', '/API/v7/sync', { sync_token: '*' }, { projects: 'projects', items: 'items', notes: 'notes', labels: 'labels' });
}

/** API v6 at `/API/v6/sync`: `seq_no` instead of a sync token, CamelCase keys. */
export function syncV6Generation(): Generation {
  return oldSyncGeneration('sync-v6', '/API/v6/sync', { seq_no: 0 }, { projects: 'Projects', items: 'Items', notes: 'Notes', labels: 'Labels' });
}
