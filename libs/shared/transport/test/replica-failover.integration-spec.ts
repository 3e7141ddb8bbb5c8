import { requestSubject } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { createLogger, LOGGER } from '@doable/shared-logging';
import { TEST_NATS_URL, uniqueSubjectPrefix } from '@doable/shared-testing';
import { Controller, type INestMicroservice, Module, UseFilters } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { Handles } from '../src/rpc/handles.decorator';
import { RpcErrorFilter } from '../src/rpc/rpc-error.filter';
import { ServiceClient } from '../src/rpc/service-client';
import { createClientProxy, createServerStrategy } from '../src/transport-factory';
import type { TransportOptions } from '../src/transport-options';
import { HoldingProxy } from './holding-proxy';

const work = requestSubject<{ ms: number }, { done: true }>('test.work.v1', z.object({ ms: z.number() }));
let handled = 0;

@Controller()
@UseFilters(RpcErrorFilter)
class WorkController {
  @Handles(work)
  async work(request: { ms: number }) {
    handled++;
    await new Promise((resolve) => setTimeout(resolve, request.ms));
    return { done: true as const };
  }
}

@Module({ controllers: [WorkController], providers: [{ provide: LOGGER, useValue: createLogger('test', 'silent') }] })
class WorkModule {}

const SILENCE_MS = 300;
const QUEUE = 'failover-test';

/**
 * A replica that dies with requests in flight (SIGKILL, OOM) costs its callers the silence
 * window, not the request timeout: the live replica beats, the silent one is left.
 */
describe('replica failover over NATS', () => {
  const prefix = uniqueSubjectPrefix('failover');
  const options: TransportOptions = { kind: 'nats', url: TEST_NATS_URL, subjectPrefix: prefix, name: 'failover-test', replicaSilenceMs: SILENCE_MS };
  const proxy = createClientProxy(options);
  const client = new ServiceClient(proxy, options, 10_000);
  let replica: INestMicroservice;
  let raw: NatsConnection;

  beforeAll(async () => {
    replica = await NestFactory.createMicroservice(WorkModule, { strategy: createServerStrategy(options, QUEUE), logger: false });
    await replica.listen();
    raw = await connect({ servers: TEST_NATS_URL });
    // The caller learns from a first reply that this service beats.
    await client.request(work, { ms: 0 });
  });

  afterAll(async () => {
    await proxy.close();
    await replica.close();
    await raw.close();
  });

  it('keeps waiting for a slow request while its replica beats, and runs it once', async () => {
    handled = 0;
    await expect(client.request(work, { ms: SILENCE_MS * 4 }, { resendable: true })).resolves.toEqual({ done: true });
    expect(handled).toBe(1);
  });

  it("does not take its own stall for the replica's silence", async () => {
    handled = 0;
    const answer = client.request(work, { ms: SILENCE_MS });
    // Block this process (caller and replica alike) for three silences, as a long collection or a
    // starved CPU does: the caller's watch fires late, with the replica's beats still unread.
    await new Promise((resolve) => setTimeout(resolve, SILENCE_MS / 2));
    const until = Date.now() + SILENCE_MS * 3;
    while (Date.now() < until) {
      // Busy on purpose: nothing else in this process may run.
    }
    await expect(answer).resolves.toEqual({ done: true });
    expect(handled).toBe(1);
  });

  it('does not take beats held up on their way (a starved nats-server) for the replica\'s silence', async () => {
    // A caller whose connection to NATS runs through a proxy that holds the server's messages to
    // it for three silences, beats included, then passes them on: nothing is lost, all is late.
    const holding = await HoldingProxy.start(TEST_NATS_URL);
    const slowOptions: TransportOptions = { ...options, url: holding.url };
    const slowProxy = createClientProxy(slowOptions);
    const slowClient = new ServiceClient(slowProxy, slowOptions, 10_000);
    try {
      await slowClient.request(work, { ms: 0 });
      handled = 0;
      // Not resendable: a silence taken for a lost replica would answer 503 at once.
      const answer = slowClient.request(work, { ms: SILENCE_MS * 5 });
      await new Promise((resolve) => setTimeout(resolve, SILENCE_MS));
      await holding.hold(SILENCE_MS * 3);
      await expect(answer).resolves.toEqual({ done: true });
      expect(handled).toBe(1);
    } finally {
      await slowProxy.close();
      await holding.close();
    }
  });

  describe('with a replica that took requests and fell silent (killed)', () => {
    // In the same queue group, it takes five requests and never answers, then its subscription
    // is gone: what a SIGKILLed replica's in-flight requests see (NATS drops a dead connection's
    // subscriptions, so later requests reach live replicas).
    beforeEach(async () => {
      raw.subscribe(`${prefix}${work.name}`, { queue: QUEUE, max: 5, callback: () => undefined });
      await raw.flush();
    });

    it('sends a resendable request again to a live replica, well before the request timeout', async () => {
      const started = Date.now();
      const replies = await Promise.all(Array.from({ length: 20 }, () => client.request(work, { ms: 10 }, { resendable: true })));
      expect(replies).toEqual(Array.from({ length: 20 }, () => ({ done: true })));
      // Liveness, not speed: far below the 10 s request timeout (each lost attempt costs the silence window).
      expect(Date.now() - started).toBeLessThan(8_000);
    });

    it('answers 503 (replica-lost) at once for a request that may not run twice', async () => {
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => client.request(work, { ms: 10 }).then(() => 'ok', (err: unknown) => err)));
      const lost = outcomes.filter((outcome): outcome is DomainError => outcome instanceof DomainError);
      expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual(lost);
      expect(lost.length).toBeGreaterThan(0);
      expect(lost.length).toBeLessThanOrEqual(5);
      expect(lost.map((err) => [err.code, err.extra['reason']])).toEqual(lost.map(() => ['SERVICE_UNAVAILABLE', 'replica-lost']));
    });
  });

  describe('rolling upgrades', () => {
    it('sends no beats to a caller of the previous release (no header): its first message is the reply', async () => {
      const message = await raw.request(`${prefix}${work.name}`, JSON.stringify({ pattern: `${prefix}${work.name}`, data: { ms: SILENCE_MS * 2 }, id: 'old-caller' }), { timeout: 5_000, noMux: true });
      expect(message.json<{ response: unknown }>().response).toEqual({ done: true });
    });

    it('waits as before for a service of the previous release (it never said it beats)', async () => {
      const oldPrefix = uniqueSubjectPrefix('failover-old');
      const oldOptions: TransportOptions = { ...options, subjectPrefix: oldPrefix };
      const oldProxy = createClientProxy(oldOptions);
      const oldClient = new ServiceClient(oldProxy, oldOptions, 10_000);
      // The previous release: plain JSON replies, no replica header, no beats.
      const subscription = raw.subscribe(`${oldPrefix}${work.name}`, {
        queue: QUEUE,
        callback: (_err, msg) => {
          const { id } = msg.json<{ id: string }>();
          setTimeout(() => msg.respond(JSON.stringify({ id, response: { done: true }, isDisposed: true })), SILENCE_MS * 3);
        },
      });
      try {
        await expect(oldClient.request(work, { ms: 0 })).resolves.toEqual({ done: true });
        await expect(oldClient.request(work, { ms: 0 })).resolves.toEqual({ done: true });
      } finally {
        subscription.unsubscribe();
        await oldProxy.close();
      }
    });
  });
});
