import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_CATALOGUE, BUILTIN_FREE, BUILTIN_WORKSPACE_BUSINESS, BUILTIN_WORKSPACE_CATALOGUE, BUILTIN_WORKSPACE_STARTER } from '@doable/contracts-plans';
import { CatalogueFileError, parseCatalogue, parseWorkspaceCatalogue, readCatalogueFile, readPlansFile } from './catalogue-file';

const builtin = (name: string) => BUILTIN_CATALOGUE.plans.find((plan) => plan.plan_name === name)!;

describe('the plan catalogue file', () => {
  it('builds a plan from a built-in one and the keys it changes', () => {
    const catalogue = parseCatalogue({ default: 'family', plans: [{ plan_name: 'family', extends: 'free', max_projects: 50, labels: false }] });
    expect(catalogue.plans).toEqual([{ ...BUILTIN_FREE, plan_name: 'family', max_projects: 50, labels: false }]);
    expect(catalogue.defaultPlan).toBe('family');
  });

  it('lets a plan extend one earlier in the file, which the built-in of that name does not shadow', () => {
    const catalogue = parseCatalogue({
      default: 'free',
      plans: [
        { plan_name: 'free', extends: 'free', max_projects: 7 },
        { plan_name: 'free-plus', extends: 'free', max_tasks: 900 },
        { plan_name: 'team', extends: 'free-plus', max_collaborators: 40 },
      ],
    });
    expect(catalogue.plans.map((plan) => [plan.plan_name, plan.max_projects, plan.max_tasks, plan.max_collaborators])).toEqual([
      ['free', 7, 300, 5],
      ['free-plus', 7, 900, 5],
      ['team', 7, 900, 40],
    ]);
  });

  it('offers the next plan in the list as the upgrade, the last none, unless next says otherwise', () => {
    const catalogue = parseCatalogue({
      default: 'a',
      plans: [
        { plan_name: 'a', extends: 'free' },
        { plan_name: 'b', extends: 'pro', next: 'd' },
        { plan_name: 'c', extends: 'pro', next: null },
        { plan_name: 'd', extends: 'business' },
      ],
    });
    expect(catalogue.next).toEqual({ a: 'b', b: 'd', c: null, d: null });
  });

  it('takes a plan with every key and no extends', () => {
    const { plan_name: _name, ...keys } = builtin('pro');
    expect(parseCatalogue({ default: 'own', plans: [{ plan_name: 'own', ...keys }] }).plans[0]).toEqual({ ...builtin('pro'), plan_name: 'own' });
  });

  it.each([
    ['an unknown key (a misspelt limit)', { default: 'a', plans: [{ plan_name: 'a', extends: 'free', max_project: 9 }] }, /plans\.0: .*max_project/],
    ['a missing key without extends', { default: 'a', plans: [{ plan_name: 'a', max_projects: 9 }] }, /plans\.0: .*activity_log/],
    ['a wrong type', { default: 'a', plans: [{ plan_name: 'a', extends: 'free', max_tasks: 'many' }] }, /plans\.0: max_tasks/],
    ['a negative count', { default: 'a', plans: [{ plan_name: 'a', extends: 'free', max_tasks: -1 }] }, /plans\.0: max_tasks/],
    ['a bad plan name', { default: 'A B', plans: [{ plan_name: 'A B', extends: 'free' }] }, /plans\.0: plan_name/],
    ['extends of a plan that does not exist', { default: 'a', plans: [{ plan_name: 'a', extends: 'gold' }] }, /extends "gold"/],
    ['extends of a plan later in the file', { default: 'a', plans: [{ plan_name: 'a', extends: 'b' }, { plan_name: 'b', extends: 'free' }] }, /plans\.0: extends "b"/],
    ['a plan defined twice', { default: 'a', plans: [{ plan_name: 'a', extends: 'free' }, { plan_name: 'a', extends: 'pro' }] }, /plan "a" is defined twice/],
    ['a default the file does not define', { default: 'free', plans: [{ plan_name: 'a', extends: 'free' }] }, /default names "free"/],
    ['a next the file does not define', { default: 'a', plans: [{ plan_name: 'a', extends: 'free', next: 'pro' }] }, /plan "a": next names "pro"/],
    ['no plans', { default: 'a', plans: [] }, /plans/],
    ['an unknown top-level key', { default: 'a', plans: [{ plan_name: 'a', extends: 'free' }], defualt: 'a' }, /defualt/],
  ])('refuses %s, saying where', (_case, raw, reason) => {
    expect(() => parseCatalogue(raw, 'plans.json')).toThrow(CatalogueFileError);
    expect(() => parseCatalogue(raw, 'plans.json')).toThrow(reason);
  });

  describe('workspace plans', () => {
    const users = { default: 'free', plans: [{ plan_name: 'free', extends: 'free' }] };

    it('is the built-in workspace catalogue when the file has no workspace_plans', () => {
      expect(parseWorkspaceCatalogue(users)).toEqual(BUILTIN_WORKSPACE_CATALOGUE);
    });

    it('builds workspace plans from the built-in ones and earlier entries, inheriting plan_type unless set', () => {
      const catalogue = parseWorkspaceCatalogue({
        ...users,
        workspace_plans: {
          default: 'team',
          plans: [
            { plan_name: 'team', extends: 'starter', max_projects: 12 },
            { plan_name: 'team-plus', extends: 'team', plan_type: 'BUSINESS', max_workspace_filters: 40 },
            { plan_name: 'corp', extends: 'business', next: null },
          ],
        },
      });
      expect(catalogue.defaultPlan).toBe('team');
      expect(catalogue.plans).toEqual([
        { plan_type: 'STARTER', info: { ...BUILTIN_WORKSPACE_STARTER.info, plan_name: 'team', max_projects: 12 } },
        { plan_type: 'BUSINESS', info: { ...BUILTIN_WORKSPACE_STARTER.info, plan_name: 'team-plus', max_projects: 12, max_workspace_filters: 40 } },
        { plan_type: 'BUSINESS', info: { ...BUILTIN_WORKSPACE_BUSINESS.info, plan_name: 'corp' } },
      ]);
      expect(catalogue.next).toEqual({ team: 'team-plus', 'team-plus': 'corp', corp: null });
    });

    it('leaves the user plans as they were', () => {
      const raw = { ...users, workspace_plans: { default: 'starter', plans: [{ plan_name: 'starter', extends: 'starter' }] } };
      expect(parseCatalogue(raw)).toEqual(parseCatalogue(users));
    });

    it('takes a plan that extends none when it sets plan_type and every key', () => {
      const catalogue = parseWorkspaceCatalogue({ ...users, workspace_plans: { default: 'own', plans: [{ ...BUILTIN_WORKSPACE_STARTER.info, plan_name: 'own', plan_type: 'STARTER' }] } });
      expect(catalogue.plans[0]).toEqual({ plan_type: 'STARTER', info: { ...BUILTIN_WORKSPACE_STARTER.info, plan_name: 'own' } });
    });

    it.each([
      ['no plan_type on a plan that extends none', { default: 'own', plans: [{ ...BUILTIN_WORKSPACE_STARTER.info, plan_name: 'own' }] }, /workspace_plans\.plans\.0: plan_type/],
      ['a plan_type that is not STARTER or BUSINESS', { default: 'a', plans: [{ plan_name: 'a', extends: 'starter', plan_type: 'PRO' }] }, /workspace_plans\.plans\.0\.plan_type/],
      ['a user plan as template', { default: 'a', plans: [{ plan_name: 'a', extends: 'free' }] }, /workspace_plans\.plans\.0: extends "free"/],
      ['a misspelt key', { default: 'a', plans: [{ plan_name: 'a', extends: 'starter', max_folder: 3 }] }, /workspace_plans\.plans\.0: .*max_folder/],
      ['a plan defined twice', { default: 'a', plans: [{ plan_name: 'a', extends: 'starter' }, { plan_name: 'a', extends: 'business' }] }, /workspace_plans\.plans\.1: plan "a" is defined twice/],
      ['a default the section does not define', { default: 'starter', plans: [{ plan_name: 'a', extends: 'starter' }] }, /workspace_plans\.default names "starter"/],
      ['a next the section does not define', { default: 'a', plans: [{ plan_name: 'a', extends: 'starter', next: 'gold' }] }, /workspace_plans\.plan "a": next names "gold"/],
      ['no plans', { default: 'a', plans: [] }, /workspace_plans\.plans/],
      ['an unknown key in the section', { default: 'a', plans: [{ plan_name: 'a', extends: 'starter' }], defualt: 'a' }, /defualt/],
    ])('refuses %s, saying where', (_case, section, reason) => {
      expect(() => parseWorkspaceCatalogue({ ...users, workspace_plans: section }, 'plans.json')).toThrow(CatalogueFileError);
      expect(() => parseWorkspaceCatalogue({ ...users, workspace_plans: section }, 'plans.json')).toThrow(reason);
    });
  });

  describe('read from disk', () => {
    let dir: string;
    beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'plans-'))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reads a file and names it in a refusal', () => {
      const good = join(dir, 'good.json');
      writeFileSync(good, JSON.stringify({ default: 'x', plans: [{ plan_name: 'x', extends: 'business' }] }));
      expect(readCatalogueFile(good).plans[0]).toEqual({ ...builtin('business'), plan_name: 'x' });
      const broken = join(dir, 'broken.json');
      writeFileSync(broken, '{ "default": ');
      expect(() => readCatalogueFile(broken)).toThrow(new RegExp(`plan catalogue ${broken}: `));
      expect(() => readCatalogueFile(join(dir, 'missing.json'))).toThrow(CatalogueFileError);
    });

    it('reads the e2e catalogue (roomy by default, tiny and bare as the limit suites need)', () => {
      const catalogue = readCatalogueFile(join(__dirname, '..', '..', '..', '..', '..', 'e2e', 'support', 'plans.e2e.json'));
      expect(catalogue.defaultPlan).toBe('roomy');
      const tiny = catalogue.plans.find((plan) => plan.plan_name === 'tiny')!;
      expect([tiny.max_projects, tiny.max_tasks, tiny.max_sections, tiny.max_collaborators]).toEqual([2, 5, 2, 2]);
      const bare = catalogue.plans.find((plan) => plan.plan_name === 'bare')!;
      const workspaces = readPlansFile(join(__dirname, '..', '..', '..', '..', '..', 'e2e', 'support', 'plans.e2e.json')).workspaces;
      const workspacePlan = (name: string) => workspaces.plans.find((plan) => plan.info.plan_name === name)!;
      expect(workspacePlan(workspaces.defaultPlan).info.max_projects).toBeGreaterThanOrEqual(10_000);
      const teamTiny = workspacePlan('team-tiny');
      expect([teamTiny.plan_type, teamTiny.info.max_projects, teamTiny.info.max_folders_per_workspace, teamTiny.info.max_guests_per_workspace, teamTiny.info.max_workspace_filters]).toEqual(['STARTER', 2, 1, 1, 1]);
      expect(workspacePlan('team-business').plan_type).toBe('BUSINESS');
      expect([bare.filters, bare.labels, bare.reminders, bare.comments, bare.durations, bare.deadlines, bare.completed_tasks]).toEqual([false, false, false, false, false, false, false]);
    });

    it('reads the shipped catalogues: the Kubernetes base restates the built-in one, the bench one is roomy', () => {
      const repo = join(__dirname, '..', '..', '..', '..', '..');
      const k8s = readCatalogueFile(join(repo, 'k8s', 'base', 'plans.json'));
      expect(k8s).toEqual(BUILTIN_CATALOGUE);
      // Its workspace plans are written out too (so an operator sees what to edit), equal to the built-in ones.
      expect((JSON.parse(readFileSync(join(repo, 'k8s', 'base', 'plans.json'), 'utf8')) as Record<string, unknown>)['workspace_plans']).toBeDefined();
      expect(readPlansFile(join(repo, 'k8s', 'base', 'plans.json')).workspaces).toEqual(BUILTIN_WORKSPACE_CATALOGUE);
      const bench = readCatalogueFile(join(repo, 'bench', 'plans.bench.json'));
      expect(bench.plans.find((plan) => plan.plan_name === bench.defaultPlan)?.max_tasks).toBeGreaterThanOrEqual(100_000);
    });
  });
});
