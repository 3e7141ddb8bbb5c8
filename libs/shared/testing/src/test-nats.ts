import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/** NATS with JetStream on this machine. */
export const TEST_NATS_URL = process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';

/** A subject namespace of its own, so parallel runs never see each other's messages. */
export function uniqueSubjectPrefix(label: string): string {
  return `t-${label.replace(/[^a-z0-9-]/gi, '-').toLowerCase()}-${randomBytes(4).toString('hex')}.`;
}

/** Removes an event stream (and its consumers) a test created; pass `streamNameFor(prefix)`. */
export async function deleteEventStream(streamName: string): Promise<void> {
  const nc = await connect({ servers: TEST_NATS_URL });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(streamName).catch(() => false);
  } finally {
    await nc.close();
  }
}

/**
 * Whether every durable consumer of an event stream has been handed all of it and acknowledged
 * it (nothing pending, nothing awaiting an ack): what a test waits for before it asserts that
 * nothing arrived twice, instead of sleeping. False while a consumer is down with events waiting.
 * `natsUrl`: a server of the test's own (the fault suite's; a cluster's servers comma-separated), else the machine's.
 */
export async function eventStreamDrained(streamName: string, natsUrl = TEST_NATS_URL): Promise<boolean> {
  const nc = await connect({ servers: natsUrl.split(',') });
  try {
    const jsm = await jetstreamManager(nc);
    const consumers = await jsm.consumers.list(streamName).next();
    return consumers.every((consumer) => consumer.num_pending === 0 && consumer.num_ack_pending === 0);
  } finally {
    await nc.close();
  }
}
