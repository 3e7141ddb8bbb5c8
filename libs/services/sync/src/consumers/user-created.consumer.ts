import { createHash } from 'node:crypto';
import { AuthEvents } from '@doable/contracts-auth';
import { SCOPES } from '@doable/contracts-common';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { EventConsumers } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { CommandExecutor, firstRefusal } from '@doable/sync-engine';
import { NewAccounts, type SignedUpFrom } from '@doable/sync-domain';

/**
 * The accept command's uuid for one invitation: run twice, it is replayed, not run again. A
 * project invitation's is as it always was (so a redelivery after an upgrade still replays); a
 * workspace's names its kind, the two tables being numbered apart.
 */
function acceptUuid(from: SignedUpFrom): string {
  const seed = from.kind === 'workspace' ? `signed-up-from\u0000workspace\u0000${from.invitationId}` : `signed-up-from\u0000${from.invitationId}`;
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A new account gets its sync profile and Inbox project, and the invitations that waited for its
 * address (NewAccounts). An account signed up from an invitation mail (userCreated's
 * `invitation`, its secret the invitation's) then accepts that invitation: accept_invitation (a
 * project's) or biz_accept_invitation (a workspace's) run as the new user once the profile is
 * committed, so every rule of a client's accept holds (plan
 * limits, workspace guests, the members told). Should that fail or the process stop in between,
 * the invitation stays offered to the account as a live notification.
 */
@Injectable()
export class UserCreatedConsumer {
  constructor(consumers: EventConsumers, accounts: NewAccounts, executor: CommandExecutor, @Inject(LOGGER) logger: Logger) {
    const accept = async (userId: string, from: SignedUpFrom) => {
      const uuid = acceptUuid(from);
      const type = from.kind === 'workspace' ? 'biz_accept_invitation' : 'accept_invitation';
      const results = await executor.run({ userId, scopes: [...SCOPES], appId: null, tokenKind: 'personal' }, [
        { type, uuid, args: { invitation_id: from.invitationId, invitation_secret: from.invitationSecret } },
      ]);
      const refusal = firstRefusal(results.syncStatus[uuid] ?? 'ok');
      if (refusal) logger.warn({ userId, invitationKind: from.kind, invitationId: from.invitationId, refusal: refusal.error_tag }, 'the invitation an account signed up from could not be accepted; it stays offered');
    };
    consumers.on('create-profile', AuthEvents.userCreated, async (user, tx) => {
      const from = await accounts.welcome(tx, user);
      if (from) {
        tx.afterCommit(() => {
          accept(user.userId, from).catch((err: unknown) => logger.warn({ err, userId: user.userId, invitationId: from.invitationId }, 'accepting the invitation an account signed up from failed; it stays offered'));
        });
      }
    });
  }
}
