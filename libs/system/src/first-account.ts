import { AccountService } from '@doable/auth-oauth';
import { SyncSubjects } from '@doable/contracts-sync';
import type { ServiceApp } from '@doable/shared-runtime';
import { ServiceClient } from '@doable/shared-transport';

export interface FirstAccount {
  readonly email: string;
  readonly token: string;
}

/**
 * On a fresh system, creates one account so there is something to log in with, and waits
 * until its profile and Inbox exist (they are made from the user-created event).
 * Returns undefined when accounts already exist: tokens are stored hashed and cannot be shown again.
 */
export async function ensureFirstAccount(services: ReadonlyMap<string, ServiceApp>, email: string, fullName: string): Promise<FirstAccount | undefined> {
  const auth = services.get('auth-oauth')!.app;
  const accounts = auth.get(AccountService);
  if ((await accounts.count()) > 0) return undefined;
  const { userId, token } = await accounts.create({ email, fullName, timezone: 'UTC', emailVerified: true });
  const client = services.get('gateway')!.app.get(ServiceClient);
  const deadline = Date.now() + 15_000;
  while (!(await client.request(SyncSubjects.userStatus, { userId })).exists) {
    if (Date.now() > deadline) throw new Error('the first account was created but its profile did not appear in 15 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { email, token };
}
