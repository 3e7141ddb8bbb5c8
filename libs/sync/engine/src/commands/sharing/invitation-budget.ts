import { DomainError } from '@doable/shared-errors';
import { invitationsSentBy, openInvitationSentWithin } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/**
 * How many invitations (each one address: a project share or a workspace invitation, made or
 * sent again) one user may send per window. Every invitation may become a mail to someone who
 * never asked for it, so the sender's budget protects everyone else's inbox; notifications caps
 * what one address receives from all senders together (MAIL_RECIPIENT_LIMIT). Within the same
 * window, inviting an address whose invitation is still open sends nothing again.
 */
export interface InvitationBudget {
  readonly perSender: number;
  readonly windowSeconds: number;
}

export const INVITATION_BUDGET = Symbol('INVITATION_BUDGET');

/** Well above what a person or the test suites send in an hour; far below a flood. */
export const DEFAULT_INVITATION_BUDGET: InvitationBudget = { perSender: 50, windowSeconds: 3600 };

/**
 * Refuses the command (nothing of it done; earlier commands of the batch stand) when `adding`
 * more invitations would take the caller past the budget: RATE_LIMITED (429, the Todoist shape)
 * with `retry_after`, the seconds until the oldest counted invitation leaves the window.
 */
export async function requireInvitationBudget(context: CommandContext, budget: InvitationBudget, adding: number): Promise<void> {
  if (adding <= 0) return;
  const { count, oldestLeavesInSeconds } = await invitationsSentBy(context.tx.manager, context.userId, budget.windowSeconds);
  if (count + adding <= budget.perSender) return;
  throw new DomainError('RATE_LIMITED', `Too many invitations: at most ${budget.perSender} addresses per ${budget.windowSeconds} seconds. Try again later`, {
    retry_after: oldestLeavesInSeconds,
    limit: budget.perSender,
    window_seconds: budget.windowSeconds,
  });
}

/** The address's open invitation was sent within the window: inviting it again sends nothing (its mail and secret stand). */
export function sentRecently(
  context: CommandContext,
  budget: InvitationBudget,
  kind: Parameters<typeof openInvitationSentWithin>[1],
  scopeId: string,
  email: string,
): Promise<boolean> {
  return openInvitationSentWithin(context.tx.manager, kind, scopeId, email, budget.windowSeconds);
}
