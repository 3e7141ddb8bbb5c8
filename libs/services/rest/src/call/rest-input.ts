import { restOperationContract } from '@doable/contracts-rest';
import { DomainError } from '@doable/shared-errors';
import type { z } from 'zod';
import type { RestCall } from './rest-call';

/**
 * The one mapping from a contract's validation issue to the coded 400 REST answers: a field
 * that is absent (or blank where required) is ARGUMENT_MISSING, anything else
 * INVALID_ARGUMENT_VALUE naming the argument, in the words the argument readers use.
 */
export function restInputError(issue: z.core.$ZodIssue, input: Readonly<Record<string, unknown>>): DomainError {
  const argument = String(issue.path[0] ?? 'body');
  const absent = issue.path.length === 1 && input[argument] === undefined;
  const blank = issue.code === 'custom' && (issue.params as { missing?: boolean } | undefined)?.missing === true;
  if (absent || blank) return new DomainError('ARGUMENT_MISSING', `Required argument is missing: ${argument}`, { argument });
  return new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument} (${issue.message})`, { argument });
}

function check(schema: z.ZodType, input: Readonly<Record<string, unknown>>): void {
  const result = schema.safeParse(input);
  const issue = result.error?.issues[0];
  if (issue) throw restInputError(issue, input);
}

/**
 * Checks a call's query and JSON body against its operation's contract (the schemas the OpenAPI
 * document is generated from) before the handler runs; the handler's readers then only decide
 * what the values mean. Surfaces without a contract (REST v1) keep their readers alone.
 */
export function checkRestInput(call: RestCall): void {
  const contract = restOperationContract(call.operation, call.surface);
  if (contract?.query) check(contract.query, call.query);
  if (contract?.body) check(contract.body, call.body);
}
