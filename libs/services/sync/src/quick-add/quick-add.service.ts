import type { Dialect } from '@doable/contracts-common';
import { requestIdUuid } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type DateContext, parseDue } from '../dates';
import { SYNC_DIALECTS } from '../dialects/sync-dialects';
import { CommandBatchLog } from '../engine/command-batch-log';
import { COMMAND_HANDLERS, type CommandContext, type CommandHandler } from '../engine/commands/command-handler';
import { eachObject } from '../engine/each-object';
import { lockUser, openChange } from '../engine/user-change';
import type { Item } from '../items/item.model';
import type { Project } from '../projects/project.model';
import type { Section } from '../sections/section.model';
import { ItemRepository } from '../items/item.repository';
import { LabelRepository } from '../labels/label.repository';
import { ProjectRepository } from '../projects/project.repository';
import { SectionRepository } from '../sections/section.repository';
import { UserProfileRepository } from '../users/user-profile.repository';
import { parseQuickAdd } from './quick-add.parser';
import { writeV8Item } from './quick-add-v8.writer';

/** The request parameters of `quick/add` (v9) and `tasks/quick` (api/v1), from a JSON or form body. */
export interface QuickAddParams {
  readonly text?: unknown;
  readonly content?: unknown;
  readonly note?: unknown;
  readonly reminder?: unknown;
  readonly auto_reminder?: unknown;
  readonly meta?: unknown;
}

const scalar = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
const isTrue = (value: unknown): boolean => {
  const v = scalar(value);
  return v === true || v === 1 || v === 'true' || v === '1';
};
/** Where the command log keeps the task a quick add created (its temp-id mapping's one key). */
const CREATED_KEY = 'quick_add';

