import { COLLABORATOR_ROLES, mayGrantRole, type ProjectRole, WORKSPACE_ROLES } from '@doable/contracts-sync';
import { PolicyWorld } from '../../testing/policy-fixture';
import { registeredPolicies } from './registered-handlers';
import fc from 'fast-check';
import { VISIBLE_PROJECTS } from '@doable/sync-domain';

/**
 * Random sequences of sharing and workspace commands among a handful of users (fast-check),
 * checked after every step against the database and a model of who was given what:
 * - no one holds a project role above what the person who gave it held when they gave it (an
 *   invitation's role is judged by the inviter's role when they sent it; a role change by the
 *   changer's);
 * - who reaches a project (VISIBLE_PROJECTS, the read side's one definition, and ProjectAccess on
 *   the write side) is exactly who was given it and has not left or been removed since: a
 *   workspace guest reaches no workspace project it was not given, a removed or left member
 *   reaches nothing of the project.
 * POLICY_RUNS sequences (default 4, so `npm test` stays quick; `npm run test:fuzz` runs more).
 */
const RUNS = Number(process.env['POLICY_RUNS'] ?? 4);
const STEPS = 10;

type Kind = 'personal' | 'team';
type Action =
  | { readonly do: 'share'; readonly by: number; readonly to: number; readonly kind: Kind; readonly role: ProjectRole }
  | { readonly do: 'change_role'; readonly by: number; readonly target: number; readonly kind: Kind; readonly role: ProjectRole }
  | { readonly do: 'remove'; readonly by: number; readonly target: number; readonly kind: Kind }
  | { readonly do: 'leave'; readonly by: number; readonly kind: Kind }
  | { readonly do: 'workspace_invite'; readonly by: number; readonly to: number; readonly role: (typeof WORKSPACE_ROLES)[number] }
  | { readonly do: 'workspace_role'; readonly by: number; readonly target: number; readonly role: (typeof WORKSPACE_ROLES)[number] }
  | { readonly do: 'workspace_remove'; readonly by: number; readonly target: number }
  | { readonly do: 'workspace_leave'; readonly by: number };

/** User 0 made both projects and the workspace; the others start as nothing to them. */
const USERS = 5;
const user = fc.integer({ min: 0, max: USERS - 1 });
const other = fc.integer({ min: 1, max: USERS - 1 });
const kind = fc.constantFrom<Kind>('personal', 'team');
const projectRole = fc.constantFrom<ProjectRole>(...COLLABORATOR_ROLES);
const workspaceRole = fc.constantFrom(...WORKSPACE_ROLES);
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ do: fc.constant('share' as const), by: user, to: other, kind, role: projectRole }),
  fc.record({ do: fc.constant('share' as const), by: user, to: other, kind, role: projectRole }),
  fc.record({ do: fc.constant('change_role' as const), by: user, target: other, kind, role: projectRole }),
  fc.record({ do: fc.constant('remove' as const), by: user, target: other, kind }),
  fc.record({ do: fc.constant('leave' as const), by: other, kind }),
  fc.record({ do: fc.constant('workspace_invite' as const), by: user, to: other, role: workspaceRole }),
  fc.record({ do: fc.constant('workspace_role' as const), by: user, target: other, role: workspaceRole }),
  fc.record({ do: fc.constant('workspace_remove' as const), by: user, target: other }),
  fc.record({ do: fc.constant('workspace_leave' as const), by: other }),
);

/** Who was given each project, with the role given and the giver's role when they gave it. */
type Given = Map<string, { readonly role: ProjectRole; readonly giverRole: ProjectRole }>;

