/** What the registry needs of a WebSocket (ws's WebSocket has it; tests pass their own). */
export interface PushSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface PushLimits {
  /** Open sockets per user (tabs, devices); one more closes the oldest. */
  readonly perUser: number;
  /** Open sockets on this replica; beyond it new ones are refused. */
  readonly total: number;
  /** A user hears at most one sync_needed per this many ms (a burst of changes is one sync). */
  readonly coalesceMs: number;
}

export const SYNC_NEEDED = JSON.stringify({ type: 'sync_needed' });
export const PING = JSON.stringify({ type: 'ping' });

/**
 * The open push sockets of this gateway replica, by user. Telling a user is coalesced: the
 * first change is sent at once, changes within `coalesceMs` after it become one more message
 * at the end of the window, so a client syncs once per burst but never misses the last change.
 */
export class PushSockets {
  private readonly byUser = new Map<string, Set<PushSocket>>();
  private readonly quietUntil = new Map<string, { until: number; pending: boolean; timer?: NodeJS.Timeout }>();
  private count = 0;

  constructor(private readonly limits: PushLimits) {}

  get size(): number {
    return this.count;
  }

  /** The users with a socket open here. */
  users(): IterableIterator<string> {
    return this.byUser.keys();
  }

  /** False when this replica holds as many sockets as it may (the caller refuses the connection). */
  hasRoom(): boolean {
    return this.count < this.limits.total;
  }

  add(userId: string, socket: PushSocket): void {
    let sockets = this.byUser.get(userId);
    if (!sockets) this.byUser.set(userId, (sockets = new Set()));
    if (sockets.size >= this.limits.perUser) {
      // Sets iterate in insertion order: the oldest goes (most likely a tab left behind).
      const oldest = sockets.values().next().value as PushSocket;
      this.remove(userId, oldest);
      oldest.close(1008, 'too many connections');
    }
    sockets.add(socket);
    this.count++;
  }

  remove(userId: string, socket: PushSocket): void {
    const sockets = this.byUser.get(userId);
    if (!sockets?.delete(socket)) return;
    this.count--;
    if (sockets.size === 0) this.byUser.delete(userId);
  }

  /** These users' data changed: each connected one hears sync_needed (coalesced). */
  tell(userIds: readonly string[], now: number = Date.now()): void {
    for (const userId of userIds) {
      if (!this.byUser.has(userId)) continue;
      const quiet = this.quietUntil.get(userId);
      if (quiet && quiet.until > now) {
        quiet.pending = true;
        continue;
      }
      this.send(userId, SYNC_NEEDED);
      const window = { until: now + this.limits.coalesceMs, pending: false, timer: undefined as NodeJS.Timeout | undefined };
      window.timer = setTimeout(() => {
        this.quietUntil.delete(userId);
        if (window.pending) this.tell([userId]);
      }, this.limits.coalesceMs);
      window.timer.unref();
      this.quietUntil.set(userId, window);
    }
  }

  /** Every socket hears a ping: clients treat a minute without one as a dead connection. */
  pingAll(): void {
    for (const userId of this.byUser.keys()) this.send(userId, PING);
  }

  /** Closes every socket (the gateway is stopping: clients reconnect to another replica). */
  closeAll(): void {
    for (const window of this.quietUntil.values()) clearTimeout(window.timer);
    this.quietUntil.clear();
    for (const [userId, sockets] of [...this.byUser]) {
      for (const socket of [...sockets]) {
        this.remove(userId, socket);
        socket.close(1001, 'server shutting down');
      }
    }
  }

  private send(userId: string, message: string): void {
    for (const socket of this.byUser.get(userId) ?? []) socket.send(message);
  }
}
