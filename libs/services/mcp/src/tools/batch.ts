import type { DomainCalls, SyncCommandInput } from '../calls/domain-calls';

/**
 * Runs one Sync API command per id in one request and says which ran: each command is atomic
 * on its own (the Sync API's rule), so a refused id does not undo the others.
 */
export async function commandPerId(calls: DomainCalls, ids: readonly string[], command: (id: string) => SyncCommandInput) {
  const { outcomes } = await calls.sync(ids.map(command));
  const succeeded: string[] = [];
  const failed: Array<{ id: string; error: string; tag: string }> = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.ok) succeeded.push(ids[index]);
    else failed.push({ id: ids[index], error: outcome.error, tag: outcome.tag });
  });
  return { succeeded, failed };
}
