import { randomUUID } from 'node:crypto';
import type { EdgeBlob, EdgeReply, EdgeRequest, Principal, RequestSubject } from '@doable/contracts-common';
import { type ApiV1Operation, type ApiV1Response, parseApiV1Response, REST_ENDPOINTS, REST_PREFIXES, RestSubjects } from '@doable/contracts-rest';
import { SyncSubjects } from '@doable/contracts-sync';
import { UploadsSubjects } from '@doable/contracts-uploads';
import { DomainError } from '@doable/shared-errors';
import type { BlobStore } from '@doable/shared-storage';
import type { ServiceClient } from '@doable/shared-transport';
import { type SyncAnswer, syncAnswerReply } from './sync-answer';
import { ToolFailure } from './tool-failure';
import { z } from 'zod';

export type JsonObject = Record<string, unknown>;

export interface EdgeCallOptions {
  readonly query?: Record<string, string | string[] | undefined>;
  readonly body?: JsonObject;
}

export interface RestCallOptions extends EdgeCallOptions {
  /** The operation's `:name` path segments (`{ id }` for `/tasks/:id`). */
  readonly params?: Readonly<Record<string, string>>;
}

/** An api/v1 operation's method and path with its params filled in, from the one endpoint list the gateway routes by. */
export function apiV1Route(operation: ApiV1Operation, params: Readonly<Record<string, string>> = {}): { method: EdgeRequest['method']; path: string } {
  const endpoint = REST_ENDPOINTS.find((candidate) => candidate.operation === operation && candidate.surfaces.includes('rest-api-v1'));
  if (!endpoint) throw new Error(`api/v1 REST has no endpoint for ${operation}`);
  const path = endpoint.path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operation} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  return { method: endpoint.method, path: `${REST_PREFIXES['rest-api-v1']}${path}` };
}

export interface SyncCommandInput {
  readonly type: string;
  readonly args: JsonObject;
  readonly temp_id?: string;
}

/** One command's outcome in a batch: `ok`, or the refusal the Sync API reported for it. */
export type CommandOutcome = { readonly ok: true } | { readonly ok: false; readonly error: string; readonly tag: string; readonly extra?: Record<string, unknown> };

/**
 * A `sync_status` value as an outcome: `ok`, a refusal of the whole command, or a command over
 * several objects (item_reorder, item_complete with ids) answered per id, where the first refused
 * id's own refusal is the command's (with that id), never an unnamed failure.
 */
export function commandOutcome(status: unknown): CommandOutcome {
  if (status === 'ok') return { ok: true };
  if (status === null || typeof status !== 'object') return { ok: false, tag: 'UNKNOWN', error: 'The command was not run' };
  const body = status as Record<string, unknown>;
  if (typeof body['error_tag'] === 'string') return { ok: false, tag: body['error_tag'], error: typeof body['error'] === 'string' ? body['error'] : 'The command was refused' };
  const refused = Object.entries(body).find(([, value]) => value !== 'ok');
  if (!refused) return { ok: true };
  const [id, value] = refused;
  const inner = commandOutcome(value);
  return inner.ok ? inner : { ok: false, tag: inner.tag, error: `${id}: ${inner.error}`, extra: { id } };
}

export interface SyncResult {
  readonly outcomes: CommandOutcome[];
  readonly tempIds: Record<string, string>;
  /** The resources asked for (a read), keyed as the Sync API answers them. */
  readonly resources: SyncAnswer;
}

/**
 * A reply parsed against its contract; one that does not match is the answering service's bug,
 * not the caller's: INTERNAL (a 500 with the path), never a tool failure the model could act on.
 */
function answeredAsContracted<T>(what: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    // The first issue's path names the key without echoing the object's values.
    if (err instanceof z.ZodError) throw new DomainError('INTERNAL', `The answer to ${what} does not match its contract (at ${err.issues[0]?.path.join('.') ?? ''})`);
    throw err;
  }
}

function parseBody(reply: EdgeReply): unknown {
  if (reply.status === 204 || reply.body === null || reply.body === undefined) return null;
  return typeof reply.body === 'string' ? (JSON.parse(reply.body) as unknown) : reply.body;
}

/**
 * The tools' only way to data: the same edge subjects the gateway forwards to (api/v1 REST and
 * the Sync API), with the caller's principal, so every scope, limit and sharing rule is the one
 * every other interface meets. Writes carry a request id (REST) or a uuid per command (sync):
 * a request the transport resends runs once.
 */
export class DomainCalls {
  constructor(
    private readonly services: ServiceClient,
    private readonly principal: Principal,
    /** The origin the caller reached (for links in answers). */
    readonly origin: string | undefined,
    /** Where uploaded files' bytes live (the process's blob store, as the gateway reads them). */
    private readonly store: BlobStore,
  ) {}

  /**
   * An api/v1 REST operation of the rest service, by its name in the contract (`tasks.get`): its
   * method and path come from the endpoint list, and its reply is parsed by the operation's
   * response schema, so the reply's type is the contract's. Refusals arrive as ToolFailures.
   */
  async rest<Op extends ApiV1Operation>(operation: Op, options: RestCallOptions = {}): Promise<ApiV1Response<Op>> {
    const { method, path } = apiV1Route(operation, options.params);
    const body = await this.edgeBody(RestSubjects.edge, method, path, options);
    return answeredAsContracted(operation, () => parseApiV1Response(operation, body));
  }

