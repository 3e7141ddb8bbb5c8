import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { DomainCalls } from '../calls/domain-calls';

/**
 * An answer that carries more than its structured output: content blocks shown after the JSON
 * text (an image the assistant should see, which has no place in JSON).
 */
export class WithContent<Output> {
  constructor(
    readonly output: Output,
    readonly content: readonly ContentBlock[],
  ) {}
}

/**
 * One tool of the assistant server: its name (the hosted server's), a zod shape for its input
 * and one for its structured output, and what it runs. `run` only translates: it calls api/v1
 * REST or the Sync API through DomainCalls and shapes the answer.
 */
export interface ToolDefinition<Input extends z.ZodRawShape = z.ZodRawShape, Output extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: Input;
  readonly output: Output;
  /** Reads only (annotations.readOnlyHint): assistants may run it without asking. */
  readonly readOnly?: boolean;
  /** Removes or overwrites what cannot be restored (annotations.destructiveHint). */
  readonly destructive?: boolean;
  run(calls: DomainCalls, args: z.infer<z.ZodObject<Input>>): Promise<z.infer<z.ZodObject<Output>> | WithContent<z.infer<z.ZodObject<Output>>>>;
}

/** Keeps each tool's input and output types tied to its shapes while the list holds them all. */
export function defineTool<Input extends z.ZodRawShape, Output extends z.ZodRawShape>(tool: ToolDefinition<Input, Output>): ToolDefinition {
  return tool;
}
