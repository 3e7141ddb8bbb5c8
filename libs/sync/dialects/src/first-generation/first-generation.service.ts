import { randomUUID } from 'node:crypto';
import { type EdgeReply, type EdgeRequest, type Principal } from '@doable/contracts-common';
import type { WithPrincipal } from '@doable/shared-transport';
import { FIRST_GENERATION_CALLS, FIRST_GENERATION_SYNC_CALLS, FIRST_GENERATION_SYNC_VERSIONS, type FirstGenerationCall, type FirstGenerationSyncCall } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CompletedRepository, type Item, ItemRepository, type ItemRow, LabelRepository, PlanLimitsRepository, ProjectRepository, requireCompletedTasks, UserProfileRepository } from '@doable/sync-domain';
import { CommandExecutor, firstRefusal, mayRead, type SyncCommand } from '@doable/sync-engine';
import { MembershipChangesRepository, TaskFilterService } from '@doable/sync-read';
import { flag, integerId, legacyTimestamp, withV6Keys } from '../legacy';
import { canonicalCommands, type LegacyCommand } from './legacy-commands';
import { FirstGenerationParams } from './first-generation-params';
import { filterOf, queryType } from './first-generation-query';
import { FirstGenerationReadsRepository } from './first-generation-reads.repository';
import { FIRST_GENERATION_TAGS, FirstGenerationRefusal, refusalOfError, refusalOfStatus } from './first-generation-refusal';
import { itemPlaces, projectPlaces, renderItem, renderLabel, renderProject } from './first-generation-render';
import { firstGenerationReply, jsonpCallback, refusalReply } from './first-generation-reply';

/** getCompletedItems pages by `offset`; the help names no page size. Guess: 30, as v9's completed/get_all. */
const COMPLETED_PAGE = 30;
/** As many ids or searches as a Sync API request has commands. */
const MAX_LIST = 100;

/** `/API/<call>` or `/TodoistSync/<version>/<call>`: which call a path names, if any. */
export function callOf(path: string): FirstGenerationCall | FirstGenerationSyncCall | undefined {
  const api = /^\/API\/([A-Za-z]+)\/?$/.exec(path);
  if (api) return (FIRST_GENERATION_CALLS as readonly string[]).includes(api[1]) ? (api[1] as FirstGenerationCall) : undefined;
  const sync = /^\/TodoistSync\/([^/]+)\/([A-Za-z]+)\/?$/.exec(path);
  if (sync && (FIRST_GENERATION_SYNC_VERSIONS as readonly string[]).includes(sync[1]) && (FIRST_GENERATION_SYNC_CALLS as readonly string[]).includes(sync[2])) {
    return sync[2] as FirstGenerationSyncCall;
  }
  return undefined;
}

/** What a read call is given: who asks, in which zone dates are read, and a read snapshot. */
interface ReadContext {
  readonly userId: string;
  readonly timezone: string;
  readonly manager: EntityManager;
}

/**
 * The first-generation interface over the one domain (public-api-facts §1.8, sync-interface §9).
 * Writes are the domain's canonical commands, run by CommandExecutor (so scopes, validation,
 * rate of change and idempotency are those of every generation); reads are one snapshot each,
 * one query per list. Answers and refusals take the old shapes (first-generation-render.ts,
 * first-generation-refusal.ts); `callback=` wraps either as JSONP.
 */
@Injectable()
export class FirstGenerationService {
  constructor(
    private readonly database: Database,
    private readonly executor: CommandExecutor,
    private readonly profiles: UserProfileRepository,
    private readonly projects: ProjectRepository,
    private readonly items: ItemRepository,
    private readonly labels: LabelRepository,
    private readonly reads: FirstGenerationReadsRepository,
    private readonly completed: CompletedRepository,
    private readonly filters: TaskFilterService,
    private readonly memberships: MembershipChangesRepository,
    private readonly plans: PlanLimitsRepository,
  ) {}

