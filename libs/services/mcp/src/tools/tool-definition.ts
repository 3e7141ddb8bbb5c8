import type { z } from 'zod';
import type { DomainCalls } from '../calls/domain-calls';

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
  run(calls: DomainCalls, args: z.infer<z.ZodObject<Input>>): Promise<z.infer<z.ZodObject<Output>>>;
}

/** Keeps each tool's input and output types tied to its shapes while the list holds them all. */
export function defineTool<Input extends z.ZodRawShape, Output extends z.ZodRawShape>(tool: ToolDefinition<Input, Output>): ToolDefinition {
  return tool;
}
