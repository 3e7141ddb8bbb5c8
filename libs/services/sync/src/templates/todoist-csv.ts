import { type Parser, parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { DomainError } from '@doable/shared-errors';

/**
 * The Todoist CSV template and backup format, both ways, with no database: a project's content
 * as a plain tree (sections, tasks with their subtasks, notes) ↔ the rows Todoist writes. Used
 * by template export/import here, and meant for automatic backups (one CSV per project) and
 * account import.
 *
 * The format, as Todoist's help centre documents it and its exports write it:
 * - a header row, then rows of TYPE `task`, `section`, `note` (a comment on the task above it,
 *   or on the project when no task came before) and `meta` (CONTENT `view_style=list`), with
 *   blank rows between groups;
 * - PRIORITY 1 is p1, the highest: the opposite of the API's 4 (csv = 5 - api);
 * - INDENT 1 is a top-level task, 2 its subtask, and so on;
 * - a task's labels are written inside CONTENT as `@label`, as when typing a task;
 * - AUTHOR and RESPONSIBLE are `Name (id)`;
 * - DATE is the due date as text (the recurrence's words for a recurring task), DATE_LANG its
 *   language, TIMEZONE the zone of a fixed-zone due time.
 */

/** The header recent Todoist exports write. */
export const TODOIST_CSV_COLUMNS = [
  'TYPE',
  'CONTENT',
  'DESCRIPTION',
  'PRIORITY',
  'INDENT',
  'AUTHOR',
  'RESPONSIBLE',
  'DATE',
  'DATE_LANG',
  'TIMEZONE',
  'DURATION',
  'DURATION_UNIT',
  'DEADLINE',
  'DEADLINE_LANG',
] as const;
type Column = (typeof TODOIST_CSV_COLUMNS)[number];

/** Someone named in AUTHOR or RESPONSIBLE: `Name (id)`; an id alone when written as such. */
export interface CsvPerson {
  readonly name: string;
  readonly id: string | null;
}

export interface TemplateNote {
  readonly content: string;
  readonly author: CsvPerson | null;
}

export interface TemplateTask {
  readonly content: string;
  readonly description: string;
  /** The API's priority: 1 (normal) to 4 (p1, urgent). */
  readonly priority: number;
  readonly labels: readonly string[];
  readonly author: CsvPerson | null;
  readonly responsible: CsvPerson | null;
  /** The due date as text: an ISO date or date-time, or words (`every monday`). */
  readonly date: string | null;
  readonly dateLang: string | null;
  readonly timezone: string | null;
  readonly duration: { readonly amount: number; readonly unit: 'minute' | 'day' } | null;
  readonly deadline: string | null;
  readonly deadlineLang: string | null;
  readonly notes: readonly TemplateNote[];
  readonly children: readonly TemplateTask[];
}

export interface TemplateSection {
  readonly name: string;
  readonly tasks: readonly TemplateTask[];
}

/** One project's content: its own notes, the tasks outside any section, then its sections in order. */
export interface TemplateTree {
  /** `meta` rows as `key=value` (view_style...), in order. */
  readonly meta: Readonly<Record<string, string>>;
  readonly notes: readonly TemplateNote[];
  readonly tasks: readonly TemplateTask[];
  readonly sections: readonly TemplateSection[];
}

/** The largest file a template may be (the gateway's inline multipart limit). */
export const MAX_TEMPLATE_BYTES = 1024 * 1024;
/** The parser's default bound on rows (callers with a tighter budget pass their own `maxRows`). */
export const MAX_TEMPLATE_ROWS = 5000;
const MAX_INDENT = 5;
/** The longest row read (csv-parse's `max_record_size`). */
export const MAX_RECORD_BYTES = 1024 * 1024;

const LABEL_PATTERN = /(^|\s)@([^\s@]+)/g;

// ---------------------------------------------------------------- writing

function person(value: CsvPerson | null): string {
  if (!value) return '';
  return value.id === null ? value.name : `${value.name} (${value.id})`;
}

function contentWithLabels(task: TemplateTask): string {
  return [task.content, ...task.labels.map((label) => `@${label}`)].join(' ');
}

/** The CSV text of a tree, header first, in the layout Todoist exports. */
export function writeTodoistCsv(tree: TemplateTree): string {
  const rows: string[][] = [];
  const row = (values: Partial<Record<Column, string | number | null>>): void => {
    rows.push(TODOIST_CSV_COLUMNS.map((column) => (values[column] === null || values[column] === undefined ? '' : String(values[column]))));
  };
  const blank = (): void => {
    rows.push(TODOIST_CSV_COLUMNS.map(() => ''));
  };
  const notes = (list: readonly TemplateNote[]): void => {
    for (const note of list) row({ TYPE: 'note', CONTENT: note.content, AUTHOR: person(note.author) });
  };
  const tasks = (list: readonly TemplateTask[], indent: number): void => {
    for (const task of list) {
      row({
        TYPE: 'task',
        CONTENT: contentWithLabels(task),
        DESCRIPTION: task.description,
        PRIORITY: 5 - task.priority,
        INDENT: indent,
        AUTHOR: person(task.author),
        RESPONSIBLE: person(task.responsible),
        DATE: task.date,
        DATE_LANG: task.dateLang,
        TIMEZONE: task.timezone,
        DURATION: task.duration?.amount ?? null,
        DURATION_UNIT: task.duration?.unit ?? null,
        DEADLINE: task.deadline,
        DEADLINE_LANG: task.deadlineLang,
      });
      notes(task.notes);
      tasks(task.children, indent + 1);
    }
  };
  for (const [key, value] of Object.entries(tree.meta)) row({ TYPE: 'meta', CONTENT: `${key}=${value}` });
  notes(tree.notes);
  if (tree.notes.length > 0 || Object.keys(tree.meta).length > 0) blank();
  tasks(tree.tasks, 1);
  if (tree.tasks.length > 0) blank();
  for (const section of tree.sections) {
    row({ TYPE: 'section', CONTENT: section.name });
    tasks(section.tasks, 1);
    blank();
  }
  return stringify([[...TODOIST_CSV_COLUMNS], ...rows]);
}

// ---------------------------------------------------------------- reading

function malformed(message: string, extra: Record<string, unknown> = {}): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', `Invalid template file: ${message}`, { argument: 'file', ...extra });
}

