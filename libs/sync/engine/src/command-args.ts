import { DomainError } from '@doable/shared-errors';
import type { z } from 'zod';
import type { CommandContext, CommandOutcome } from './command-handler';

/** Argument pieces every kind of command takes (in the contracts: the field tables name them). */
export { flag, idArg } from '@doable/contracts-common';

/**
 * Validates a command's args. A missing required argument answers ARGUMENT_MISSING, anything
 * else malformed INVALID_ARGUMENT_VALUE, both naming the argument (error_extra.argument).
 */
export function parseArgs<T>(schema: z.ZodType<T>, args: Record<string, unknown>): T {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const argument = String(issue.path[0] ?? '');
  if (argument && args[argument] === undefined) {
    throw new DomainError('ARGUMENT_MISSING', `Required argument is missing: ${argument}`, { argument });
  }
  throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument || 'args'}`, {
    argument,
    explanation: issue.message,
  });
}

/**
 * A command on `id` (v9/v1) or on `ids` (v7/v8 drafts). One `id` answers `ok` or its error, as
 * ever. Each of the `ids` is done on its own: a refused one is undone alone and the command
 * answers a map of each id to `ok` or its error (spec §7.2).
 */
export async function forEachId(
  context: CommandContext,
  args: { id?: string | number; ids?: Array<string | number> },
  work: (id: string | number) => Promise<void>,
): Promise<CommandOutcome> {
  if (args.id !== undefined) {
    await work(args.id);
    return {};
  }
  if (args.ids === undefined || args.ids.length === 0) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: id', { argument: 'id' });
  const statuses = await context.eachObject(
    args.ids.map((id) => [String(id), id] as const),
    work,
  );
  return { perObject: { statuses, answer: 'always' } };
}

/**
 * A command over an id map or list of entries (orders): each entry on its own, answered `ok`
 * when all succeeded, and each id's outcome only when one was refused (see PerObjectOutcome).
 */
export async function forEachEntry<T>(context: CommandContext, entries: ReadonlyArray<readonly [key: string, value: T]>, work: (value: T) => Promise<void>): Promise<CommandOutcome> {
  return { perObject: { statuses: await context.eachObject(entries, work), answer: 'when-refused' } };
}
