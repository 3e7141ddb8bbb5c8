import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { SyncSubjects } from '@doable/contracts-sync';
import { METRICS_REGISTRY } from '@doable/shared-runtime';
import { isBodyBytes } from '@doable/shared-transport';
import { Inject, Injectable } from '@nestjs/common';
import { Counter, type Registry } from 'prom-client';
import { HomeGateway } from '../homes/home-gateway';
import { GatewayRegistration } from '../registry/gateway-registration';
import type { Route } from '../routes/route';
import { bodyForRewrites } from './kept-bodies';
import { UNCHANGED_ANSWERS } from './unchanged-answers.token';
import type { UnchangedAnswers } from './unchanged-answers';

/** A poll is a small request; anything longer (a batch of commands) is never an unchanged answer's key. */
const MAX_KEY_LENGTH = 1_024;

/**
 * What polling clients do most is ask for changes when there are none. The gateway answers a
 * Sync API read it has seen before itself, with sync's last "nothing new" answer to the same
 * request, while the user's marks have not moved (UnchangedAnswers; contracts-sync
 * gateway-polls.ts for why that stays true across gateways and sync replicas). With homes
 * (HomeGateway), only the polls of users this gateway is home of: sync tells no other gateway
 * that they moved. Everything else is forwarded as before; the answer is still rate-limited and
 * authenticated first.
 */
@Injectable()
export class UnchangedPolls {
  private readonly outcomes: Counter<'outcome'>;

  constructor(
    @Inject(UNCHANGED_ANSWERS) private readonly answers: UnchangedAnswers | null,
    private readonly registration: GatewayRegistration,
    private readonly homes: HomeGateway,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.outcomes = new Counter({
      name: 'doable_gateway_sync_polls_total',
      help: 'Sync API reads at the gateway: answered here (hit), forwarded and kept (kept), forwarded (forwarded), forwarded as this gateway is not the user\'s home (not-home)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    // Homes moved: the answers of users no longer at home here are stale as soon as sync stops telling this gateway.
    if (answers) homes.onChange(() => answers.forgetUnless((userId) => homes.keepsAnswersOf(userId)));
  }

  async answer(route: Route, request: EdgeRequest, forward: () => Promise<EdgeReply>): Promise<EdgeReply> {
    const principal = request.principal;
    if (!this.answers || route.subject !== SyncSubjects.edge || !principal || !this.registration.pollAnswersUsable()) return forward();
    const key = requestKey(request);
    if (key.length > MAX_KEY_LENGTH) return forward();
    const since = performance.now();
    if (!this.homes.keepsAnswersOf(principal.userId, since)) {
      this.outcomes.inc({ outcome: 'not-home' });
      return forward();
    }
    const known = this.answers.find(principal.userId, key);
    if (known) {
      this.outcomes.inc({ outcome: 'hit' });
      return known;
    }
    const ticket = this.answers.ticket(principal.userId);
    const reply = await forward();
    const kept =
      reply.unchangedFor === principal.userId &&
      this.registration.pollAnswersUsable() &&
      // Still home, and home under every view since a lease before the poll began: sync told this gateway of any move since.
      this.homes.keepsAnswersOf(principal.userId, since) &&
      this.answers.remember(ticket, key, { status: reply.status, body: keptBody(reply), contentType: reply.contentType, headers: reply.headers });
    this.outcomes.inc({ outcome: kept ? 'kept' : 'forwarded' });
    return reply;
  }
}

/**
 * A kept answer's body as bytes of its own, made once: each time it is given again they are
 * written as they are (edge/reply-body.ts, its ETag made once too), not encoded from text. Of its
 * own: a body of bytes is a view of what NATS read (body-bytes.ts), and a small Buffer.from()
 * would be a slice of a shared 8 KiB pool; either would keep far more memory than the answer.
 */
function keptBody(reply: EdgeReply): unknown {
  const { body } = reply;
  if (isBodyBytes(body)) return bodyForRewrites(ownCopy(body.byteLength, (bytes) => bytes.set(body)));
  if (typeof body === 'string' && reply.contentType !== undefined) return bodyForRewrites(ownCopy(Buffer.byteLength(body), (bytes) => bytes.write(body)));
  return body;
}

function ownCopy(length: number, fill: (bytes: Buffer) => void): Buffer {
  const bytes = Buffer.allocUnsafeSlow(length);
  fill(bytes);
  return bytes;
}

/**
 * Everything the answer depends on: the dialect and address, what was sent, and who asked with
 * which rights. Not the request id (a retry is the same question) nor forwarded headers (none on
 * Sync API routes but the MCP-style opt-in, which sync does not read).
 */
function requestKey(request: EdgeRequest): string {
  const { principal } = request;
  return JSON.stringify([request.dialect, request.method, request.path, request.params, request.query, request.body, principal?.scopes, principal?.appId, principal?.tokenKind, request.origin ?? null]);
}