  async handle(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    const params = new FirstGenerationParams(request);
    let callback: string | undefined;
    try {
      callback = jsonpCallback(params.text('callback'));
      const call = callOf(request.path);
      if (call === undefined) throw new DomainError('ROUTE_NOT_FOUND', `No first-generation call at ${request.path}`);
      return firstGenerationReply(200, await this.answer(call, request.principal, params), callback);
    } catch (err) {
      const refusal = err instanceof FirstGenerationRefusal ? err : err instanceof DomainError ? refusalOfError(err) : undefined;
      if (refusal) return refusalReply(refusal, callback);
      throw err;
    }
  }

  private async answer(call: FirstGenerationCall | FirstGenerationSyncCall, principal: Principal, params: FirstGenerationParams): Promise<unknown> {
    // auth-oauth answers login (it holds the passwords: oauth/legacy-login.ts); the gateway never routes it here.
    if (call === 'login') throw new DomainError('ROUTE_NOT_FOUND', 'login is answered by auth-oauth');
    switch (call) {
      case 'getProjects':
        return this.read(principal, (ctx) => this.getProjects(ctx));
      case 'getProject':
        return this.read(principal, (ctx) => this.getProject(ctx, params.id('project_id', FirstGenerationRefusal.projectNotFound())));
      case 'getLabels':
        return this.read(principal, (ctx) => this.getLabels(ctx));
      case 'getUncompletedItems':
        return this.read(principal, (ctx) => this.getUncompletedItems(ctx, params.id('project_id', FirstGenerationRefusal.projectNotFound())));
      case 'getCompletedItems': {
        const projectId = params.id('project_id', FirstGenerationRefusal.projectNotFound());
        const offset = params.integer('offset', 0, 1_000_000) ?? 0;
        return this.read(principal, (ctx) => this.getCompletedItems(ctx, projectId, offset));
      }
      case 'getItemsById': {
        const ids = params.idList('ids', MAX_LIST);
        return this.read(principal, (ctx) => this.getItemsById(ctx, ids));
      }
      case 'query':
        return this.query(principal, params);
      case 'addItem':
        return this.addItem(principal, params);
      case 'updateItem':
        return this.updateItem(principal, params);
      case 'deleteItems':
        return this.runOnIds(principal, 'item_delete', params.idList('ids', MAX_LIST), {});
      case 'completeItems': {
        const inHistory = params.has('in_history') ? params.text('in_history') !== '0' : true;
        return this.runOnIds(principal, 'item_complete', params.idList('ids', MAX_LIST), { force_history: inHistory });
      }
      case 'get':
        return this.read(principal, (ctx) => this.syncData(ctx, params));
      case 'sync':
        return this.sync(principal, params);
      case 'syncAndGet':
      case 'syncAndGetUpdated':
        return this.syncAndGet(principal, params);
    }
  }

  /** A read call: the token must be allowed to read (a task:add-only token adds tasks without seeing any). */
  private async read<T>(principal: Principal, work: (ctx: ReadContext) => Promise<T>): Promise<T> {
    if (!mayRead(principal, 'first_generation')) throw FirstGenerationRefusal.forbidden('This token may not read data (data:read or data:read_write)');
    return this.database.readSnapshot(async (manager) => work({ userId: principal.userId, timezone: await this.timezoneOf(manager, principal.userId), manager }));
  }

  private async timezoneOf(manager: EntityManager, userId: string): Promise<string> {
    return (await this.profiles.find(manager, userId))?.timezone ?? 'UTC';
  }

  private async getProjects(ctx: ReadContext): Promise<unknown[]> {
    const [projects, counts] = [await this.projects.listActive(ctx.manager, ctx.userId), await this.reads.uncompletedCounts(ctx.manager, ctx.userId)];
    const places = projectPlaces(projects);
    return projects.map((project) => renderProject(project, places, counts.get(project.id) ?? 0)).sort((a, b) => a.item_order - b.item_order);
  }

