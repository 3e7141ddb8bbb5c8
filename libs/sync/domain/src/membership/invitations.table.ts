import type { EntityManager } from 'typeorm';
import type { Invitation, InvitationState } from './invitation.model';

/** Where one kind of invitation is stored, and what it is an invitation to. */
export interface InvitationTable {
  /** `sync.<table>`. */
  readonly table: 'project_invitations' | 'workspace_invitations';
  /** The column naming what it invites to, and that thing's table (its `name`, `is_deleted`). */
  readonly scopeColumn: 'project_id' | 'workspace_id';
  readonly scopeTable: 'projects' | 'workspaces';
  /** The columns a read answers (INVITATION_COLUMNS and the kind's own). */
  readonly columns: string;
  /** What waitingFor calls the scope's name on each row. */
  readonly scopeNameAs: string;
}

/**
 * The statements every kind of invitation shares, over its own table: one open invitation per
 * address and scope, answered once, waiting for an account, then addressed to it. Every method
 * runs on the caller's transaction. The table's names are the kind's constants, never input.
 */
export abstract class InvitationsTable<I extends Invitation, W extends I> {
  protected constructor(private readonly kind: InvitationTable) {}

  /**
   * Records an invitation, or sends the open one for the same address and scope again: one open
   * invitation per pair (the table's partial unique index), which keeps its id and takes the new
   * values and secret (the old secret stops working). Two members inviting the same address at
   * once meet in the index, not in a duplicate. `values`: column -> value, the scope's column and
   * `invitee_email` (lower-cased by the caller) among them.
   */
  protected async upsert(manager: EntityManager, values: Readonly<Record<string, unknown>>, version: string): Promise<I> {
    const columns = [...Object.keys(values), 'version'];
    const placeholders = columns.map((_, index) => `$${index + 1}`);
    const renewed = columns.filter((column) => column !== this.kind.scopeColumn && column !== 'invitee_email').map((column) => `${column} = EXCLUDED.${column}`);
    const [row] = await manager.query<I[]>(
      `INSERT INTO sync.${this.kind.table} (${columns.join(', ')}) VALUES (${placeholders.join(', ')})
       ON CONFLICT (${this.kind.scopeColumn}, invitee_email) WHERE state = 'invited' DO UPDATE SET ${renewed.join(', ')}, created_at = now()
       RETURNING ${this.kind.columns}`,
      [...Object.values(values), version],
    );
    return row;
  }

  /** The invitation as it stands, not locked: for a look that changes nothing. */
  async find(manager: EntityManager, invitationId: string): Promise<I | undefined> {
    const rows = await manager.query<I[]>(`SELECT ${this.kind.columns} FROM sync.${this.kind.table} WHERE id = $1`, [invitationId]);
    return rows[0];
  }

  /** The invitation, locked for the rest of the transaction (its answer is decided once). */
  async findForUpdate(manager: EntityManager, invitationId: string): Promise<I | undefined> {
    const rows = await manager.query<I[]>(`SELECT ${this.kind.columns} FROM sync.${this.kind.table} WHERE id = $1 FOR UPDATE`, [invitationId]);
    return rows[0];
  }

  /** The open invitation for this address to this scope, locked; undefined when there is none. */
  async findOpenForUpdate(manager: EntityManager, scopeId: string, email: string): Promise<I | undefined> {
    const rows = await manager.query<I[]>(
      `SELECT ${this.kind.columns} FROM sync.${this.kind.table} WHERE ${this.kind.scopeColumn} = $1 AND invitee_email = lower($2) AND state = 'invited' FOR UPDATE`,
      [scopeId, email],
    );
    return rows[0];
  }

  /** Ends an open invitation (accepted, rejected or deleted). Answers whether it was still open. */
  async answer(manager: EntityManager, invitationId: string, state: Exclude<InvitationState, 'invited'>, version: string): Promise<boolean> {
    const result = await manager.query<[unknown[], number]>(
      `UPDATE sync.${this.kind.table} SET state = $2, answered_at = now(), version = $3 WHERE id = $1 AND state = 'invited' RETURNING id`,
      [invitationId, state, version],
    );
    return result[1] > 0;
  }

  /**
   * Open invitations to an address no account had when they were made, locked, oldest first,
   * with their scopes' names (a scope deleted meanwhile has nothing left to offer).
   */
  async waitingFor(manager: EntityManager, email: string): Promise<W[]> {
    const { table, scopeColumn, scopeTable, columns, scopeNameAs } = this.kind;
    return manager.query<W[]>(
      `SELECT ${columns}, (SELECT name FROM sync.${scopeTable} scope WHERE scope.id = ${scopeColumn}) AS ${scopeNameAs}
         FROM sync.${table}
        WHERE invitee_email = lower($1) AND state = 'invited' AND invitee_id IS NULL
          AND ${scopeColumn} IN (SELECT id FROM sync.${scopeTable} WHERE NOT is_deleted)
        ORDER BY id
        FOR UPDATE`,
      [email],
    );
  }

  /** Addresses a waiting invitation to the account now created for it, under a new secret. */
  async attachInvitee(manager: EntityManager, invitationId: string, inviteeId: string, secretHash: string, version: string): Promise<I> {
    const [rows] = await manager.query<[I[], number]>(
      `UPDATE sync.${this.kind.table} SET invitee_id = $2, secret_hash = $3, version = $4 WHERE id = $1 RETURNING ${this.kind.columns}`,
      [invitationId, inviteeId, secretHash, version],
    );
    return rows[0];
  }
}