function parsePerson(text: string): CsvPerson | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const named = /^(.*?)\s*\(([0-9]+)\)$/.exec(trimmed);
  if (named) return { name: named[1], id: named[2] };
  return /^[0-9]+$/.test(trimmed) ? { name: '', id: trimmed } : { name: trimmed, id: null };
}

/** The labels written in a task's CONTENT, and the content without them. */
export function splitLabels(text: string): { content: string; labels: string[] } {
  const labels: string[] = [];
  const content = text
    .replace(LABEL_PATTERN, (_match, lead: string, label: string) => {
      if (!labels.includes(label)) labels.push(label);
      return lead;
    })
    .replace(/\s+/g, ' ')
    .trim();
  return { content, labels };
}

interface MutableTask extends Omit<TemplateTask, 'notes' | 'children'> {
  notes: TemplateNote[];
  children: MutableTask[];
}

/**
 * The tree of a Todoist CSV, read as a stream: bytes are written as they arrive (from a zip
 * entry being inflated, or a template's text in slices), csv-parse's stream parser hands over
 * one record at a time, and rows and bytes are counted as they come. A file over its bound is
 * refused at row `maxRows + 1` or byte `maxBytes + 1`, never parsed whole first: a 99 MiB CSV of
 * tasks costs what its first rows cost.
 *
 * Tolerant of what real files carry: a UTF-8 BOM, CRLF, the older header without DESCRIPTION
 * and the duration/deadline columns (v8 era), columns in any order and of any case, unknown
 * columns, blank rows, missing trailing cells, an empty PRIORITY (normal) or INDENT (top level),
 * an INDENT deeper than the task above allows (it becomes that task's subtask). Refused with
 * INVALID_ARGUMENT_VALUE (argument `file`, the row's number): what is not CSV, a header without
 * TYPE and CONTENT, an unknown TYPE, a PRIORITY or INDENT that is not a small number, a task
 * without content, more rows or bytes than allowed.
 */
