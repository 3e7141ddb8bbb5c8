/**
 * PostgreSQL's plans as the plan specs read them (`EXPLAIN (FORMAT JSON)`): what a statement
 * will scan, asserted on rather than timed, so a spec holds on a loaded machine.
 */

/** One node of `EXPLAIN (FORMAT JSON)`, the members the specs look at. */
export interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Parent Relationship'?: string;
  readonly 'Relation Name'?: string;
  readonly 'Index Cond'?: string;
  readonly 'Recheck Cond'?: string;
  readonly 'Total Cost': number;
  readonly Plans?: readonly PlanNode[];
}

/** Every node of a plan, depth first, each with whether it runs inside a SubPlan (once per outer row). */
export function* planNodes(node: PlanNode, underSubPlan = false): Generator<{ node: PlanNode; underSubPlan: boolean }> {
  const inSubPlan = underSubPlan || node['Parent Relationship'] === 'SubPlan';
  yield { node, underSubPlan: inSubPlan };
  for (const child of node.Plans ?? []) yield* planNodes(child, inSubPlan);
}

/** Anything that runs a query: a DataSource, an EntityManager, a QueryRunner. */
interface Queryable {
  query<T = unknown>(sql: string, params?: unknown[]): Promise<T>;
}

/** The plan PostgreSQL makes for a statement with these parameters (not run). */
export async function planOf(db: Queryable, sql: string, params: unknown[]): Promise<PlanNode> {
  const [row] = await db.query<Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  return row['QUERY PLAN'][0].Plan;
}
