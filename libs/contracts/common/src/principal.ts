import { z } from 'zod';

/** OAuth scopes of the Todoist protocol (sync-interface §5.4). A personal token holds them all. */
export const SCOPES = ['task:add', 'data:read', 'data:read_write', 'data:delete', 'project:delete', 'backups:read'] as const;
export type Scope = (typeof SCOPES)[number];

/** The scopes that let a token read the account's data (`task:add` alone adds tasks without seeing anything). */
export const READ_SCOPES: readonly Scope[] = ['data:read', 'data:read_write'];

/**
 * The one scope check: whether a token holds any of `anyOf`. What each read or write needs is
 * declared by the policies (sync's CommandPolicy.scopes, its read policy, the edge requirements
 * of `@Handles`); they all ask here, so none hand-rolls `scopes.includes`.
 */
export function holdsAnyScope(principal: { readonly scopes: readonly Scope[] }, anyOf: readonly Scope[]): boolean {
  return anyOf.some((scope) => principal.scopes.includes(scope));
}

export const principalSchema = z.object({
  userId: z.string().regex(/^[0-9]+$/),
  scopes: z.array(z.enum(SCOPES)),
  appId: z.string().nullable(),
  tokenKind: z.enum(['personal', 'oauth']),
});

/** Who is calling, as established by the gateway: carried in every edge request. */
export type Principal = z.infer<typeof principalSchema>;