  private async getProject(ctx: ReadContext, projectId: string): Promise<unknown> {
    const found = (await this.getProjects(ctx)).find((project) => String((project as { id: number }).id) === projectId);
    if (!found) throw FirstGenerationRefusal.projectNotFound();
    return found;
  }

  /** A map of label name -> label (pytodoist: "a map of label name -> label details"). */
  private async getLabels(ctx: ReadContext): Promise<Record<string, unknown>> {
    const labels = await this.labels.listActive(ctx.manager, ctx.userId);
    return Object.fromEntries(labels.map((label) => [label.name, renderLabel(label)]));
  }

  private async requireOpenProject(ctx: ReadContext, projectId: string): Promise<void> {
    const project = await this.projects.findVisible(ctx.manager, ctx.userId, projectId);
    if (!project || project.is_deleted || project.is_archived) throw FirstGenerationRefusal.projectNotFound();
  }

  private async getUncompletedItems(ctx: ReadContext, projectId: string): Promise<unknown[]> {
    await this.requireOpenProject(ctx, projectId);
    const items = await this.reads.uncompletedIn(ctx.manager, ctx.userId, [projectId]);
    return this.renderItems(ctx, items, items).sort((a, b) => a.item_order - b.item_order);
  }

  private async getCompletedItems(ctx: ReadContext, projectId: string, offset: number): Promise<unknown[]> {
    await requireCompletedTasks(ctx.manager, this.plans, ctx.userId);
    await this.requireOpenProject(ctx, projectId);
    const items = await this.completed.page(ctx.manager, ctx.userId, { projectId, label: null, since: null, until: null, limit: COMPLETED_PAGE, offset });
    return this.renderItems(ctx, items, []);
  }

  private async getItemsById(ctx: ReadContext, ids: readonly string[]): Promise<unknown[]> {
    const items = await this.reads.byIds(ctx.manager, ctx.userId, ids);
    return this.renderItems(ctx, items, await this.reads.uncompletedIn(ctx.manager, ctx.userId, [...new Set(items.map((item) => item.project_id))]));
  }

  /** Tasks in the old shape, placed in the flat lists of `uncompleted` (their projects' open tasks). */
  private renderItems(ctx: ReadContext, items: readonly ItemRow[], uncompleted: readonly Item[]): ReturnType<typeof renderItem>[] {
    const places = itemPlaces(uncompleted);
    return items.map((item) => renderItem(item, places, ctx.timezone));
  }

  /** `query`: each search on its own, `{query, type, data}`; `as_count=1` answers counts in `data`. */
  private async query(principal: Principal, params: FirstGenerationParams): Promise<unknown[]> {
    const queries = params.list('queries');
    if (queries.length > MAX_LIST || queries.some((query) => typeof query !== 'string' || query.trim() === '')) throw FirstGenerationRefusal.invalid('queries');
    const asCount = params.text('as_count') === '1';
    return this.read(principal, async (ctx) => {
      const found: Array<{ query: string; items: ItemRow[] }> = [];
      for (const query of queries as string[]) {
        // One statement per search (each comma list of it), not per task.
        const lists = await this.filters.find(ctx.manager, ctx.userId, filterOf(query));
        found.push({ query, items: lists.flat() });
      }
      const projects = [...new Set(found.flatMap(({ items }) => items.map((item) => item.project_id)))];
      const places = itemPlaces(asCount ? [] : await this.reads.uncompletedIn(ctx.manager, ctx.userId, projects));
      return found.map(({ query, items }) => ({
        query,
        type: queryType(query),
        data: asCount ? items.length : items.map((item) => renderItem(item, places, ctx.timezone)),
      }));
    });
  }

  /** Runs commands and answers the refusal of the first refused one, if any. */
  private async run(principal: Principal, commands: readonly SyncCommand[]): Promise<Record<string, string>> {
    const result = await this.executor.run(principal, commands);
    for (const command of commands) {
      const refused = firstRefusal(result.syncStatus[command.uuid] ?? 'ok');
      if (refused) throw refusalOfStatus(refused);
    }
    return result.tempIdMapping;
  }