describe('random sequences of sharing and workspace commands keep the access invariants (real PostgreSQL, fast-check)', () => {
  const policies = registeredPolicies();
  const world = new PolicyWorld(policies, 9400);
  const ids = world.reserve(USERS);
  let steps = 0;

  beforeAll(() => world.start('access_policy_sequences'));
  afterAll(async () => {
    // eslint-disable-next-line no-console -- the size of the generated run, for whoever reads the log
    console.log(`sharing sequences: ${RUNS} runs, ${steps} steps checked`);
    await world.harness.stop();
  });

  /** Runs one action for real and keeps the model in step with what succeeded; fails when a grant broke the rule. */
  async function apply(step: Action, projects: Record<Kind, string>, workspace: string, given: Record<Kind, Given>): Promise<void> {
    const h = world.harness;
    switch (step.do) {
      case 'share': {
        const projectId = projects[step.kind];
        const giver = await world.effectiveRole(ids[step.by], projectId);
        const { invitation } = await world.share(ids[step.by], projectId, world.email(ids[step.to]), step.role);
        if (!invitation) return;
        // The invitation is judged when it is sent: the sharer's role then.
        expect(giver !== undefined && mayGrantRole(giver.role, step.role)).toBe(true);
        if ((await h.status(ids[step.to], 'accept_invitation', invitation)) === 'ok' && !given[step.kind].has(ids[step.to])) {
          given[step.kind].set(ids[step.to], { role: step.role, giverRole: giver!.role });
        }
        return;
      }
      case 'change_role': {
        const projectId = projects[step.kind];
        const giver = await world.effectiveRole(ids[step.by], projectId);
        if ((await h.status(ids[step.by], 'project_change_role', { id: projectId, user_id: ids[step.target], role: step.role })) !== 'ok') return;
        expect(giver !== undefined && mayGrantRole(giver.role, step.role)).toBe(true);
        given[step.kind].set(ids[step.target], { role: step.role, giverRole: giver!.role });
        return;
      }
      case 'remove':
        if ((await h.status(ids[step.by], 'delete_collaborator', { project_id: projects[step.kind], email: world.email(ids[step.target]) })) === 'ok') given[step.kind].delete(ids[step.target]);
        return;
      case 'leave':
        if ((await h.status(ids[step.by], 'project_leave', { project_id: projects[step.kind] })) === 'ok') given[step.kind].delete(ids[step.by]);
        return;
      case 'workspace_invite': {
        const status = await h.status(ids[step.by], 'workspace_invite', { workspace_id: workspace, email: world.email(ids[step.to]), role: step.role });
        if (status !== 'ok') return;
        const sent = (await h.events<{ invitationId: string; invitationSecret: string }>('sync.evt.workspace-invitation-sent.v1')).at(-1)!;
        await h.status(ids[step.to], 'biz_accept_invitation', { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret });
        return;
      }
      case 'workspace_role':
        await h.status(ids[step.by], 'workspace_update_user', { workspace_id: workspace, user_id: ids[step.target], role: step.role });
        return;
      case 'workspace_remove':
        // Leaving or being removed ends the person's memberships of the workspace's projects.
        if ((await h.status(ids[step.by], 'workspace_delete_user', { workspace_id: workspace, user_id: ids[step.target] })) === 'ok') given.team.delete(ids[step.target]);
        return;
      case 'workspace_leave':
        if ((await h.status(ids[step.by], 'workspace_leave', { id: workspace })) === 'ok') given.team.delete(ids[step.by]);
        return;
    }
  }

  /** The invariants, read from the database after a step. */
  async function check(projects: Record<Kind, string>, given: Record<Kind, Given>): Promise<void> {
    for (const k of ['personal', 'team'] as const) {
      const rows = await world.harness.dataSource.query<Array<{ user_id: string; role: ProjectRole }>>(
        `SELECT user_id::text, role FROM sync.project_members WHERE project_id = $1 AND state = 'active' AND role <> 'CREATOR'`,
        [projects[k]],
      );
      // Every member holds the role last given to them, and the giver could give it.
      for (const row of rows) {
        const grant = given[k].get(row.user_id);
        expect({ project: k, user: row.user_id, role: row.role, grant }).toEqual({ project: k, user: row.user_id, role: grant?.role, grant: expect.anything() });
        expect(mayGrantRole(grant!.giverRole, row.role)).toBe(true);
      }
      // Who reaches the project is who was given it (the CREATOR, user 0, always).
      for (const userId of ids.slice(1)) {
        const visible = (await world.harness.dataSource.query<Array<{ id: string }>>(`SELECT project_id::text AS id FROM (${VISIBLE_PROJECTS}) visible`, [userId])).map((row) => row.id);
        const reaches = visible.includes(projects[k]);
        expect({ project: k, user: userId, reaches }).toEqual({ project: k, user: userId, reaches: given[k].has(userId) });
        if (!reaches) expect(await world.projectDecision(userId, 'note_add', projects[k])).toBe('PROJECT_NOT_FOUND');
      }
    }
  }

  it('never gives a role above the giver’s, and no one reaches a project they were not given or have left', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: STEPS }), async (actions) => {
        run++;
        const [creator] = ids;
        const projects = {
          personal: await world.harness.create(creator, 'project_add', { name: `Personal ${run}` }),
          team: '',
        };
        const workspace = await world.workspace(creator, `Team ${run}`);
        projects.team = await world.harness.create(creator, 'project_add', { name: `Team project ${run}`, workspace_id: workspace });
        const given: Record<Kind, Given> = { personal: new Map(), team: new Map() };
        for (const step of actions) {
          await apply(step, projects, workspace, given);
          await check(projects, given);
          steps++;
        }
      }),
      { numRuns: RUNS, ...(process.env['FUZZ_SEED'] ? { seed: Number(process.env['FUZZ_SEED']) } : {}) },
    );
  });
});
