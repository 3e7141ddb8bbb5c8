import type { Command } from './sync-types';

/**
 * Rewrites temp ids the server has mapped in a value of command args. Temp ids are uuids made
 * here, so any string equal to one is that reference, wherever it sits (project_id, ids[],
 * parent_id...): no list of argument names to keep in step with the commands.
 */
function rewrite(value: unknown, mapping: Readonly<Record<string, string>>): unknown {
  if (typeof value === 'string') return mapping[value] ?? value;
  if (Array.isArray(value)) return value.map((entry) => rewrite(entry, mapping));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, rewrite(entry, mapping)]));
  }
  return value;
}

/**
 * A command queued after the one that created a resource may name it by its temp id; once the
 * server has answered with the real id, the queued command must use the real one (a later
 * request does not know the earlier request's temp ids). Returns the commands that changed.
 */
export function applyTempIdMapping(commands: readonly Command[], mapping: Readonly<Record<string, string>>): Command[] {
  if (Object.keys(mapping).length === 0) return [];
  const changed: Command[] = [];
  for (const command of commands) {
    const args = rewrite(command.args, mapping) as Record<string, unknown>;
    if (JSON.stringify(args) !== JSON.stringify(command.args)) changed.push({ ...command, args });
  }
  return changed;
}
