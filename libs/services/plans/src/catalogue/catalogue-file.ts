import { readFileSync } from 'node:fs';
import { BUILTIN_CATALOGUE, type PlanCatalogue, type PlanInfo, planInfoSchema } from '@doable/contracts-plans';
import { z } from 'zod';

/**
 * The operator's catalogue file (PLANS_FILE, JSON): the plans this server offers, in upgrade
 * order, and the one new accounts get.
 *
 *   { "default": "family",
 *     "plans": [
 *       { "plan_name": "family", "extends": "free", "max_projects": 50, "next": "team" },
 *       { "plan_name": "team", "extends": "business" } ] }
 *
 * A plan `extends` a built-in plan (free, pro, business) or one earlier in the file and sets the
 * keys it changes; with no `extends` it must set every key of the plan info (sync-interface §2).
 * `next` names the upgrade offered, or null; left out, it is the plan after it in the list (none
 * for the last). Only the file's plans exist: the built-ins are templates.
 */
const planEntrySchema = z
  .object({ extends: z.string().optional(), next: z.string().nullable().optional() })
  .catchall(z.unknown());

const fileSchema = z.strictObject({
  default: z.string(),
  plans: z.array(planEntrySchema).min(1),
});

export class CatalogueFileError extends Error {
  constructor(path: string, reason: string) {
    super(`plan catalogue ${path}: ${reason}`);
    this.name = 'CatalogueFileError';
  }
}

/** Reads and checks the file; any fault is reported with where it is, and the service does not start. */
export function readCatalogueFile(path: string): PlanCatalogue {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new CatalogueFileError(path, err instanceof Error ? err.message : String(err));
  }
  return parseCatalogue(raw, path);
}

export function parseCatalogue(raw: unknown, path = 'catalogue'): PlanCatalogue {
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) throw new CatalogueFileError(path, parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`).join('; '));
  const templates = new Map(BUILTIN_CATALOGUE.plans.map((plan) => [plan.plan_name, plan]));
  const plans: PlanInfo[] = [];
  const next: Record<string, string | null> = {};
  parsed.data.plans.forEach((entry, index) => {
    const { extends: base, next: upgrade, ...keys } = entry;
    const template = base === undefined ? {} : (plans.find((plan) => plan.plan_name === base) ?? templates.get(base));
    if (!template) throw new CatalogueFileError(path, `plans.${index}: extends "${base}", which is neither a built-in plan nor one earlier in the file`);
    const plan = planInfoSchema.safeParse({ ...template, ...keys });
    if (!plan.success) throw new CatalogueFileError(path, `plans.${index}: ${plan.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    if (plans.some((known) => known.plan_name === plan.data.plan_name)) throw new CatalogueFileError(path, `plans.${index}: plan "${plan.data.plan_name}" is defined twice`);
    plans.push(plan.data);
    if (upgrade !== undefined) next[plan.data.plan_name] = upgrade;
  });
  // Left out, a plan's upgrade is the one after it.
  plans.forEach((plan, index) => {
    if (!(plan.plan_name in next)) next[plan.plan_name] = plans[index + 1]?.plan_name ?? null;
  });
  for (const [name, upgrade] of Object.entries(next)) {
    if (upgrade !== null && !plans.some((plan) => plan.plan_name === upgrade)) throw new CatalogueFileError(path, `plan "${name}": next names "${upgrade}", which the file does not define`);
  }
  if (!plans.some((plan) => plan.plan_name === parsed.data.default)) throw new CatalogueFileError(path, `default names "${parsed.data.default}", which the file does not define`);
  return { plans, defaultPlan: parsed.data.default, next };
}
