import type { EdgeReply, RequestSubject } from '@doable/contracts-common';
import { type MailedInvitationReply, type MailedInvitationRequest, type MailedWorkspaceInvitationReply, SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import type { ServiceClient } from '@doable/shared-transport';
import { pageRequest, TEST_CSRF } from '../../testing/auth-edge.fixture';
import { WebExchange } from '../exchange/web-exchange';
import { AccountPages } from '../web/account-pages';
import { InvitationDeclinePages } from './invitation-decline.pages';

const PATH = '/auth/invitation/decline';
const PAIR = { invitation_id: '7700000001', invitation_secret: 'the-mailed-secret-0123456789' };
const FACTS = { inviterName: 'Ann <b>', inviterEmail: 'ann@example.test', projectName: 'Garden & <script>' };
const WORKSPACE_FACTS = { inviterName: 'Ann <b>', inviterEmail: 'ann@example.test', workspaceName: 'Acme & <team>' };
const WORKSPACE_LINK = { ...PAIR, invitation_kind: 'workspace' };

/**
 * Sync as the page sees it: records each request by subject and answers what the test set. The
 * decline itself (sync's) has its integration spec; the whole way, mail to page to decline,
 * is e2e/mail.e2e-spec.ts. Here: which request a page makes, and what it shows for each answer.
 */
function syncAnswering(answer: MailedInvitationReply | MailedWorkspaceInvitationReply | DomainError) {
  const asked: Array<{ subject: string; payload: MailedInvitationRequest }> = [];
  const services = {
    request: (subject: RequestSubject<MailedInvitationRequest, unknown>, payload: MailedInvitationRequest) => {
      asked.push({ subject: subject.name, payload });
      return answer instanceof DomainError ? Promise.reject(answer) : Promise.resolve(answer);
    },
  } as unknown as ServiceClient;
  // The refusals of a form without its CSRF token are AccountPages'; nothing else of it is used.
  const pages = new InvitationDeclinePages(services, new AccountPages(...(Array.from({ length: 8 }, () => ({})) as ConstructorParameters<typeof AccountPages>)));
  return { pages, asked };
}

const get = (query: Record<string, string>) => new WebExchange(pageRequest('GET', PATH, { query }));
const post = (body: Record<string, string>) => new WebExchange(pageRequest('POST', PATH, { body }));
const text = (reply: EdgeReply) => String(reply.body);

describe('the decline page of an invitation mailed to an address without an account', () => {
  it('asks on a GET, and only looks: the button posts the pair back with the CSRF token; names are escaped', async () => {
    const { pages, asked } = syncAnswering({ outcome: 'open', invitation: FACTS });
    const reply = await pages.declineForm(get(PAIR));
    expect(reply.status).toBe(200);
    expect(asked).toEqual([{ subject: SyncSubjects.mailedInvitation.name, payload: { invitationId: PAIR.invitation_id, invitationSecret: PAIR.invitation_secret } }]);
    const page = text(reply);
    expect(page).toContain('Ann &lt;b&gt;');
    expect(page).toContain('Garden &amp; &lt;script&gt;');
    expect(page).not.toContain('<script>');
    expect(page).toContain(`<form method="post" action="${PATH}">`);
    expect(page).toContain(`<input type="hidden" name="invitation_secret" value="${PAIR.invitation_secret}">`);
    expect(page).toContain('<input type="hidden" name="csrf"');
    expect(page).toContain('<button type="submit">Decline the invitation</button>');
  });

  it('answers a link without a well-formed pair as any invalid link, without asking sync', async () => {
    const { pages, asked } = syncAnswering({ outcome: 'open', invitation: FACTS });
    for (const query of [{}, { invitation_id: 'x1', invitation_secret: PAIR.invitation_secret }, { invitation_id: PAIR.invitation_id, invitation_secret: 'short' }] as Array<Record<string, string>>) {
      const reply = await pages.declineForm(get(query));
      expect(reply.status).toBe(404);
      expect(text(reply)).toContain('data-error-tag="INVITATION_LINK_INVALID"');
    }
    expect(asked).toEqual([]);
  });

  it('refuses a post without the page\'s CSRF token, without asking sync', async () => {
    const { pages, asked } = syncAnswering({ outcome: 'declined', invitation: FACTS });
    expect((await pages.decline(post(PAIR))).status).toBe(403);
    expect((await pages.decline(post({ ...PAIR, csrf: 'd'.repeat(32) }))).status).toBe(403);
    expect(asked).toEqual([]);
  });

  it('declines on the button, through sync\'s decline', async () => {
    const { pages, asked } = syncAnswering({ outcome: 'declined', invitation: FACTS });
    const reply = await pages.decline(post({ ...PAIR, csrf: TEST_CSRF }));
    expect(reply.status).toBe(200);
    expect(asked.map((request) => request.subject)).toEqual([SyncSubjects.declineMailedInvitation.name]);
    expect(text(reply)).toContain('data-testid="invitation-declined"');
    expect(text(reply)).toContain('Ann &lt;b&gt; is told.');
  });

  it.each([
    ['already_declined', 200, 'data-testid="invitation-already-declined"'],
    ['withdrawn', 410, 'data-error-tag="INVITATION_WITHDRAWN"'],
    ['accepted', 409, 'data-error-tag="INVITATION_ACCEPTED"'],
    ['invalid', 404, 'data-error-tag="INVITATION_LINK_INVALID"'],
  ] as const)('shows %s with %d, on the link and on the button', async (outcome, status, marker) => {
    const { pages } = syncAnswering({ outcome, ...(outcome === 'invalid' ? {} : { invitation: FACTS }) });
    for (const reply of [await pages.declineForm(get(PAIR)), await pages.decline(post({ ...PAIR, csrf: TEST_CSRF }))]) {
      expect(reply.status).toBe(status);
      expect(text(reply)).toContain(marker);
      expect(text(reply)).not.toContain('<form');
    }
  });

  it("asks about a workspace's invitation when the link says so (its ids are numbered apart), and posts the kind back", async () => {
    const { pages, asked } = syncAnswering({ outcome: 'open', invitation: WORKSPACE_FACTS });
    const reply = await pages.declineForm(get(WORKSPACE_LINK));
    expect(reply.status).toBe(200);
    expect(asked).toEqual([{ subject: SyncSubjects.mailedWorkspaceInvitation.name, payload: { invitationId: PAIR.invitation_id, invitationSecret: PAIR.invitation_secret } }]);
    const page = text(reply);
    expect(page).toContain('invited you to join the team workspace <strong data-testid="invitation-workspace">Acme &amp; &lt;team&gt;</strong>');
    expect(page).toContain('follow the mail\'s "Join the workspace" link');
    expect(page).toContain('<input type="hidden" name="invitation_kind" value="workspace">');
    expect(page).not.toContain('project');
  });

  it("declines a workspace's invitation through sync's workspace decline, and shows each refusal as for a project's", async () => {
    const { pages, asked } = syncAnswering({ outcome: 'declined', invitation: WORKSPACE_FACTS });
    const reply = await pages.decline(post({ ...WORKSPACE_LINK, csrf: TEST_CSRF }));
    expect(reply.status).toBe(200);
    expect(asked.map((request) => request.subject)).toEqual([SyncSubjects.declineMailedWorkspaceInvitation.name]);
    expect(text(reply)).toContain('You declined the invitation to <strong>Acme &amp; &lt;team&gt;</strong>. Ann &lt;b&gt; is told.');
    for (const [outcome, status, tag] of [['withdrawn', 410, 'INVITATION_WITHDRAWN'], ['accepted', 409, 'INVITATION_ACCEPTED'], ['invalid', 404, 'INVITATION_LINK_INVALID']] as const) {
      const refused = syncAnswering({ outcome });
      for (const answer of [await refused.pages.declineForm(get(WORKSPACE_LINK)), await refused.pages.decline(post({ ...WORKSPACE_LINK, csrf: TEST_CSRF }))]) {
        expect([outcome, answer.status]).toEqual([outcome, status]);
        expect(text(answer)).toContain(`data-error-tag="${tag}"`);
      }
    }
  });

  it('answers a link of an unknown kind as any invalid link, without asking sync', async () => {
    const { pages, asked } = syncAnswering({ outcome: 'open', invitation: WORKSPACE_FACTS });
    expect((await pages.declineForm(get({ ...PAIR, invitation_kind: 'team' }))).status).toBe(404);
    expect((await pages.decline(post({ ...PAIR, invitation_kind: 'team', csrf: TEST_CSRF }))).status).toBe(404);
    expect(asked).toEqual([]);
  });

  it('says nothing of the invitation to a wrong secret: the page names no one and no project', async () => {
    const { pages } = syncAnswering({ outcome: 'invalid' });
    const page = text(await pages.declineForm(get(PAIR)));
    expect(page).toContain('This invitation link is not valid.');
    expect(page).not.toContain('Ann');
    expect(page).not.toContain('Garden');
  });

  it('answers 503 with a page while sync cannot answer, and lets any other failure through', async () => {
    const down = syncAnswering(new DomainError('SERVICE_UNAVAILABLE'));
    const reply = await down.pages.decline(post({ ...PAIR, csrf: TEST_CSRF }));
    expect(reply.status).toBe(503);
    expect(text(reply)).toContain('data-error-tag="SERVICE_UNAVAILABLE"');
    const broken = syncAnswering(new DomainError('INTERNAL'));
    await expect(broken.pages.declineForm(get(PAIR))).rejects.toMatchObject({ code: 'INTERNAL' });
  });
});
