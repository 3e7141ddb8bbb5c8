import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { SyncEvents } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { METRICS_REGISTRY } from '@doable/shared-runtime';
import { EVENT_BUS, type EventBus, type Unsubscribe } from '@doable/shared-transport';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Counter, type Registry } from 'prom-client';
import { type WebSocket, WebSocketServer } from 'ws';
import { HomeGateway } from '../homes/home-gateway';
import { PushCredential } from './push-credential';
import { PushSockets } from './push-sockets';
import { refuseUpgrade } from './upgrade-refusal';

export const PUSH_SETTINGS = Symbol('PUSH_SETTINGS');

export interface PushSettings {
  readonly pingSeconds: number;
  readonly maxSocketsPerUser: number;
  readonly maxSockets: number;
}

export const PUSH_PATH = '/ws';
/** Clients have nothing to say on this channel; anything larger than this closes the socket. */
const MAX_CLIENT_MESSAGE_BYTES = 1024;
const COALESCE_MS = 100;
const SHUTDOWN_GRACE_MS = 1_000;

/**
 * The real-time push channel (the user object's `websocket_url`): `GET /ws` upgraded to a
 * WebSocket on the gateway's own HTTP server. A user whose data changed hears
 * `{"type":"sync_needed"}` on each open socket; every socket hears `{"type":"ping"}` every
 * PUSH_PING_SECONDS. Connections that stop answering WebSocket pings are dropped at the next tick.
 *
 * How a change reaches the socket (neither is durable: a socket exists on one replica only, and
 * a missed cue costs only a later sync):
 * - a user this gateway is home of (HomeGateway): with the users-moved barrier sync sends to
 *   that home before the write is answered (`moved`), one message per write whatever the number
 *   of gateways;
 * - anyone else (no homes here, embedded mode, a socket that landed away from its home, homes
 *   still settling): the users-changed event every replica may hear by broadcast. A named
 *   gateway listens to it only while it holds such a socket, so with the balancer aimed at the
 *   homes no gateway receives it at all.
 * Each user's cue comes one way only, so a change is told once.
 */
@Injectable()
export class PushChannel implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly sockets: PushSockets;
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES, clientTracking: false });
  private readonly alive = new WeakMap<WebSocket, boolean>();
  private readonly open = new Set<WebSocket>();
  private readonly broadcasts: Counter;
  /** The broadcast subscription, while one is wanted (or being made). */
  private listening?: Promise<Unsubscribe>;
  private recheck?: NodeJS.Timeout;
  private stopping = false;
  private pinger?: NodeJS.Timeout;
  private http?: Server;
  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(request, socket, head);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly credential: PushCredential,
    private readonly homes: HomeGateway,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(PUSH_SETTINGS) private readonly settings: PushSettings,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.sockets = new PushSockets({ perUser: settings.maxSocketsPerUser, total: settings.maxSockets, coalesceMs: COALESCE_MS });
    this.broadcasts = new Counter({
      name: 'doable_gateway_push_broadcasts_total',
      help: 'Users-changed events this gateway heard by broadcast (for sockets of users it is not home of)',
      registers: [registry],
    });
    homes.onChange(() => this.listenIfNeeded());
  }

  /** These users moved (the users-moved barrier): the ones whose cue comes this way hear sync_needed. */
  moved(userIds: readonly string[]): void {
    this.sockets.tell(userIds.filter((userId) => this.homes.hearsMovesOf(userId)));
  }

  async onApplicationBootstrap(): Promise<void> {
    this.listenIfNeeded();
    await this.listening;
    this.http = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.http.on('upgrade', this.onUpgrade);
    this.pinger = setInterval(() => this.tick(), this.settings.pingSeconds * 1000);
    this.pinger.unref();
  }

  /**
   * Without homes, always; with them, while some socket here is of a user whose cue does not
   * come with the barrier. Looked at again on each new socket, on each membership change, and
   * every half settle while listening (so it stops once the homes have settled).
   */
  private listenIfNeeded(): void {
    if (this.stopping) return;
    const needed = !this.homes.byHome || [...this.sockets.users()].some((userId) => !this.homes.hearsMovesOf(userId));
    if (needed && !this.listening) {
      this.listening = this.bus.broadcast(SyncEvents.usersChanged.name, (envelope) => {
        const parsed = SyncEvents.usersChanged.payload.safeParse(envelope.payload);
        if (!parsed.success) return;
        this.broadcasts.inc();
        this.sockets.tell(this.homes.byHome ? parsed.data.userIds.filter((userId) => !this.homes.hearsMovesOf(userId)) : parsed.data.userIds);
      });
      this.listening.catch((err: unknown) => {
        this.logger.warn({ err }, 'push: users-changed broadcast not heard; sockets away from their home miss cues until the next try');
        this.listening = undefined;
      });
      if (this.homes.byHome && !this.recheck) {
        this.recheck = setInterval(() => this.listenIfNeeded(), Math.max(100, this.homes.settleMs / 2));
        this.recheck.unref();
      }
    } else if (!needed && this.listening) {
      void this.stopListening();
    }
  }

  private async stopListening(): Promise<void> {
    clearInterval(this.recheck);
    this.recheck = undefined;
    const listening = this.listening;
    this.listening = undefined;
    const stop = await listening?.catch(() => undefined);
    await stop?.();
  }

  /**
   * Before the HTTP server closes: it waits for every connection, upgraded ones included. Clients
   * get a going-away close and reconnect elsewhere; one that does not answer within a second is cut.
   */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.pinger);
    this.http?.off('upgrade', this.onUpgrade);
    this.stopping = true;
    await this.stopListening();
    const started = Date.now();
    const count = this.open.size;
    this.sockets.closeAll();
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    while (this.open.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const cut = this.open.size;
    for (const ws of this.open) ws.terminate();
    this.logger.info({ sockets: count, cut, ms: Date.now() - started }, 'stop: push sockets closed (1001, going away)');
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // A client gone while its credential is checked must not be an unhandled error.
    socket.on('error', () => socket.destroy());
    try {
      const url = new URL(request.url ?? '/', 'http://gateway');
      if (url.pathname !== PUSH_PATH) throw new DomainError('ROUTE_NOT_FOUND');
      const userId = await this.credential.userId(request, url);
      if (!this.sockets.hasRoom()) throw new DomainError('SERVICE_UNAVAILABLE', 'Too many push connections on this server');
      if (socket.destroyed) return;
      this.server.handleUpgrade(request, socket, head, (ws) => this.accept(userId, ws));
    } catch (err) {
      refuseUpgrade(socket, err);
    }
  }

  private accept(userId: string, ws: WebSocket): void {
    this.sockets.add(userId, ws);
    if (!this.listening && !this.homes.hearsMovesOf(userId)) this.listenIfNeeded();
    this.open.add(ws);
    this.alive.set(ws, true);
    ws.on('pong', () => this.alive.set(ws, true));
    // What clients send (pings of their own, anything) is ignored; maxPayload bounds it.
    ws.on('error', (err) => this.logger.debug({ err }, 'push socket error'));
    ws.on('close', () => {
      this.sockets.remove(userId, ws);
      this.open.delete(ws);
    });
  }

  /** The application ping clients watch for, and a WebSocket ping to find connections that died silently. */
  private tick(): void {
    for (const ws of this.open) {
      if (this.alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      this.alive.set(ws, false);
      ws.ping();
    }
    this.sockets.pingAll();
  }
}
