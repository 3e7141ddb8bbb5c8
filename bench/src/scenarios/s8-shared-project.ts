import type { LargeAccountSize } from '@doable/sync-domain/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type BenchAccount, createAccounts, postSync, waitForProfiles } from '../accounts';
import { createLargeAccount } from '../large-accounts';
import { percentile } from '../stats';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

const MEMBERS = 10;
const ROUNDS = 30;
const WARMUP_ROUNDS = 3;
/** As S4: what changed is the same, so the cost must be too, within noise. */
const TARGET_RATIO = 1.3;
/** Each member of the heavy group also holds this much of their own. */
const HEAVY: LargeAccountSize = { projects: 200, sectionsPerProject: 2, tasks: 2_000, notes: 500, labels: 50 };

/**
 * S8: a project shared by 10 members. Each round, one member edits a task of the shared project
 * (not timed), then every member syncs incrementally from their previous token (each timed);
 * each answer must carry exactly that task. Two groups run alternately: in the light one every
 * member has nothing but their Inbox; in the heavy one every member also has 200 projects and
 * 2,000 tasks of their own. The light group is the baseline: the ratio shows whether a member's
 * incremental sync grows with the number of projects they are in (it must not: it costs what
 * changed). Memberships are written in bulk SQL, as accepting an invitation leaves them.
 */
export const s8SharedProject: Scenario = {
  id: 'S8',
  title: 'shared project, 10 members: one write, each member\'s incremental sync (members with 200 projects vs 1)',
  target: `<= ${TARGET_RATIO}x the light group`,
  run: async (context) => [await measure(context)],
};

interface Group {
  readonly name: string;
  readonly members: readonly BenchAccount[];
  readonly taskId: string;
  readonly tokens: string[];
  readonly durations: number[];
  failures: number;
  firstFailure: string;
}

async function measure(context: BenchContext): Promise<ScenarioRow> {
  const { cluster } = await context.cluster();
  const light = await createAccounts(cluster.databaseUrl, `${context.runId}-s8l`, MEMBERS);
  await waitForProfiles(cluster.databaseUrl, light.map((member) => member.userId));
  const seedStarted = Date.now();
  const heavy: BenchAccount[] = [];
  for (let index = 0; index < MEMBERS; index++) heavy.push(await createLargeAccount(cluster.databaseUrl, `${context.runId}-s8h${index}`, HEAVY));
  const seedS = Math.round((Date.now() - seedStarted) / 100) / 10;
  const groups = [await share(cluster.gatewayUrl, cluster.databaseUrl, 'light', light), await share(cluster.gatewayUrl, cluster.databaseUrl, 'heavy', heavy)];
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (const group of groups) await writeAndSync(cluster.gatewayUrl, group, round, round >= WARMUP_ROUNDS);
  }
  const [lightGroup, heavyGroup] = groups as [Group, Group];
  const figures = (group: Group) => ({ 'p50 ms': round1(percentile(group.durations, 50)), 'p99 ms': round1(percentile(group.durations, 99)), failures: group.failures });
  const failures = lightGroup.failures + heavyGroup.failures;
  const ratio = Math.round((percentile(heavyGroup.durations, 50) / percentile(lightGroup.durations, 50)) * 100) / 100;
  return {
    id: 'S8',
    mode: 'cluster',
    what: s8SharedProject.title,
    status: 'measured',
    product: { 'projects per member': HEAVY.projects + 2, ...figures(heavyGroup) },
    baseline: { 'projects per member': 2, ...figures(lightGroup) },
    ratio: { name: 'p50 member incremental sync, heavy / light', value: ratio },
    target: s8SharedProject.target,
    pass: failures === 0 && ratio <= TARGET_RATIO,
    valid: failures === 0,
    notes: [
      `${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up ones, alternating groups: one item_update by a member (not timed), then each of the ${MEMBERS} members' incremental syncs (timed, one at a time); heavy members seeded in bulk SQL in ${seedS} s`,
      ...groups.filter((group) => group.failures > 0).map((group) => `${group.failures} syncs of the ${group.name} group were wrong or failed, so the figures are not valid; first: ${group.firstFailure}`),
    ],
    details: { lightDurationsMs: lightGroup.durations, heavyDurationsMs: heavyGroup.durations, heavySize: HEAVY },
  };
}

/** The first member's project, with one task, shared with the other members; each member's token after it. */
async function share(gatewayUrl: string, databaseUrl: string, name: string, members: readonly BenchAccount[]): Promise<Group> {
  const owner = members[0];
  const made = await postSync(gatewayUrl, owner.token, {
    commands: [
      { type: 'project_add', uuid: randomUUID(), temp_id: 'shared', args: { name: `S8 ${name}` } },
      { type: 'item_add', uuid: randomUUID(), temp_id: 'task', args: { content: 'S8 task', project_id: 'shared' } },
    ],
  });
  const mapping = made.body['temp_id_mapping'] as Record<string, string> | undefined;
  if (made.status !== 200 || !mapping?.['shared'] || !mapping['task']) throw new Error(`S8: could not create the ${name} group's project: ${made.status}`);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `WITH version AS (SELECT nextval('sync.change_version') AS v)
       INSERT INTO sync.project_members (project_id, user_id, role, version) SELECT $1, unnest($2::bigint[]), 'READ_WRITE', v FROM version`,
      [mapping['shared'], members.slice(1).map((member) => member.userId)],
    );
  } finally {
    await client.end();
  }
  const tokens: string[] = [];
  for (const member of members) {
    const answer = await postSync(gatewayUrl, member.token, { sync_token: '*', resource_types: ['user'] });
    const token = answer.body['sync_token'];
    if (answer.status !== 200 || typeof token !== 'string') throw new Error(`S8: no sync token for a ${name} member: ${answer.status}`);
    tokens.push(token);
  }
  return { name, members, taskId: mapping['task'], tokens, durations: [], failures: 0, firstFailure: '' };
}

async function writeAndSync(gatewayUrl: string, group: Group, round: number, measured: boolean): Promise<void> {
  const writer = group.members[round % group.members.length];
  const uuid = randomUUID();
  const write = await postSync(gatewayUrl, writer.token, { commands: [{ type: 'item_update', uuid, args: { id: group.taskId, content: `Edited ${round}` } }] });
  const writeStatus = (write.body['sync_status'] as Record<string, unknown> | undefined)?.[uuid];
  for (const [index, member] of group.members.entries()) {
    const started = process.hrtime.bigint();
    const read = await postSync(gatewayUrl, member.token, { sync_token: group.tokens[index], resource_types: ['all'] });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (typeof read.body['sync_token'] === 'string') group.tokens[index] = read.body['sync_token'];
    if (!measured) continue;
    group.durations.push(ms);
    const items = read.body['items'];
    const seenOnce = Array.isArray(items) && items.length === 1 && String((items[0] as Record<string, unknown>)['id']) === group.taskId;
    if (write.status !== 200 || writeStatus !== 'ok' || read.status !== 200 || !seenOnce) {
      group.failures++;
      group.firstFailure ||= `write ${write.status} ${JSON.stringify(writeStatus)}; read ${read.status} with ${Array.isArray(items) ? items.length : 'no'} items`;
    }
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
