import { type LargeAccountSize, seedLargeAccount } from '@doable/sync-domain/testing';
import { type BenchAccount, createAccounts, waitForProfiles } from './accounts';

export interface LargeAccount extends BenchAccount {
  /** How long the bulk fill took (seconds): the generator's own cost, reported with the figures. */
  readonly seedS: number;
}

/**
 * A fresh account of its own (never one of the shared users), created like the others and then
 * filled in bulk SQL by the sync engine's `seedLargeAccount`: a few set-based statements, one
 * change version, high-water mark raised, as commands would leave it. 50,000 tasks take seconds
 * where 50,000 commands would take minutes. With a password (S14 signs in through the web app's
 * log-in page) its email is `benchEmail(label, 0)`.
 */
export async function createLargeAccount(databaseUrl: string, label: string, size: LargeAccountSize, password?: string): Promise<LargeAccount> {
  const [account] = await createAccounts(databaseUrl, label, 1, password);
  await waitForProfiles(databaseUrl, [account.userId]);
  const started = Date.now();
  await seedLargeAccount(databaseUrl, account.userId, size);
  return { ...account, seedS: Math.round((Date.now() - started) / 100) / 10 };
}
