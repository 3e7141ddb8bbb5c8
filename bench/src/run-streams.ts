import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { TEST_NATS_URL } from '@doable/shared-testing';

/** A stream name with case and punctuation dropped: each owner spells the prefix its own way. */
function squashed(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Removes every JetStream stream named after a run's subject prefix (`bench-<random hex>.`): the
 * event stream (`DOABLE_EVENTS_BENCH_<HEX>`), the Object Store bucket of S10's uploads
 * (`OBJ_bench-<hex>-files`) and the gateway's KV buckets (`KV_bench-<hex>_rate_limits`,
 * `KV_bench-<hex>_gateways`). Matched by the run's tag, not name by name, so a bucket a service
 * adds later is removed too.
 */
export async function deleteStreamsOfRun(runTag: string): Promise<string[]> {
  const tag = squashed(runTag);
  const nc = await connect({ servers: TEST_NATS_URL });
  try {
    const jsm = await jetstreamManager(nc);
    const names: string[] = [];
    for await (const stream of jsm.streams.list()) if (squashed(stream.config.name).includes(tag)) names.push(stream.config.name);
    for (const name of names) await jsm.streams.delete(name).catch(() => false);
    return names;
  } finally {
    await nc.close();
  }
}
