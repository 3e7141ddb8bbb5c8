import { applyTempIdMapping } from './temp-ids';
import type { Command, SyncError, SyncReply, SyncStatus } from './sync-types';

/** Where queued commands live between page loads (IndexedDB in the app, a Map in the specs). */
export interface CommandStore {
  /** Every queued command, oldest first. */
  all(): Promise<Command[]>;
  put(command: Command): Promise<void>;
  remove(uuids: readonly string[]): Promise<void>;
}

/** The server said no to a command (or to one of its ids); it is dropped and the person told. */
export interface Refusal {
  command: Command;
  status: SyncError;
}

/**
 * The refusal in a command's status, if any: an error body carries a numeric error_code; a
 * per-id map (item_complete over several ids) never does, and is refused where one id was.
 */
export function refusalOf(status: SyncStatus): SyncError | undefined {
  if (status === 'ok') return undefined;
  if (typeof (status as { error_code?: unknown }).error_code === 'number') return status as SyncError;
  return Object.values(status as Record<string, 'ok' | SyncError>).find((entry): entry is SyncError => entry !== 'ok');
}

/** A request that never got an answer (offline, network error, 5xx): the commands stay queued. */
export class TransientSendError extends Error {}

export interface QueueHooks {
  /** Sends commands (with an incremental read) and returns the answer; throws TransientSendError to retry later. */
  send: (commands: Command[]) => Promise<SyncReply>;
  onRefused?: (refusals: Refusal[]) => void;
  onChange?: (pending: Command[]) => void;
  /** When to try again after a failed send: the `online` event triggers one sooner. */
  retryDelayMs?: (attempt: number) => number;
  schedule?: (run: () => void, ms: number) => void;
}

const defaultDelay = (attempt: number) => Math.min(30_000, 1_000 * 2 ** attempt);

/**
 * Commands made here, kept until the server has answered each uuid. A command answered `ok` is
 * dropped; one answered with an error is dropped too (resending would fail again) and reported,
 * and the incremental read of the same request shows what the server kept. A command the answer
 * does not mention (the request was cut short) stays and goes again: its uuid makes that safe.
 */
export class CommandQueue {
  private pending: Command[] = [];
  private flushing: Promise<void> | undefined;
  private again = false;
  /** News was heard (a push cue): the next request must read, even with nothing to send. */
  private readWanted = false;
  private attempt = 0;
  private retryTimer = false;

  constructor(
    private readonly store: CommandStore,
    private readonly hooks: QueueHooks,
  ) {}

  /** Loads what an earlier session left unsent. */
  async load(): Promise<void> {
    this.pending = await this.store.all();
    this.hooks.onChange?.(this.pending);
  }

  get commands(): readonly Command[] {
    return this.pending;
  }

  async enqueue(command: Command): Promise<void> {
    await this.store.put(command);
    this.pending = [...this.pending, command];
    this.hooks.onChange?.(this.pending);
    await this.flush();
  }

  /**
   * Keeps what the server answered a command outside the Sync API (a quick add: the task it made)
   * before the sync that settles it: `updated` replaces the queued command (same uuid) and the
   * commands queued after it name the real ids at once. A reload in that moment then knows the
   * task exists: it is not shown a second time beside the synced one, nor posted again.
   */
  async recordAnswer(updated: Command, mapping: Readonly<Record<string, string>>): Promise<void> {
    if (!this.pending.some((command) => command.uuid === updated.uuid)) return;
    const rewritten = new Map(applyTempIdMapping(this.pending.filter((command) => command.uuid !== updated.uuid), mapping).map((command) => [command.uuid, command]));
    rewritten.set(updated.uuid, updated);
    for (const command of rewritten.values()) await this.store.put(command);
    this.pending = this.pending.map((command) => rewritten.get(command.uuid) ?? command);
    this.hooks.onChange?.(this.pending);
  }

  /** Sends everything queued; one send at a time, and commands queued meanwhile go right after. */
  flush(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = this.drain().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /**
   * The server has news (a push cue, a reconnect): an incremental read, which a send of queued
   * commands carries anyway. News heard while a request is out gets a read of its own after it:
   * that request's read may have been taken before the news was made. (Folded into the running
   * flush, a cue heard while an answer was being settled was lost, and the screen stayed stale.)
   */
  sync(): Promise<void> {
    this.readWanted = true;
    return this.flush();
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      if (this.pending.length === 0 && !this.readWanted) return;
      const batch = this.pending;
      // Every send reads: news heard from here on needs the next one.
      this.readWanted = false;
      let reply: SyncReply;
      try {
        reply = await this.hooks.send(batch);
      } catch (err) {
        // A read alone is not retried on a timer: the `online` event and the push channel's reconnect read again.
        if (err instanceof TransientSendError) return batch.length > 0 ? this.retryLater() : undefined;
        throw err;
      }
      this.attempt = 0;
      const settled = batch.length > 0 ? await this.settle(batch, reply) : 0;
      // Commands queued during the send go at once, and so does the rest of a batch the sender
      // took only part of (a quick add goes alone); one the answer left out while it answered
      // none waits for the next flush (a reply naming none of them must not turn into a busy loop).
      if (settled > 0 && this.pending.length > 0) this.again = true;
      if (this.readWanted) this.again = true;
    } while (this.again);
  }

  /** Drops the answered commands, rewrites temp ids in the rest; answers how many were answered. */
  private async settle(batch: Command[], reply: SyncReply): Promise<number> {
    const statuses = reply.sync_status ?? {};
    const answered = batch.filter((command) => isAnswered(command, reply));
    const refusals: Refusal[] = [];
    for (const command of answered) {
      const refusal = refusalOf(statuses[command.uuid] ?? 'ok');
      if (refusal) refusals.push({ command, status: refusal });
    }
    const done = new Set(answered.map((command) => command.uuid));
    await this.store.remove([...done]);
    let rest = this.pending.filter((command) => !done.has(command.uuid));
    const rewritten = applyTempIdMapping(rest, reply.temp_id_mapping ?? {});
    for (const command of rewritten) await this.store.put(command);
    const byUuid = new Map(rewritten.map((command) => [command.uuid, command]));
    rest = rest.map((command) => byUuid.get(command.uuid) ?? command);
    this.pending = rest;
    this.hooks.onChange?.(this.pending);
    if (refusals.length > 0) this.hooks.onRefused?.(refusals);
    return done.size;
  }

  private retryLater(): void {
    if (this.retryTimer) return;
    this.retryTimer = true;
    const delay = (this.hooks.retryDelayMs ?? defaultDelay)(this.attempt++);
    const schedule = this.hooks.schedule ?? ((run, ms) => void setTimeout(run, ms));
    schedule(() => {
      this.retryTimer = false;
      void this.flush();
    }, delay);
  }
}

/** Whether a reply answered a command (ok or refused): it then leaves the queue and the overlay. */
export function isAnswered(command: Command, reply: SyncReply): boolean {
  return reply.sync_status?.[command.uuid] !== undefined;
}
