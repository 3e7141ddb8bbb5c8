import { readFileSync } from 'node:fs';
import {
  BUILTIN_CATALOGUE,
  BUILTIN_WORKSPACE_CATALOGUE,
  type PlanCatalogue,
  type PlanInfo,
  planInfoSchema,
  WORKSPACE_PLAN_TYPES,
  type WorkspacePlan,
  type WorkspacePlanCatalogue,
} from '@doable/contracts-plans';
import { z } from 'zod';

/**
 * The operator's catalogue file (PLANS_FILE, JSON): the plans this server offers, in upgrade
 * order, and the one new accounts get; optionally the same for workspaces.
 *
 *   { "default": "family",
 *     "plans": [
 *       { "plan_name": "family", "extends": "free", "max_projects": 50, "next": "team" },
 *       { "plan_name": "team", "extends": "business" } ],
 *     "workspace_plans": {
 *       "default": "starter",
 *       "plans": [
 *         { "plan_name": "starter", "extends": "starter", "max_projects": 10 },
 *         { "plan_name": "business", "plan_type": "BUSINESS", "extends": "business" } ] } }
 *
 * A plan `extends` a built-in plan (free, pro, business) or one earlier in the file and sets the
 * keys it changes; with no `extends` it must set every key of the plan info (sync-interface §2).
 * `next` names the upgrade offered, or null; left out, it is the plan after it in the list (none
 * for the last). Only the file's plans exist: the built-ins are templates.
 *
 * `workspace_plans` follows the same rules with the built-in workspace plans (starter, business)
 * as templates; each plan also has a `plan_type` (STARTER or BUSINESS, what the workspace object
 * shows as `plan`), inherited from the plan it extends unless set. Left out, the server offers the
 * built-in workspace plans.
 */
const planEntrySchema = z
  .object({ extends: z.string().optional(), next: z.string().nullable().optional() })
  .catchall(z.unknown());

const workspacePlanEntrySchema = z
  .object({ extends: z.string().optional(), next: z.string().nullable().optional(), plan_type: z.enum(WORKSPACE_PLAN_TYPES).optional() })
  .catchall(z.unknown());

const fileSchema = z.strictObject({
  default: z.string(),
  plans: z.array(planEntrySchema).min(1),
  workspace_plans: z.strictObject({ default: z.string(), plans: z.array(workspacePlanEntrySchema).min(1) }).optional(),
});

/** Both catalogues of one file. */
export interface PlansFile {
  readonly users: PlanCatalogue;
  readonly workspaces: WorkspacePlanCatalogue;
}

export class CatalogueFileError extends Error {
  constructor(path: string, reason: string) {
    super(`plan catalogue ${path}: ${reason}`);
    this.name = 'CatalogueFileError';
  }
}

/** Reads and checks the file; any fault is reported with where it is, and the service does not start. */
export function readPlansFile(path: string): PlansFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new CatalogueFileError(path, err instanceof Error ? err.message : String(err));
  }
  return parsePlansFile(raw, path);
}

/** The user plans of the file (readPlansFile has both). */
export function readCatalogueFile(path: string): PlanCatalogue {
  return readPlansFile(path).users;
}

/** The user plans of a parsed file (parsePlansFile has both). */
export function parseCatalogue(raw: unknown, path = 'catalogue'): PlanCatalogue {
  return parsePlansFile(raw, path).users;
}

/** The workspace plans of a parsed file: its `workspace_plans`, or the built-in ones. */
export function parseWorkspaceCatalogue(raw: unknown, path = 'catalogue'): WorkspacePlanCatalogue {
  return parsePlansFile(raw, path).workspaces;
}

export function parsePlansFile(raw: unknown, path = 'catalogue'): PlansFile {
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) throw new CatalogueFileError(path, parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`).join('; '));
  const users = parseList<PlanInfo>(path, '', parsed.data, BUILTIN_CATALOGUE.plans, (keys, template, where) => {
    const plan = planInfoSchema.safeParse({ ...template, ...keys });
    if (!plan.success) throw new CatalogueFileError(path, `${where}: ${describe(plan.error)}`);
    return plan.data;
  });
  const section = parsed.data.workspace_plans;
  if (!section) return { users: { plans: users.plans, defaultPlan: users.defaultPlan, next: users.next }, workspaces: BUILTIN_WORKSPACE_CATALOGUE };
  const templates = BUILTIN_WORKSPACE_CATALOGUE.plans.map((plan) => ({ ...plan, plan_name: plan.info.plan_name }));
  const workspaces = parseList<WorkspacePlan & { plan_name: string }>(path, 'workspace_plans.', section, templates, (keys, template, where) => {
    const { plan_type: ownType, ...rest } = keys as { plan_type?: (typeof WORKSPACE_PLAN_TYPES)[number] };
    const planType = ownType ?? template?.plan_type;
    if (!planType) throw new CatalogueFileError(path, `${where}: plan_type (STARTER or BUSINESS) is needed for a plan that extends none`);
    const info = planInfoSchema.safeParse({ ...template?.info, ...rest });
    if (!info.success) throw new CatalogueFileError(path, `${where}: ${describe(info.error)}`);
    return { plan_type: planType, info: info.data, plan_name: info.data.plan_name };
  });
  return {
    users: { plans: users.plans, defaultPlan: users.defaultPlan, next: users.next },
    workspaces: { plans: workspaces.plans.map(({ plan_type, info }) => ({ plan_type, info })), defaultPlan: workspaces.defaultPlan, next: workspaces.next },
  };
}

function describe(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
}

/**
 * One list of plans (the user plans, or the workspace plans under `prefix`): each entry built
 * from its template (a built-in or an earlier entry of the list) by `build`, upgrades resolved,
 * the default checked.
 */
function parseList<P extends { plan_name: string }>(
  path: string,
  prefix: string,
  section: { default: string; plans: ReadonlyArray<{ extends?: string; next?: string | null } & Record<string, unknown>> },
  builtins: readonly P[],
  build: (keys: Record<string, unknown>, template: P | undefined, where: string) => P,
): { plans: P[]; defaultPlan: string; next: Record<string, string | null> } {
  const plans: P[] = [];
  const next: Record<string, string | null> = {};
  section.plans.forEach((entry, index) => {
    const { extends: base, next: upgrade, ...keys } = entry;
    const where = `${prefix}plans.${index}`;
    const template = base === undefined ? undefined : (plans.find((plan) => plan.plan_name === base) ?? builtins.find((plan) => plan.plan_name === base));
    if (base !== undefined && !template) throw new CatalogueFileError(path, `${where}: extends "${base}", which is neither a built-in plan nor one earlier in the file`);
    const plan = build(keys, template, where);
    if (plans.some((known) => known.plan_name === plan.plan_name)) throw new CatalogueFileError(path, `${where}: plan "${plan.plan_name}" is defined twice`);
    plans.push(plan);
    if (upgrade !== undefined) next[plan.plan_name] = upgrade;
  });
  // Left out, a plan's upgrade is the one after it.
  plans.forEach((plan, index) => {
    if (!(plan.plan_name in next)) next[plan.plan_name] = plans[index + 1]?.plan_name ?? null;
  });
  for (const [name, upgrade] of Object.entries(next)) {
    if (upgrade !== null && !plans.some((plan) => plan.plan_name === upgrade)) throw new CatalogueFileError(path, `${prefix}plan "${name}": next names "${upgrade}", which the file does not define`);
  }
  if (!plans.some((plan) => plan.plan_name === section.default)) throw new CatalogueFileError(path, `${prefix}default names "${section.default}", which the file does not define`);
  return { plans, defaultPlan: section.default, next };
}
