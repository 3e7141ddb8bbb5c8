import { join } from 'node:path';
import type { Scope } from '@doable/contracts-common';
import type { ClusterSystem } from '@doable/system';
import { Client } from 'pg';

/**
 * What a suite knows of the system it drives, without loading the system: importing this costs
 * nothing, so a suite on the run's shared system (use-system.ts) never loads the services' code
 * in its own module registry. system-under-test.ts starts systems.
 */
export type Mode = 'embedded' | 'cluster';
export const MODES: Mode[] = ['embedded', 'cluster'];

export interface Account {
  readonly userId: string;
  readonly email: string;
  readonly token: string;
}

/** The whole system, started in one of its two modes, with what the tests need to drive it. */
export interface SystemUnderTest {
  readonly mode: Mode;
  readonly url: string;
  /** The system's PostgreSQL (PGlite's wire endpoint when embedded). */
  readonly databaseUrl: string;
  /**
   * A new account, made through auth-oauth's subject; unless told not to, waits for its sync
   * profile and plan. With `password`, one that can log in to the pages (and must give it to change credentials).
   */
  createAccount(options?: { waitForProfile?: boolean; password?: string }): Promise<Account>;
  profileExists(userId: string): Promise<boolean>;
  /** A token limited to some scopes, obtained through the real OAuth flow (HTTP, no browser). */
  createScopedToken(userId: string, scopes: Scope[]): Promise<string>;
  /**
   * Puts an account or a workspace on a plan of the e2e catalogue with the plans service's own
   * code, in its process: what `npm run cli -- set-plan` and `set-workspace-plan` run, without
   * starting a CLI process each time (operator-cli.e2e-spec.ts drives the CLI itself).
   */
  assignPlan(target: { readonly userId: string } | { readonly workspaceId: string }, plan: string): Promise<void>;
  /** Replaces an account's personal token (as the settings page and the CLI do). */
  resetToken(email: string): Promise<string>;
  /** Reads the system's database directly, to observe what no endpoint shows yet. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Every command type the Sync API runs (the sync service's registered handlers). */
  commandTypes(): string[];
  /**
   * What the gateway's blob store holds under `prefix` (default: every uploaded or imported
   * file), and, for the local store, any partial file a put left behind (as `partial:<path>`).
   * On the run's shared system that includes other suites' files: compare before and after.
   */
  storedFiles(prefix?: string): Promise<string[]>;
  /**
   * Cluster mode only: the NATS the services talk over, so a test can start another replica
   * beside them (plain values: on the run's shared system the services live in another module registry).
   */
  readonly natsTransport?: { readonly url: string; readonly subjectPrefix: string };
  /** Cluster mode only: the individual services. */
  readonly cluster?: ClusterSystem;
  close(): Promise<void>;
}


/**
 * The e2e plan catalogue: new accounts get "roomy" (limits no suite reaches), so suites that make
 * dozens of projects or filters test what they test and not the built-in free plan; the limit
 * suites put their accounts on "tiny" or "bare" (setPlan in ./plans).
 */
export const E2E_PLANS_FILE = join(__dirname, 'plans.e2e.json');

/** A query on the system's database, on a connection of its own (closed after it). */
export function sqlOn(databaseUrl: string): SystemUnderTest['sql'] {
  return async <T>(text: string, params: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
}
