import { commandUuid, storableString } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { canonicalCommandType } from './command-aliases';
import { MAX_COMMANDS_PER_REQUEST, type SyncCommand, type SyncRequest } from '@doable/sync-engine';

/**
 * Reads a Sync API body in either encoding: JSON (real arrays) or form fields (arrays as JSON
 * strings, as `todoist@1.1.0` sends them).
 */
function jsonField(body: Record<string, unknown>, name: string): unknown {
  const value = body[name];
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new DomainError('INVALID_ARGUMENT_VALUE', `${name} is not valid JSON`, { argument: name });
  }
}

// A command's name, uuid and temp id are stored (the command log, temp ids): they keep the text rule.
const commandSchema = z.object({
  type: storableString.min(1).max(64),
  uuid: commandUuid,
  args: z.record(z.string(), z.unknown()).default({}),
  temp_id: storableString.min(1).max(100).nullish(),
});

export function parseSyncRequest(rawBody: unknown): SyncRequest {
  const body = (rawBody && typeof rawBody === 'object' && !Array.isArray(rawBody) ? rawBody : {}) as Record<string, unknown>;

  const syncToken = body['sync_token'];
  if (syncToken !== undefined && (typeof syncToken !== 'string' || syncToken.length === 0)) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', 'sync_token must be a string', { argument: 'sync_token' });
  }

  const rawCommands = jsonField(body, 'commands') ?? [];
  if (!Array.isArray(rawCommands)) throw new DomainError('INVALID_ARGUMENT_VALUE', 'commands must be an array', { argument: 'commands' });
  if (rawCommands.length > MAX_COMMANDS_PER_REQUEST) {
    throw new DomainError('TOO_MANY_COMMANDS', `At most ${MAX_COMMANDS_PER_REQUEST} commands per request`, { argument: 'commands', max_count: MAX_COMMANDS_PER_REQUEST });
  }
  const commands: SyncCommand[] = rawCommands.map((raw, index) => {
    const parsed = commandSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path.length > 0 ? `commands[${index}].${issue.path.join('.')}` : `commands[${index}]`;
      throw new DomainError('INVALID_ARGUMENT_VALUE', `${where}: ${issue.message}`, { argument: 'commands' });
    }
    const { temp_id, ...command } = parsed.data;
    const type = canonicalCommandType(command.type);
    return temp_id ? { ...command, type, temp_id } : { ...command, type };
  });
  const uuids = new Set(commands.map((command) => command.uuid));
  if (uuids.size !== commands.length) throw new DomainError('INVALID_ARGUMENT_VALUE', 'Command uuids must be unique within a request', { argument: 'commands' });

  if (syncToken === undefined && commands.length === 0) {
    throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: sync_token', { argument: 'sync_token' });
  }

  // A write that names resource types but no token reads them in full: the official SDKs'
  // moveTasks sends `item_move` with `resource_types: ["items"]` and reads the moved tasks back.
  const rawTypes = jsonField(body, 'resource_types');
  const readToken = syncToken ?? (commands.length > 0 && rawTypes !== undefined ? '*' : undefined);
  let resourceTypes: string[] = [];
  if (readToken !== undefined) {
    const raw = rawTypes;
    if (raw === undefined) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: resource_types', { argument: 'resource_types' });
    if (!Array.isArray(raw) || !raw.every((name) => typeof name === 'string')) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'resource_types must be an array of strings', { argument: 'resource_types' });
    }
    resourceTypes = raw;
  }

  return { syncToken: readToken ?? null, resourceTypes, commands };
}
