import { DomainError } from '@doable/shared-errors';
import type { Tx } from '@doable/shared-runtime';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';

/**
 * Where each kind of plan holder's plans live (migrations 1732190001700, 1732190001900): the
 * catalogue and its column holding a plan's whole value, the table saying which holder is on
 * which plan and its holder column, and how messages name such a plan. These are this service's
 * constants, never input, which is why they may be written into the SQL below.
 */
const TABLES = {
  user: { catalogue: 'plans.catalogue', value: 'limits', assignments: 'plans.user_plans', holder: 'user_id', noun: 'plan' },
  workspace: { catalogue: 'plans.workspace_catalogue', value: 'plan', assignments: 'plans.workspace_plans', holder: 'workspace_id', noun: 'workspace plan' },
} as const;

/** Records the event that tells the other services a holder's new plan. */
export type EmitPlanChange<V> = (tx: Tx, holderId: string, revision: string, value: V) => Promise<unknown>;

/**
 * Who is on which plan of one catalogue. Every change is announced (through the outbox, in the
 * transaction that made it) with a fresh revision and the whole plan value: the services that
 * enforce plans keep their own copy from these events.
 */
export class CatalogueAssignments<V> {
  private readonly tables: (typeof TABLES)[keyof typeof TABLES];

  constructor(
    holder: keyof typeof TABLES,
    private readonly schema: z.ZodType<V>,
    private readonly emit: EmitPlanChange<V>,
  ) {
    this.tables = TABLES[holder];
  }

  /** Puts a holder on a plan of the catalogue; INVALID_ARGUMENT_VALUE for a plan it does not have. */
  async assign(tx: Tx, holderId: string, planName: string): Promise<V> {
    const { catalogue, value, assignments, holder, noun } = this.tables;
    const [row] = await tx.manager.query<Array<{ value: unknown }>>(`SELECT ${value} AS value FROM ${catalogue} WHERE plan_name = $1`, [planName]);
    if (!row) {
      const known = await this.planNames(tx.manager);
      throw new DomainError('INVALID_ARGUMENT_VALUE', `No ${noun} named "${planName}" (the catalogue has: ${known.join(', ')})`, { argument: 'plan', expected: known });
    }
    await tx.manager.query(
      `INSERT INTO ${assignments} (${holder}, plan_id) VALUES ($1, $2)
       ON CONFLICT (${holder}) DO UPDATE SET plan_id = $2, assigned_at = now()`,
      [holderId, planName],
    );
    const plan = this.schema.parse(row.value);
    await this.announce(tx, holderId, plan);
    return plan;
  }

  /** The holder's plan name and value; the default plan's for a holder never assigned one. */
  async currentOf(manager: EntityManager, holderId: string): Promise<{ plan_name: string; value: V }> {
    const { catalogue, value, assignments, holder, noun } = this.tables;
    const [row] = await manager.query<Array<{ plan_name: string; value: unknown }>>(
      `SELECT c.plan_name, c.${value} AS value FROM ${catalogue} c
        WHERE c.plan_name = coalesce((SELECT plan_id FROM ${assignments} WHERE ${holder} = $1), (SELECT plan_name FROM ${catalogue} WHERE is_default))`,
      [holderId],
    );
    if (!row) throw new Error(`the ${noun} catalogue has not been published yet`);
    return { plan_name: row.plan_name, value: this.schema.parse(row.value) };
  }

  /** Stamps the holder's assignment with a new revision and emits the change; answers the revision. */
  async announce(tx: Tx, holderId: string, value: V): Promise<string> {
    const { assignments, holder } = this.tables;
    // A CTE, not a bare UPDATE ... RETURNING: TypeORM answers an UPDATE with [rows, count].
    const [{ revision }] = await tx.manager.query<Array<{ revision: string }>>(
      `WITH stamped AS (UPDATE ${assignments} SET revision = nextval('plans.plan_revision') WHERE ${holder} = $1 RETURNING revision)
       SELECT revision::text FROM stamped`,
      [holderId],
    );
    await this.emit(tx, holderId, revision, value);
    return revision;
  }

  /** The catalogue's plan names, in upgrade order. */
  async planNames(manager: EntityManager): Promise<string[]> {
    const rows = await manager.query<Array<{ plan_name: string }>>(`SELECT plan_name FROM ${this.tables.catalogue} ORDER BY position`);
    return rows.map((row) => row.plan_name);
  }
}
