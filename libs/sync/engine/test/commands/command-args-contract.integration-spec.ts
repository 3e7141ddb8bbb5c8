import { type ShareInvitationSent, type SyncCommandArgs, type SyncCommandType, SyncEvents } from '@doable/contracts-sync';
import type { CommandStatus } from '../../src/command-status';
import { WorkspaceHarness } from '../../testing/workspace.harness';

const ADA = '7801';
const BEN = '7802';
const BEN_EMAIL = 'ben@contract-args.test';

/** The objects the samples name, made before they run. */
interface Made {
  readonly project: string;
  readonly item: string;
  readonly section: string;
  readonly label: string;
  readonly filter: string;
  readonly reminder: string;
  /** An invitation Ada sent an address with no account (the sharer's list names it by id). */
  readonly sent: string;
  /** Two invitations Ben sent Ada (one to accept, one to decline), as the receiver's client has them. */
  readonly invitations: readonly [{ readonly id: string; readonly secret: string }, { readonly id: string; readonly secret: string }];
}

/**
 * One sample of each command's arguments as the contracts type them (SyncCommandArgs, what the
 * web app is typed against): the mapped type makes the compiler ask for every command the
 * contract names, and each sample must be what the contract allows.
 */
const SAMPLES: { readonly [T in SyncCommandType]: (made: Made) => SyncCommandArgs[T] } = {
  item_add: (made) => ({
    content: 'From the contract',
    project_id: made.project,
    description: 'd',
    priority: 2,
    labels: ['errand'],
    due: { string: 'tomorrow at 9' },
    deadline: { date: '2031-01-01' },
    duration: { amount: 15, unit: 'minute' },
  }),
  item_update: (made) => ({ id: made.item, content: 'Renamed', due: null, priority: 3, responsible_uid: null }),
  item_move: (made) => ({ id: made.item, section_id: made.section }),
  item_reorder: (made) => ({ items: [{ id: made.item, child_order: 1 }] }),
  item_complete: (made) => ({ ids: [made.item] }),
  item_uncomplete: (made) => ({ ids: [made.item] }),
  item_close: (made) => ({ id: made.item }),
  note_add: (made) => ({ item_id: made.item, content: 'A note' }),
  project_add: () => ({ name: 'Another', color: 'berry_red', parent_id: null, is_favorite: true }),
  project_update: (made) => ({ id: made.project, name: 'Renamed project', color: 'blue', is_favorite: false, is_collapsed: true }),
  project_archive: (made) => ({ id: made.project }),
  project_unarchive: (made) => ({ id: made.project }),
  project_leave: (made) => ({ project_id: made.project }),
  section_add: (made) => ({ name: 'Later', project_id: made.project, section_order: 2 }),
  section_update: (made) => ({ id: made.section, name: 'Now', is_collapsed: false }),
  section_reorder: (made) => ({ sections: [{ id: made.section, section_order: 1 }] }),
  section_archive: (made) => ({ id: made.section }),
  label_add: () => ({ name: 'home', color: 'red', item_order: 1, is_favorite: true }),
  label_update: (made) => ({ id: made.label, name: 'office', color: 'green' }),
  filter_add: () => ({ name: 'Soon', query: 'today | overdue', color: 'blue', is_favorite: false }),
  filter_update: (made) => ({ id: made.filter, query: 'overdue' }),
  reminder_add: (made) => ({ item_id: made.item, type: 'absolute', due: { date: '2031-01-01T09:00:00' } }),
  user_update: () => ({ full_name: 'Ada L', timezone: 'Europe/Berlin', start_day: 1, time_format: 0, date_format: 1 }),
  share_project: (made) => ({ project_id: made.project, email: BEN_EMAIL }),
  delete_collaborator: (made) => ({ project_id: made.project, email: BEN_EMAIL }),
  delete_invitation: (made) => ({ invitation_id: made.sent }),
  accept_invitation: (made) => ({ invitation_id: made.invitations[0].id, invitation_secret: made.invitations[0].secret }),
  reject_invitation: (made) => ({ invitation_id: made.invitations[1].id, invitation_secret: made.invitations[1].secret }),
  live_notifications_mark_read: () => ({ ids: ['1'] }),
  live_notifications_mark_read_all: () => ({}),
  reminder_delete: (made) => ({ id: made.reminder }),
  label_delete: (made) => ({ id: made.label }),
  section_delete: (made) => ({ id: made.section }),
  item_delete: (made) => ({ ids: [made.item] }),
  project_delete: (made) => ({ id: made.project }),
};

/** A refusal of the arguments themselves (what parseArgs answers), as opposed to one of the data. */
const ARGUMENT_REFUSALS = new Set(['ARGUMENT_MISSING', 'INVALID_ARGUMENT_VALUE']);

function argumentRefusals(status: CommandStatus): string[] {
  if (status === 'ok') return [];
  if (typeof status['error_tag'] === 'string') return ARGUMENT_REFUSALS.has(status['error_tag']) ? [status['error_tag']] : [];
  return Object.values(status).flatMap((inner) => (inner === 'ok' || typeof inner !== 'object' ? [] : argumentRefusals(inner as CommandStatus)));
}

/**
 * The contracts' command argument types (libs/contracts/sync/src/command-args.ts) against the
 * real commands: arguments the contract allows are arguments the command accepts. A sample may be
 * refused for what it names (a secret nobody has, a project its owner cannot leave), never for
 * its shape.
 */
describe('the contracts\' command arguments, run through the real commands (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  let made: Made;

  beforeAll(async () => {
    await harness.start('command_args_contract', { [ADA]: 'ada@contract-args.test', [BEN]: BEN_EMAIL });
    const project = await harness.create(ADA, 'project_add', { name: 'Contract' });
    const item = await harness.create(ADA, 'item_add', { content: 'A task', project_id: project, due: { string: 'tomorrow at 10' } });
    for (const name of ['Ben 1', 'Ben 2']) {
      const shared = await harness.create(BEN, 'project_add', { name });
      expect(await harness.status(BEN, 'share_project', { project_id: shared, email: 'ada@contract-args.test' })).toBe('ok');
    }
    expect(await harness.status(ADA, 'share_project', { project_id: project, email: 'no-account@contract-args.test' })).toBe('ok');
    const [{ id: strangerInvitation }] = await harness.dataSource.query<Array<{ id: string }>>(
      `SELECT id::text FROM sync.project_invitations WHERE invitee_email = 'no-account@contract-args.test'`,
    );
    const sent = await harness.events<ShareInvitationSent>(SyncEvents.shareInvitationSent.name);
    const [first, second] = sent.filter((event) => event.inviteeEmail === 'ada@contract-args.test').map((event) => ({ id: event.invitationId, secret: event.invitationSecret }));
    made = {
      sent: strangerInvitation,
      invitations: [first, second],
      project,
      item,
      section: await harness.create(ADA, 'section_add', { name: 'S', project_id: project }),
      label: await harness.create(ADA, 'label_add', { name: 'errand' }),
      filter: await harness.create(ADA, 'filter_add', { name: 'F', query: 'today' }),
      reminder: await harness.create(ADA, 'reminder_add', { item_id: item, type: 'relative', minute_offset: 30 }),
    };
  });
  afterAll(() => harness.stop());

  it.each(Object.keys(SAMPLES) as SyncCommandType[])('%s takes what the contract allows', async (type) => {
    const status = await harness.status(ADA, type, SAMPLES[type](made));
    expect({ type, refused: argumentRefusals(status), status }).toEqual({ type, refused: [], status });
  });
});
