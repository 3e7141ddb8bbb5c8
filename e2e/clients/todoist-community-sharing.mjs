// Drives the unmodified community client `todoist@1.1.0` through its sharing helpers
// (`sharing.shareProject`, `acceptInvitation`, `rejectInvitation`, `deleteInvitation`,
// `deleteCollaborator`, `collaborators()`) with three people, each their own client. The client
// names these commands `collaborator_<command>` (its resource type, then the command): the
// server takes those names as the sharing commands. A refused command rejects its promise.
// Prints one JSON line. Env: DOABLE_SYNC_ENDPOINT (e.g. http://host:port/sync/v9),
// DOABLE_TOKEN_A/B/C, DOABLE_EMAIL_B/C.
import { createRequire } from 'node:module';

const { Todoist } = createRequire(import.meta.url)('todoist');
const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const client = (name) => Todoist(env(`DOABLE_TOKEN_${name}`), { endpoint: env('DOABLE_SYNC_ENDPOINT'), resourceTypes: ['all'], autocommit: false });
const [a, b, c] = [client('A'), client('B'), client('C')];
const report = {};

/** Syncs until the person's live notifications hold one matching `test` (20 s at most). */
async function waitFor(todoist, test) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await todoist.sync();
    const found = todoist.state.live_notifications.find(test);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`never saw the notification; saw ${JSON.stringify(todoist.state.live_notifications.map((n) => n.notification_type))}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
const refusal = (promise) => promise.then(() => 'accepted', (error) => String(error.message).split(':')[0]);

await Promise.all([a.sync(), b.sync(), c.sync()]);
const project = await a.projects.add({ name: 'Community shared' });
await a.sharing.shareProject({ project_id: project.id, email: env('DOABLE_EMAIL_B') });
await a.sharing.shareProject({ project_id: project.id, email: env('DOABLE_EMAIL_C') });

const toB = await waitFor(b, (n) => n.notification_type === 'share_invitation_sent' && n.project_name === 'Community shared');
await b.sharing.acceptInvitation({ invitation_id: toB.invitation_id, invitation_secret: toB.invitation_secret });
await b.sync();
report.bJoined = { projects: b.projects.get().filter((p) => p.id === project.id).map((p) => p.name), collaborators: b.sharing.collaborators().length };

const toC = await waitFor(c, (n) => n.notification_type === 'share_invitation_sent' && n.project_name === 'Community shared');
report.cWrongSecret = await refusal(c.sharing.acceptInvitation({ invitation_id: toC.invitation_id, invitation_secret: 'wrong-secret-0123456789abcdef' }));
await c.sharing.rejectInvitation({ invitation_id: toC.invitation_id, invitation_secret: toC.invitation_secret });
await waitFor(a, (n) => n.notification_type === 'share_invitation_rejected');

// A invites C again, then withdraws the invitation before C answers.
await a.sharing.shareProject({ project_id: project.id, email: env('DOABLE_EMAIL_C') });
const second = await waitFor(c, (n) => n.notification_type === 'share_invitation_sent' && n.invitation_id !== toC.invitation_id);
await a.sharing.deleteInvitation({ invitation_id: second.invitation_id });
report.cAfterWithdrawal = await refusal(c.sharing.acceptInvitation({ invitation_id: second.invitation_id, invitation_secret: second.invitation_secret }));

await a.sync();
report.aCollaborators = a.sharing.collaborators().map((collaborator) => collaborator.email).sort();
await a.sharing.deleteCollaborator({ project_id: project.id, email: env('DOABLE_EMAIL_B') });
await waitFor(b, (n) => n.notification_type === 'user_removed_from_project');
report.bAfterRemoval = b.projects.get().some((p) => p.id === project.id);
console.log(JSON.stringify(report));
