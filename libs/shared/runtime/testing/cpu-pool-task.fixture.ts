import { threadId } from 'node:worker_threads';
import { DomainError } from '@doable/shared-errors';

/** A task for cpu-pool.spec.ts: holds its thread for `spinMs`, refuses when asked, else answers where it ran. */
export function run(input: { spinMs?: number; refuse?: boolean; echo?: unknown }): { echo: unknown; threadId: number } {
  const until = Date.now() + (input.spinMs ?? 0);
  while (Date.now() < until) {
    // held, as a parse of a large input holds its thread
  }
  if (input.refuse) throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: file', { argument: 'file' });
  return { echo: input.echo, threadId };
}
