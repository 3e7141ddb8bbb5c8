import { requestSubject } from '@doable/contracts-common';
import type { DomainError } from '@doable/shared-errors';
import { createLogger, LOGGER } from '@doable/shared-logging';
import { type PrivateNats, startPrivateNats, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { Controller, type INestMicroservice, Module, UseFilters } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { z } from 'zod';
import { Handles } from '../src/rpc/handles.decorator';
import { RpcErrorFilter } from '../src/rpc/rpc-error.filter';
import { ServiceClient } from '../src/rpc/service-client';
import { createClientProxy, createServerStrategy } from '../src/transport-factory';
import type { TransportOptions } from '../src/transport-options';

const slow = requestSubject<{ ms: number }, { done: true }>('test.slow.v1', z.object({ ms: z.number() }));

/**
 * The handlers still waiting, each with its finish: the test ends while they run (their callers
 * got their 503 long before). A handler left waiting keeps its 5 s timer and, worse, the
 * replica's beat interval for its request (stopped only by the reply) alive past the end of the
 * file, and Jest has to force its worker out; afterAll finishes them first.
 */
const working = new Map<NodeJS.Timeout, () => void>();

@Controller()
@UseFilters(RpcErrorFilter)
class SlowController {
  @Handles(slow)
  async slow(request: { ms: number }) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        working.delete(timer);
        resolve();
      }, request.ms);
      working.set(timer, resolve);
    });
    return { done: true as const };
  }
}

@Module({ controllers: [SlowController], providers: [{ provide: LOGGER, useValue: createLogger('test', 'silent') }] })
class SlowModule {}

/**
 * The caller's own connection to NATS drops with requests in flight (a NATS restart): their
 * replies cannot come on that connection, so they fail at once with 503 (reason
 * `connection-lost`, Retry-After at the edge) instead of waiting out the silence watch and its
 * resends (3 x REPLICA_SILENCE_MS) or the request timeout.
 */
describe('a lost NATS connection with requests in flight', () => {
  // Its own: it is stopped mid-request, which the machine's shared server never is.
  let nats: PrivateNats;
  let options: TransportOptions;
  let replica: INestMicroservice;
  let proxy: ReturnType<typeof createClientProxy>;
  let client: ServiceClient;

  beforeAll(async () => {
    nats = await startPrivateNats('connection-loss');
    options = { kind: 'nats', url: nats.url, subjectPrefix: uniqueSubjectPrefix('connection-loss'), name: 'connection-loss-test', replicaSilenceMs: 1_500 };
    replica = await NestFactory.createMicroservice(SlowModule, { strategy: createServerStrategy(options, 'connection-loss'), logger: false });
    await replica.listen();
    proxy = createClientProxy(options);
    client = new ServiceClient(proxy, options, 15_000);
    // The caller learns from a first reply that this service beats.
    await client.request(slow, { ms: 0 });
  });

  afterAll(async () => {
    // Back first, so both sides close cleanly instead of reconnecting forever.
    if (!nats.running()) await nats.start();
    for (const [timer, finish] of working) {
      clearTimeout(timer);
      finish();
    }
    working.clear();
    await proxy.close();
    await replica.close();
    await nats.destroy();
  });

  it('fails a request that may not run twice at once, and a resendable one after a short wait for a reconnect', async () => {
    const started = performance.now();
    const once = client.request(slow, { ms: 5_000 }).then(
      () => undefined,
      (err: DomainError) => ({ err, afterMs: performance.now() - stoppedAt }),
    );
    const resendable = client.request(slow, { ms: 5_000 }, { resendable: true }).then(
      () => undefined,
      (err: DomainError) => ({ err, afterMs: performance.now() - stoppedAt }),
    );
    // Both are running in the replica when NATS goes.
    await waitFor(() => working.size === 2, 'both requests in the handler');
    const stoppedAt = performance.now();
    await nats.stop();
    const [first, second] = await Promise.all([once, resendable]);
    process.stdout.write(`in flight when NATS stopped: non-resendable failed ${Math.round(first!.afterMs)} ms after the stop, resendable ${Math.round(second!.afterMs)} ms (sent ${Math.round(stoppedAt - started)} ms before)\n`);
    expect([first!.err.code, first!.err.extra['reason']]).toEqual(['SERVICE_UNAVAILABLE', 'connection-lost']);
    expect([second!.err.code, second!.err.extra['reason']]).toEqual(['SERVICE_UNAVAILABLE', 'connection-lost']);
    // Liveness, not speed: well under the 4.5 s the silence watch and its resends took.
    expect(first!.afterMs).toBeLessThan(3_000);
    expect(second!.afterMs).toBeLessThan(3_000);
  });
});
