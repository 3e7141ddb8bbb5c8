import { DomainError } from '@doable/shared-errors';
import type { z } from 'zod';

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