export class TodoistCsvReader {
  private readonly maxRows: number;
  private readonly maxBytes: number;
  private readonly parser: Parser;
  private readonly ended: Promise<void>;
  private failure: DomainError | null = null;
  private bytes = 0;
  private rows = 0;
  private recordIndex = -1;
  private at: Map<string, number> | null = null;
  private readonly meta: Record<string, string> = {};
  private readonly projectNotes: TemplateNote[] = [];
  private readonly rootTasks: MutableTask[] = [];
  private readonly sections: Array<{ name: string; tasks: MutableTask[] }> = [];
  // The chain of the last task at each depth, for INDENT; reset by a section.
  private chain: MutableTask[] = [];
  private lastTask: MutableTask | null = null;

  constructor(options: { maxRows?: number; maxBytes?: number } = {}) {
    this.maxRows = options.maxRows ?? MAX_TEMPLATE_ROWS;
    this.maxBytes = options.maxBytes ?? MAX_TEMPLATE_BYTES;
    // Records are taken in `on_record` and filtered out of the stream's readable side: a push
    // through the stream machinery per record costs several times the parsing itself.
    this.parser = parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: false,
      trim: false,
      // A row past this is no task (a megabyte is a whole template): without it, a file with no
      // line break (a ZIP bomb's zeros) would be gathered into one field up to its byte bound.
      max_record_size: MAX_RECORD_BYTES,
      on_record: (record: string[]) => {
        if (!this.failure) {
          try {
            this.add(record);
          } catch (err) {
            this.fail(err instanceof DomainError ? err : malformed('not CSV'));
          }
        }
        return null;
      },
    });
    // Nothing comes out of the readable side; flowing mode lets 'end' come.
    this.parser.resume();
    // Every record was handed over by its 'end'; its errors become the refusal.
    this.ended = new Promise<void>((resolve) => {
      this.parser.on('end', resolve);
      this.parser.on('error', (err: Error) => {
        this.fail(malformed(err.message.split('\n')[0] || 'not CSV'));
        resolve();
      });
      this.parser.on('close', resolve);
    });
  }

  /** Why the file was refused, once it is; the caller stops writing. */
  get refusal(): DomainError | null {
    return this.failure;
  }

  /** The next bytes of the file. Records come out synchronously or by the next tick. */
  write(chunk: Uint8Array): void {
    if (this.failure) return;
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return this.fail(malformed(`larger than ${this.maxBytes} bytes`));
    this.parser.write(chunk);
  }

  /** Stops reading (the caller gave up on the file). */
  destroy(): void {
    this.parser.destroy();
  }

  /** The tree, once every byte was written; or the refusal. */
  async end(): Promise<TemplateTree> {
    if (!this.failure) this.parser.end();
    await this.ended;
    if (this.failure) throw this.failure;
    if (!this.at) throw malformed('empty file');
    return { meta: this.meta, notes: this.projectNotes, tasks: this.rootTasks, sections: this.sections };
  }

  private fail(refusal: DomainError): void {
    this.failure ??= refusal;
    this.parser.destroy();
  }

  private add(record: string[]): void {
    const rowNumber = ++this.recordIndex + 1;
    const blank = record.every((value) => value.trim() === '');
    if (!this.at) {
      if (!blank) this.at = this.readHeader(record, rowNumber);
      return;
    }
    if (blank) return;
    if (++this.rows > this.maxRows) throw malformed(`more than ${this.maxRows} rows`, { max_rows: this.maxRows });
    const at = this.at;
    const cell = (column: Column): string => {
      const position = at.get(column);
      return position === undefined ? '' : (record[position] ?? '');
    };
    const type = cell('TYPE').trim().toLowerCase();
    const content = cell('CONTENT');
    switch (type) {
      case 'meta': {
        const separator = content.indexOf('=');
        if (separator > 0) this.meta[content.slice(0, separator).trim()] = content.slice(separator + 1).trim();
        break;
      }
      case 'section': {
        const name = content.trim();
        if (name === '') throw malformed('a section without a name', { row: rowNumber });
        this.sections.push({ name, tasks: [] });
        this.chain = [];
        this.lastTask = null;
        break;
      }
      case 'note': {
        const note = { content, author: parsePerson(cell('AUTHOR')) };
        if (this.lastTask) this.lastTask.notes.push(note);
        else this.projectNotes.push(note);
        break;
      }
      case 'task': {
        const task = readTask(cell, rowNumber);
        const wanted = readSmallNumber(cell('INDENT'), 'INDENT', rowNumber, 1, MAX_INDENT, 1);
        const depth = Math.min(wanted, this.chain.length + 1);
        this.chain = this.chain.slice(0, depth - 1);
        const parent = this.chain[depth - 2];
        if (parent) parent.children.push(task);
        else (this.sections.length > 0 ? this.sections[this.sections.length - 1].tasks : this.rootTasks).push(task);
        this.chain.push(task);
        this.lastTask = task;
        break;
      }
      default:
        throw malformed(`unknown TYPE ${JSON.stringify(type.slice(0, 20))}`, { row: rowNumber });
    }
  }

  private readHeader(record: string[], rowNumber: number): Map<string, number> {
    const header = record.map((cell) => cell.replace(/^\uFEFF/, '').trim().toUpperCase());
    const at = new Map<string, number>();
    header.forEach((name, index) => {
      if (!at.has(name)) at.set(name, index);
    });
    if (!at.has('TYPE') || !at.has('CONTENT')) throw malformed('the header must name TYPE and CONTENT', { row: rowNumber });
    return at;
  }
}