  /**
   * An api/v1 endpoint another service answers (sync's completed history, activity, templates):
   * the subject the gateway's route table names for that path, its reply parsed by `reply` (built
   * from the contract's api/v1 schemas where they describe it).
   */
  async edge<Reply extends z.ZodType>(subject: RequestSubject<EdgeRequest, EdgeReply>, reply: Reply, method: EdgeRequest['method'], path: string, options: EdgeCallOptions = {}): Promise<z.output<Reply>> {
    const body = await this.edgeBody(subject, method, path, options);
    return answeredAsContracted(path, () => reply.parse(body));
  }

  /** An edge reply's body: a file (a template's CSV) as its text, JSON parsed. */
  private async edgeBody(subject: RequestSubject<EdgeRequest, EdgeReply>, method: EdgeRequest['method'], path: string, options: EdgeCallOptions): Promise<unknown> {
    const query = Object.fromEntries(Object.entries(options.query ?? {}).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined));
    const requestId = method === 'GET' ? null : randomUUID();
    const reply = await this.call(() => this.services.request(subject, this.edgeRequest('rest-api-v1', method, path, query, options.body ?? null, requestId), { resendable: true }));
    if (reply.contentType !== undefined && !reply.contentType.startsWith('application/json')) return String(reply.body);
    return parseBody(reply);
  }

  /** Sync API commands (each with its own uuid) and, optionally, a full read of some resource types. */
  async sync(commands: readonly SyncCommandInput[], resourceTypes: readonly string[] = []): Promise<SyncResult> {
    const withUuids = commands.map((command) => ({ ...command, uuid: randomUUID() }));
    const body: JsonObject = { commands: withUuids };
    if (resourceTypes.length > 0) Object.assign(body, { sync_token: '*', resource_types: resourceTypes });
    const reply = await this.call(() => this.services.request(SyncSubjects.edge, this.edgeRequest('sync-api-v1', 'POST', '/api/v1/sync', {}, body, null), { resendable: true }));
    // The Sync API's answer, parsed by its contract's schemas here, once, as rest() parses a REST reply.
    const answer = answeredAsContracted('/api/v1/sync', () => syncAnswerReply.parse(parseBody(reply) ?? {}));
    const statuses = answer.sync_status ?? {};
    const outcomes = withUuids.map((command) => commandOutcome(statuses[command.uuid]));
    return { outcomes, tempIds: answer.temp_id_mapping ?? {}, resources: answer };
  }

  /** Runs commands that must all succeed: the first refusal becomes the tool's failure. */
  async syncAll(commands: readonly SyncCommandInput[]): Promise<SyncResult> {
    const result = await this.sync(commands);
    const refused = result.outcomes.find((outcome) => !outcome.ok);
    if (refused && !refused.ok) throw new ToolFailure(refused.tag, refused.error, refused.extra);
    return result;
  }

  /** Reads resource types in full through the Sync API (what find-* tools filter locally). */
  async read(resourceTypes: readonly string[]): Promise<SyncAnswer> {
    return (await this.sync([], resourceTypes)).resources;
  }

  /**
   * A file the uploads service stores, by its URL's path (`/uploads/files/...`): uploads checks
   * the URL's signature and answers where the bytes are, as it answers the gateway's download.
   */
  async storedFile(path: string): Promise<EdgeBlob> {
    const reply = await this.call(() => this.services.request(UploadsSubjects.file, this.edgeRequest('rest-api-v1', 'GET', path, {}, null, null), { resendable: true }));
    if (!reply.blob) throw new ToolFailure('NOT_FOUND', 'No such file');
    return reply.blob;
  }

  /** A stored file's bytes, read from the blob store; one longer than `maxBytes` is refused, never held whole. */
  async fileBytes(blob: EdgeBlob, maxBytes: number): Promise<Buffer> {
    const stored = await this.store.get(blob.key);
    if (!stored) throw new ToolFailure('NOT_FOUND', 'No such file');
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of stored.stream) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) throw new ToolFailure('FILE_TOO_LARGE', `The file is larger than ${maxBytes} bytes`);
        chunks.push(chunk as Buffer);
      }
    } finally {
      stored.stream.destroy();
    }
    return Buffer.concat(chunks);
  }

  private edgeRequest(dialect: EdgeRequest['dialect'], method: EdgeRequest['method'], path: string, query: EdgeRequest['query'], body: unknown, requestId: string | null): EdgeRequest {
    return { dialect, method, path, params: {}, query, body, principal: this.principal, requestId, ...(this.origin ? { origin: this.origin } : {}) };
  }

  /** A coded refusal becomes the tool's failure; a refused token stays a DomainError (HTTP 401). */
  private async call(run: () => Promise<EdgeReply>): Promise<EdgeReply> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof DomainError && err.code !== 'AUTH_REQUIRED' && err.code !== 'INTERNAL' && err.code !== 'SERVICE_UNAVAILABLE') throw ToolFailure.fromDomain(err);
      throw err;
    }
  }
}