const optionalText = (value: unknown, argument: string): string | null => {
  const v = scalar(value);
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument}`, { argument });
  return v;
};

/**
 * Quick add: one task line parsed into a task (project, section, labels, priority, due, deadline,
 * description), with an optional comment and reminder, all written in ONE transaction through the
 * same command handlers the Sync API runs, under the user's row lock and one change version.
 */
@Injectable()
export class QuickAddService {
  private readonly handlers: ReadonlyMap<string, CommandHandler>;

  constructor(
    private readonly database: Database,
    private readonly profiles: UserProfileRepository,
    private readonly projects: ProjectRepository,
    private readonly sections: SectionRepository,
    private readonly labels: LabelRepository,
    private readonly items: ItemRepository,
    @Inject(COMMAND_HANDLERS) handlers: CommandHandler[],
  ) {
    this.handlers = new Map(handlers.map((handler) => [handler.type, handler]));
  }

  /**
   * With a `requestId` (the request's `X-Request-Id`) the quick add is idempotent: its outcome is
   * kept in the sync command log under the uuid `rest:<id>`, in the same transaction, and a replay
   * answers the task the first request created without adding anything (also when two race: the
   * user's row lock orders them).
   */
  async quickAdd(userId: string, dialect: Dialect, params: QuickAddParams, now = new Date(), requestId: string | null = null): Promise<Record<string, unknown>> {
    const line = optionalText(params.text ?? params.content, 'text');
    if (line === null) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: text', { argument: 'text' });
    const note = optionalText(params.note, 'note');
    const reminder = optionalText(params.reminder, 'reminder');

    return this.database.transaction(async (tx) => {
      const profile = await lockUser(tx, this.profiles, userId);
      const uuid = requestId === null ? null : requestIdUuid(requestId);
      const log = uuid === null ? null : await CommandBatchLog.load(tx.manager, userId, [uuid]);
      const earlier = uuid === null ? undefined : log?.outcomeOf(uuid);
      if (earlier !== undefined) {
        const createdId = earlier.status === 'ok' ? earlier.tempIdMapping[CREATED_KEY] : undefined;
        if (createdId === undefined) {
          throw new DomainError('INVALID_ARGUMENT_VALUE', 'X-Request-Id was already used by a request that was not this quick add', { argument: 'X-Request-Id' });
        }
        const item = await this.items.findVisibleForUpdate(tx.manager, userId, createdId);
        if (!item) throw new DomainError('ITEM_NOT_FOUND', 'The task this request created earlier no longer exists');
        return this.render(tx.manager, userId, dialect, item, line, note !== null, isTrue(params.meta));
      }
      const change = await openChange(tx, this.profiles, profile);
      const context: CommandContext = {
        tx,
        userId,
        version: change.version,
        user: change.user,
        touch: change.touch,
        // Quick add only passes ids it has just read or created.
        resolveId: (value) => Promise.resolve(String(value)),
        eachObject: (entries, work) => eachObject(tx, entries, work),
      };
      const dateContext: DateContext = { now, timezone: profile.timezone, startDay: profile.start_day, nextWeekDay: profile.next_week };
      const asDue = (text: string) => {
        try {
          return parseDue({ string: text }, dateContext);
        } catch {
          return null;
        }
      };

      const projects = await this.projects.listActive(tx.manager, userId);
      const sections = await this.sections.listActive(tx.manager, userId);
      const parsed = parseQuickAdd(line, {
        projects: projects.map((project) => ({ id: project.id, name: project.name })),
        sections: sections.map((section) => ({ id: section.id, projectId: section.project_id, name: section.name })),
        inboxProjectId: profile.inbox_project_id,
        isDate: (text) => asDue(text) !== null,
      });
      const labelNames = await this.ensureLabels(context, parsed.labels);
      const deadline = parsed.deadlineString ? asDue(parsed.deadlineString) : null;

      const { createdId } = await this.run(context, 'item_add', {
        content: parsed.content,
        description: parsed.description ?? undefined,
        project_id: parsed.projectId ?? undefined,
        section_id: parsed.sectionId ?? undefined,
        labels: labelNames,
        priority: parsed.priority ?? undefined,
        due: parsed.dueString ? { string: parsed.dueString } : undefined,
        deadline: deadline ? { date: deadline.date.slice(0, 10) } : undefined,
        auto_reminder: isTrue(params.auto_reminder),
      });
      if (!createdId) throw new DomainError('INTERNAL');
      if (note !== null) await this.run(context, 'note_add', { item_id: createdId, content: note });
      if (reminder !== null) await this.run(context, 'reminder_add', { item_id: createdId, type: 'absolute', due: { string: reminder } });
      if (uuid !== null && log) {
        log.record(uuid, 'ok', { [CREATED_KEY]: createdId });
        await log.flush();
      }
      await change.close();

      const item = await this.items.findVisibleForUpdate(tx.manager, userId, createdId);
      if (!item) throw new DomainError('INTERNAL');
      return this.render(tx.manager, userId, dialect, item, line, note !== null, isTrue(params.meta), { projects, sections });
    });
  }

  /** The created task in the dialect's shape, with `meta` (what the line was read as) when asked. */
  /**
   * `known` holds the user's active projects and sections when the caller has read them already
   * (a first quick add reads them to resolve `#project` and `/section`); a replay reads them here,
   * and only when `meta` asks for their names.
   */
  private async render(
    manager: EntityManager,
    userId: string,
    dialect: Dialect,
    item: Item,
    line: string,
    withNote: boolean,
    meta: boolean,
    known?: { readonly projects: readonly Project[]; readonly sections: readonly Section[] },
  ): Promise<Record<string, unknown>> {
    const writers = SYNC_DIALECTS[dialect === 'sync-v7' ? 'sync-v7' : dialect === 'sync-v9' || dialect === 'sync-v8' ? 'sync-v9' : 'sync-api-v1'].writers;
    const labelRows = await Promise.all(item.labels.map((name) => this.labels.findByNameForUpdate(manager, userId, name)));
    const v9OrV1 = writers.item(item);
    const body = dialect === 'sync-v8' ? writeV8Item(v9OrV1, new Map(labelRows.flatMap((label) => (label ? [[label.name.toLowerCase(), label.id] as const] : [])))) : v9OrV1;
    // v7 names labels by id; its writer alone has no labels read to name them by.
    if (dialect === 'sync-v7') body['labels'] = labelRows.flatMap((label) => (label ? [Number(label.id)] : []));
    // The writer counts no comments (sync reads never need it); this task has exactly the one made with it.
    if (withNote && 'note_count' in body) body['note_count'] = 1;
    if (!meta) return body;
    const projects = known?.projects ?? (await this.projects.listActive(manager, userId));
    const sections = known?.sections ?? (await this.sections.listActive(manager, userId));
    const project = projects.find((candidate) => candidate.id === item.project_id);
    const section = sections.find((candidate) => candidate.id === item.section_id);
    const labels = labelRows;
    return {
        ...body,
        meta: {
          project: [item.project_id, project?.name ?? null],
          section: section ? [section.id, section.name] : null,
          labels: Object.fromEntries(labels.flatMap((label) => (label ? [[label.id, label.name]] : []))),
          due: body['due'] ?? null,
          deadline: body['deadline'] ?? null,
          priority: item.priority,
          content: item.content,
          text: line,
        },
      };
  }

  /** Personal labels by name: an existing label keeps its own spelling, an unknown one is created. */
  private async ensureLabels(context: CommandContext, names: readonly string[]): Promise<string[]> {
    const result: string[] = [];
    for (const name of names) {
      const existing = await this.labels.findByNameForUpdate(context.tx.manager, context.userId, name);
      if (existing) result.push(existing.name);
      else {
        await this.run(context, 'label_add', { name });
        result.push(name);
      }
    }
    return result;
  }

  private run(context: CommandContext, type: string, args: Record<string, unknown>) {
    const handler = this.handlers.get(type);
    if (!handler) throw new DomainError('UNKNOWN_COMMAND', `Unknown command type: ${type}`, { command_type: type });
    return handler.run(context, args);
  }
}