/** Bytes parsed per turn of the event loop: ~170 short rows, a few milliseconds of csv-parse on a quiet core. */
const PARSE_SLICE_BYTES = 4 * 1024;

/**
 * The tree of a CSV held as text (a template's `file` parameter): written to the stream reader
 * a slice at a time, yielding to the event loop between slices so other requests run beside it.
 */
export async function parseTodoistCsv(text: string, options: { maxRows?: number; maxBytes?: number } = {}): Promise<TemplateTree> {
  const maxBytes = options.maxBytes ?? MAX_TEMPLATE_BYTES;
  if (Buffer.byteLength(text, 'utf8') > maxBytes) throw malformed(`larger than ${maxBytes} bytes`);
  const bytes = Buffer.from(text, 'utf8');
  const reader = new TodoistCsvReader(options);
  for (let offset = 0; offset < bytes.length && !reader.refusal; offset += PARSE_SLICE_BYTES) {
    if (offset > 0) await yieldToEventLoop();
    reader.write(bytes.subarray(offset, offset + PARSE_SLICE_BYTES));
  }
  return reader.end();
}

/** Lets timers and I/O run (a resolved promise would not: microtasks run before any I/O). */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function readSmallNumber(text: string, column: string, row: number, min: number, max: number, fallback: number): number {
  const trimmed = text.trim();
  if (trimmed === '') return fallback;
  if (!/^[0-9]{1,3}$/.test(trimmed) || Number(trimmed) < min || Number(trimmed) > max) throw malformed(`${column} must be ${min} to ${max}`, { row, column });
  return Number(trimmed);
}

function readTask(cell: (column: Column) => string, row: number): MutableTask {
  const { content, labels } = splitLabels(cell('CONTENT'));
  if (content === '') throw malformed('a task without content', { row });
  // Empty is normal priority (p4), as a task typed without one.
  const csvPriority = readSmallNumber(cell('PRIORITY'), 'PRIORITY', row, 1, 4, 4);
  const optional = (column: Column): string | null => {
    const value = cell(column).trim();
    return value === '' ? null : value;
  };
  const amount = optional('DURATION');
  const unit = optional('DURATION_UNIT')?.toLowerCase() ?? 'minute';
  let duration: TemplateTask['duration'] = null;
  if (amount !== null) {
    if (!/^[0-9]{1,6}$/.test(amount) || Number(amount) < 1) throw malformed('DURATION must be a positive whole number', { row, column: 'DURATION' });
    if (unit !== 'minute' && unit !== 'day') throw malformed('DURATION_UNIT must be minute or day', { row, column: 'DURATION_UNIT' });
    duration = { amount: Number(amount), unit };
  }
  return {
    content,
    description: cell('DESCRIPTION'),
    priority: 5 - csvPriority,
    labels,
    author: parsePerson(cell('AUTHOR')),
    responsible: parsePerson(cell('RESPONSIBLE')),
    date: optional('DATE'),
    dateLang: optional('DATE_LANG'),
    timezone: optional('TIMEZONE'),
    duration,
    deadline: optional('DEADLINE'),
    deadlineLang: optional('DEADLINE_LANG'),
    notes: [],
    children: [],
  };
}
