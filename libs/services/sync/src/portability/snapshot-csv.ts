import { type ArchiveEntry, projectCsvName } from './account-archive';
import { parseTodoistCsv, type TemplateNote, type TemplateTask, type TemplateTree, writeTodoistCsv } from '../templates/todoist-csv';
import type { AccountSnapshot, SnapshotDue, SnapshotNote, SnapshotProject, SnapshotSection, SnapshotTask } from './account-snapshot';
import { MAX_IMPORTED_OBJECTS } from './full-sync-snapshot';

/** A backup's project CSV may be as large as an import file allows, not a template's megabyte. */
export const BACKUP_CSV_LIMITS = { maxRows: MAX_IMPORTED_OBJECTS, maxBytes: 100 * 1024 * 1024 };

/**
 * A snapshot and the CSVs of a Todoist backup, both ways, through the templates' CSV module:
 * a backup writes one CSV per project; an import of a Todoist backup reads them back. The CSV
 * carries what Todoist's does (sections, tasks and subtasks, priorities, labels, dues, notes);
 * what it cannot (colours, favourites, completed tasks, reminders, filters) a Doable backup
 * keeps in its `doable-account.json` instead.
 */

const byKey = <T>(list: readonly T[], keyOf: (item: T) => string | null): Map<string | null, T[]> => {
  const map = new Map<string | null, T[]>();
  for (const item of list) map.set(keyOf(item), [...(map.get(keyOf(item)) ?? []), item]);
  return map;
};
const inOrder = <T extends { childOrder?: number | null; order?: number | null }>(list: readonly T[] = []): T[] =>
  [...list].sort((a, b) => (a.childOrder ?? a.order ?? 0) - (b.childOrder ?? b.order ?? 0));

const csvNote = (note: SnapshotNote): TemplateNote => ({ content: note.content, author: null });

/** One CSV per project, named as Todoist names them; open tasks only, as a Todoist backup has. */
export function projectCsvsOf(snapshot: AccountSnapshot): ArchiveEntry[] {
  const open = snapshot.tasks.filter((task) => !task.checked);
  const children = byKey(open, (task) => task.parentKey);
  const notesOfTask = byKey(
    snapshot.notes.filter((note) => note.taskKey !== null),
    (note) => note.taskKey,
  );
  const toTask = (task: SnapshotTask): TemplateTask => ({
    content: task.content,
    description: task.description,
    priority: task.priority,
    labels: task.labels,
    author: null,
    responsible: null,
    date: task.due ? (task.due.string && /^(every|ev|each|daily|weekly|monthly|yearly)\b/i.test(task.due.string) ? task.due.string : task.due.date) : null,
    dateLang: task.due?.lang ?? null,
    timezone: task.due?.timezone ?? null,
    duration: task.duration && (task.duration.unit === 'minute' || task.duration.unit === 'day') ? { amount: task.duration.amount, unit: task.duration.unit } : null,
    deadline: task.deadline?.date ?? null,
    deadlineLang: task.deadline?.lang ?? null,
    notes: (notesOfTask.get(task.key) ?? []).map(csvNote),
    children: inOrder(children.get(task.key)).map(toTask),
  });
  return snapshot.projects.map((project) => {
    const topLevel = inOrder(open.filter((task) => task.projectKey === project.key && task.parentKey === null));
    const tree: TemplateTree = {
      meta: { view_style: project.viewStyle ?? 'list' },
      notes: snapshot.notes.filter((note) => note.projectKey === project.key).map(csvNote),
      tasks: topLevel.filter((task) => task.sectionKey === null).map(toTask),
      sections: inOrder(snapshot.sections.filter((section) => section.projectKey === project.key && !section.isArchived)).map((section) => ({
        name: section.name,
        tasks: topLevel.filter((task) => task.sectionKey === section.key).map(toTask),
      })),
    };
    return { name: projectCsvName(project.name, project.key), content: writeTodoistCsv(tree) };
  });
}

/** `Work [2203306141].csv` → `Work`; a plain `Work.csv` too. */
function projectNameOf(fileName: string): string {
  return fileName.replace(/\.csv$/i, '').replace(/\s*\[[^\]]*\]$/, '').trim() || 'Imported project';
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?)?$/;

function dueOf(task: TemplateTask): SnapshotDue | null {
  if (!task.date) return null;
  const exact = ISO_DATE.test(task.date);
  return { date: exact ? task.date : null, string: exact ? null : task.date, timezone: task.timezone, lang: task.dateLang };
}

/** The projects of a Todoist backup's CSVs; a file named Inbox fills the account's Inbox. */
export async function snapshotOfBackupCsvs(files: ReadonlyArray<{ readonly name: string; readonly text: string }>): Promise<AccountSnapshot> {
  const trees = [];
  for (const file of files) trees.push({ name: file.name, tree: await parseTodoistCsv(file.text, BACKUP_CSV_LIMITS) });
  return snapshotOfBackupTrees(trees);
}

/** The projects of a Todoist backup's parsed CSVs, in the order of their files. */
export function snapshotOfBackupTrees(files: ReadonlyArray<{ readonly name: string; readonly tree: TemplateTree }>): AccountSnapshot {
  const projects: SnapshotProject[] = [];
  const sections: SnapshotSection[] = [];
  const tasks: SnapshotTask[] = [];
  const notes: SnapshotNote[] = [];
  files.forEach((file, fileIndex) => {
    const tree = file.tree;
    const name = projectNameOf(file.name);
    const projectKey = `f${fileIndex}`;
    projects.push({
      key: projectKey,
      name,
      isInbox: name.toLowerCase() === 'inbox',
      parentKey: null,
      color: null,
      childOrder: fileIndex,
      viewStyle: tree.meta['view_style'] ?? null,
      isFavorite: false,
      isArchived: false,
      description: null,
    });
    let counter = 0;
    const noteOf = (note: TemplateNote, taskKey: string | null): SnapshotNote => ({ key: `${projectKey}n${counter++}`, taskKey, projectKey: taskKey === null ? projectKey : null, content: note.content, fileAttachment: null });
    const add = (task: TemplateTask, sectionKey: string | null, parentKey: string | null, childOrder: number): void => {
      const key = `${projectKey}t${counter++}`;
      tasks.push({
        key,
        projectKey,
        sectionKey,
        parentKey,
        content: task.content,
        description: task.description,
        priority: task.priority,
        childOrder,
        labels: task.labels,
        due: dueOf(task),
        deadline: task.deadline ? { date: task.deadline, lang: task.deadlineLang } : null,
        duration: task.duration,
        isCollapsed: false,
        checked: false,
        completedAt: null,
      });
      notes.push(...task.notes.map((note) => noteOf(note, key)));
      task.children.forEach((child, index) => add(child, sectionKey, key, index + 1));
    };
    notes.push(...tree.notes.map((note) => noteOf(note, null)));
    tree.tasks.forEach((task, index) => add(task, null, null, index + 1));
    tree.sections.forEach((section, sectionIndex) => {
      const sectionKey = `${projectKey}s${sectionIndex}`;
      sections.push({ key: sectionKey, projectKey, name: section.name, order: sectionIndex + 1, isArchived: false });
      section.tasks.forEach((task, index) => add(task, sectionKey, null, index + 1));
    });
  });
  return { projects, sections, tasks, notes, labels: [], filters: [], reminders: [] };
}
