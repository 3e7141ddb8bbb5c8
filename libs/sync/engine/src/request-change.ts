import type { Tx } from '@doable/shared-runtime';
import type { UserProfile, UserProfileRepository } from '@doable/sync-domain';
import { openChange, type UserChange } from './user-change';

/** What one command declared changed for others: projects and workspaces (all their members) and single users. */
export interface Touched {
  readonly projects: string[];
  readonly users: string[];
  readonly workspaces: string[];
}

export const nothingTouched = (): Touched => ({ projects: [], users: [], workspaces: [] });

/**
 * The change a request's commands write under: one version for all of them, as they commit
 * together. Opened when the first command runs (a request of replays opens none). Only the
 * projects of commands that succeeded are touched. A command that rewrote the user's settings
 * ends the change, so the next one sees the new settings under a version of its own.
 */
export class RequestChange {
  private current: UserChange | undefined;
  private written = false;

  /**
   * @param firstVersion the version the first change takes, read with the command log (one
   * round trip less); a change opened after a profile command takes a version of its own.
   */
  constructor(
    private readonly tx: Tx,
    private readonly profiles: UserProfileRepository,
    private profile: UserProfile,
    private firstVersion?: string,
  ) {}

  async open(): Promise<UserChange> {
    if (!this.current) {
      this.current = await openChange(this.tx, this.profiles, this.profile, this.firstVersion);
      this.firstVersion = undefined;
    }
    return this.current;
  }

  /** A command of the change succeeded: its projects' members will see it. */
  commandWritten(touched: Touched): void {
    this.written = true;
    this.current?.touch(...touched.projects);
    this.current?.touchUsers(...touched.users);
    this.current?.touchWorkspaces(...touched.workspaces);
  }

  /** Closes the change and reads the user row again (still locked by this transaction). */
  async reloadProfile(): Promise<void> {
    await this.close();
    this.profile = (await this.profiles.find(this.tx.manager, this.profile.id)) ?? this.profile;
  }

  /** Raises the high-water marks, if any command wrote. Call last, inside the transaction. */
  async close(): Promise<void> {
    if (this.current && this.written) await this.current.close();
    this.current = undefined;
    this.written = false;
  }
}
