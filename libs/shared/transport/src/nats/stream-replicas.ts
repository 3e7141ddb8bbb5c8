import type { Logger } from '@doable/shared-logging';
import type { JetStreamManager } from '@nats-io/jetstream';

/**
 * Copies a JetStream stream is made with, and raised to, in a NATS cluster (NATS_REPLICAS): the
 * event stream, the key-value buckets (stream `KV_<bucket>`) and the Object Store (`OBJ_<bucket>`).
 * JetStream keeps at most 5; 1 is a single server's only choice.
 */
export const MAX_STREAM_REPLICAS = 5;

/**
 * An existing stream with fewer copies than configured is raised to them: a deployment whose NATS
 * cluster held the streams with one copy (the default) needs no step of its own to move to three;
 * the server copies each stream to its new peers while it keeps serving. (A single server's
 * streams do not carry into a new cluster at all: docs/operations/nats-cluster.md.) Never lowered: during a rolling change of the
 * setting, replicas still on the old value would otherwise take turns raising and lowering it
 * (each change a copy of the stream); an operator lowers it on purpose
 * (`nats stream edit <name> --replicas 1`). A raise that fails (fewer servers up than copies
 * asked for) is logged and the service runs on with the copies there are: it is no reason to stop.
 */
export async function raiseStreamReplicas(jsm: JetStreamManager, stream: string, replicas: number, logger?: Logger): Promise<void> {
  try {
    const { config } = await jsm.streams.info(stream);
    if (config.num_replicas >= replicas) return;
    await jsm.streams.update(stream, { num_replicas: replicas });
    await leaderElected(jsm, stream);
    logger?.info({ stream, from: config.num_replicas, to: replicas }, 'stream replicas raised (NATS_REPLICAS)');
  } catch (err) {
    logger?.error({ err, stream, replicas }, 'could not raise the stream to NATS_REPLICAS copies; it keeps the copies it has');
  }
}

/** How long a raised stream may take to elect its new group's leader before the caller goes on regardless. */
const ELECTION_BOUND_MS = 30_000;

/**
 * Waits until the stream, now a group of several servers, has elected its leader: until then
 * (about a second, measured on 2.9) a read of it times out, and the Object Store's first read
 * after the raise would wait out its 30 s timeout. Publishing is not held up meanwhile.
 */
async function leaderElected(jsm: JetStreamManager, stream: string): Promise<void> {
  const deadline = Date.now() + ELECTION_BOUND_MS;
  while (Date.now() < deadline) {
    const info = await jsm.streams.info(stream).catch(() => undefined);
    if (info?.cluster?.leader) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A creation refused because the copies cannot be placed, told in terms of the setting that asked for them. */
export function replicasRefused(err: unknown, stream: string, replicas: number): Error {
  if (replicas <= 1) return err instanceof Error ? err : new Error(String(err));
  const reason = err instanceof Error ? err.message : String(err);
  return new Error(`NATS_REPLICAS=${replicas}: stream ${stream} could not be created (${reason}); ${replicas} copies need a NATS cluster of at least ${replicas} servers with JetStream`);
}