  /** A task the caller just wrote, read back for the answer (also for a task:add-only token: it made the task). */
  private async itemAnswer(userId: string, itemId: string): Promise<unknown> {
    return this.database.readSnapshot(async (manager) => {
      const [item] = await this.reads.byIds(manager, userId, [itemId]);
      if (!item) throw FirstGenerationRefusal.itemNotFound();
      const ctx = { userId, timezone: await this.timezoneOf(manager, userId), manager };
      return this.renderItems(ctx, [item], await this.reads.uncompletedIn(manager, userId, [item.project_id]))[0];
    });
  }

  private async userTimezone(userId: string): Promise<string> {
    return this.timezoneOf(this.database.dataSource.manager, userId);
  }

  /** The single calls' arguments as a legacy command's (the same translation as items_to_sync). */
  private itemArgs(params: FirstGenerationParams, names: readonly string[]): Record<string, unknown> {
    return Object.fromEntries(names.filter((name) => params.has(name)).map((name) => [name, params.raw(name)]));
  }

  private async addItem(principal: Principal, params: FirstGenerationParams): Promise<unknown> {
    const projectId = params.optionalId('project_id', FirstGenerationRefusal.projectNotFound());
    if (params.text('content') === undefined) throw new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.NAME_IS_EMPTY, 'content is required');
    const tempId = randomUUID();
    const legacy: LegacyCommand[] = [{ type: 'item_add', temp_id: tempId, args: { ...this.itemArgs(params, ['content', 'date_string', 'priority', 'indent', 'item_order']), project_id: projectId } }];
    const mapping = await this.run(principal, canonicalCommands(principal.userId, legacy, await this.userTimezone(principal.userId)));
    return this.itemAnswer(principal.userId, mapping[tempId]);
  }

  private async updateItem(principal: Principal, params: FirstGenerationParams): Promise<unknown> {
    const id = params.id('id', FirstGenerationRefusal.itemNotFound());
    const [command] = canonicalCommands(principal.userId, [{ type: 'item_update', args: { ...this.itemArgs(params, ['content', 'date_string', 'priority']), id } }], await this.userTimezone(principal.userId));
    await this.run(principal, [command]);
    if (!mayRead(principal, 'first_generation')) return 'ok';
    return this.itemAnswer(principal.userId, id);
  }

  /** deleteItems / completeItems: one command over the ids, answered `"ok"` (the help text's answer). */
  private async runOnIds(principal: Principal, type: 'item_delete' | 'item_complete', ids: readonly string[], extra: Record<string, unknown>): Promise<string> {
    await this.run(principal, [{ type, uuid: randomUUID(), args: { ids, ...extra } }]);
    return 'ok';
  }

  /** The temp id mapping with real ids as JSON numbers. */
  private static mapping(tempIdMapping: Record<string, string>): Record<string, number> {
    return Object.fromEntries(Object.entries(tempIdMapping).map(([tempId, id]) => [tempId, integerId(id)]));
  }

  /**
   * `sync`: `items_to_sync` run as the domain's commands; the answer is the temp id mapping (the
   * v5.3 help's answer: `{"$1411653993012": 128501470}`). A refused command is not reported: the
   * old call had no per-command status (its clients read the mapping only).
   */
  private async sync(principal: Principal, params: FirstGenerationParams): Promise<Record<string, number>> {
    const legacy = params.list('items_to_sync');
    if (legacy.length > MAX_LIST) throw FirstGenerationRefusal.invalid('items_to_sync');
    const result = await this.executor.run(principal, canonicalCommands(principal.userId, legacy, await this.userTimezone(principal.userId)));
    return FirstGenerationService.mapping(result.tempIdMapping);
  }

  /** `syncAndGetUpdated`: `sync`, then `get` from the client's `seq_no`, with `TempIdMapping`. */
  private async syncAndGet(principal: Principal, params: FirstGenerationParams): Promise<Record<string, unknown>> {
    // Refused before the commands run: a token that may not read would otherwise write and then be told no.
    if (!mayRead(principal, 'first_generation')) throw FirstGenerationRefusal.forbidden('This token may not read data (data:read or data:read_write)');
    const mapping = params.has('items_to_sync') ? await this.sync(principal, params) : {};
    const data = await this.read(principal, (ctx) => this.syncData(ctx, params));
    return { ...data, ...withV6Keys({ temp_id_mapping: mapping }) };
  }

  /**
   * `get`: the account (`seq_no=0`) or what changed after `seq_no` (deleted objects with
   * `is_deleted: 1`), under v5.3's CamelCase keys (withV6Keys: v6 kept them). `seq_no` is the domain's change version the read
   * saw (the user's high-water mark). Resources Doable keeps but this generation's clients
   * could not use (notes, reminders, filters, collaborators) are sent empty.
   */
  private async syncData(ctx: ReadContext, params: FirstGenerationParams): Promise<Record<string, unknown>> {
    const seqNo = params.text('seq_no');
    const since = seqNo !== undefined && /^\d{1,18}$/.test(seqNo) && seqNo !== '0' ? seqNo : undefined;
    const highWater = (await this.profiles.highWater(ctx.manager, ctx.userId)) ?? '0';
    const profile = await this.profiles.find(ctx.manager, ctx.userId);
    // Projects joined after seq_no come whole, those left as tombstones (as the later generations' reads).
    const memberships = since ? await this.memberships.since(ctx.manager, ctx.userId, since) : undefined;
    const projects = since ? await this.projects.listChangedSince(ctx.manager, ctx.userId, since, memberships) : await this.projects.listActive(ctx.manager, ctx.userId);
    const items = since ? await this.items.listChangedSince(ctx.manager, ctx.userId, since, memberships) : await this.items.listActive(ctx.manager, ctx.userId);
    const labels = since ? await this.labels.listChangedSince(ctx.manager, ctx.userId, since) : await this.labels.listActive(ctx.manager, ctx.userId);
    const allProjects = since ? await this.projects.listActive(ctx.manager, ctx.userId) : projects;
    const uncompleted = await this.reads.uncompletedIn(ctx.manager, ctx.userId, [...new Set(items.map((item) => item.project_id))]);
    const counts = await this.reads.uncompletedCounts(ctx.manager, ctx.userId);
    const placesOfProjects = projectPlaces(allProjects);
    const places = itemPlaces(uncompleted);
    const seq = integerId(highWater);
    return withV6Keys({
      projects: projects.map((project) => ({ ...renderProject(project, placesOfProjects, counts.get(project.id) ?? 0), is_deleted: flag(project.is_deleted), is_archived: flag(project.is_archived), inbox_project: project.inbox_project })),
      items: items.map((item) => ({ ...renderItem(item, places, ctx.timezone), is_deleted: flag(item.is_deleted), labels: item.labels, date_added: legacyTimestamp(item.added_at) })),
      labels: labels.map((label) => ({ ...renderLabel(label), is_deleted: flag(label.is_deleted) })),
      filters: [],
      notes: [],
      reminders: [],
      collaborators: [],
      collaborator_states: [],
      live_notifications: [],
      live_notifications_last_read: 0,
      day_orders: {},
      day_orders_timestamp: '',
      user_id: integerId(ctx.userId),
      // The user without its token: tokens are stored hashed (see login).
      ...(since === undefined && profile
        ? {
            user: {
              id: integerId(profile.id),
              email: profile.email,
              full_name: profile.full_name,
              timezone: profile.timezone,
              inbox_project: integerId(profile.inbox_project_id),
              start_page: profile.start_page,
              start_day: profile.start_day,
              next_week: profile.next_week,
              time_format: profile.time_format,
              date_format: profile.date_format,
              sort_order: profile.sort_order,
              join_date: legacyTimestamp(profile.joined_at),
            },
          }
        : {}),
      seq_no: seq,
      seq_no_global: seq,
    });
  }
}
