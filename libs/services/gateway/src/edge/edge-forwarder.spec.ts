import { AuthSubjects } from '@doable/contracts-auth';
import type { EdgeRequest } from '@doable/contracts-common';
import { SyncSubjects } from '@doable/contracts-sync';
import type { ServiceClient } from '@doable/shared-transport';
import type { UnchangedPolls } from '../polls/unchanged-polls';
import type { RouteMatch } from '../routes/route-table';
import { EdgeForwarder, type IncomingEdgeCall } from './edge-forwarder';

function forwarderSeeing(): { forwarder: EdgeForwarder; sent: EdgeRequest[]; resendable: boolean[] } {
  const sent: EdgeRequest[] = [];
  const resendable: boolean[] = [];
  const client = {
    request: (_subject: unknown, request: EdgeRequest, options: { resendable?: boolean }) => (sent.push(request), resendable.push(options.resendable === true), Promise.resolve({ status: 200, body: null })),
  };
  // Every request goes on to the service: the remembered answers have their own spec.
  const polls = { answer: (_route: unknown, _request: unknown, forward: () => Promise<unknown>) => forward() };
  return { forwarder: new EdgeForwarder(client as unknown as ServiceClient, polls as unknown as UnchangedPolls), sent, resendable };
}

const call: IncomingEdgeCall = {
  method: 'POST',
  path: '/x',
  query: {},
  body: null,
  principal: null,
  requestId: undefined,
  headers: { cookie: 'doable_session=s', authorization: 'Basic abc', origin: 'http://h', 'x-other': 'no', 'content-type': 'application/json', referer: undefined },
  origin: 'http://h:8080',
};

describe('EdgeForwarder', () => {
  it('forwards cookie, authorization and origin on routes without bearer auth', async () => {
    const { forwarder, sent } = forwarderSeeing();
    const match: RouteMatch = { route: { method: 'POST', path: '/x', subject: AuthSubjects.edge, dialect: 'sync-api-v1', auth: 'none' }, params: {} };
    await forwarder.forward(match, call);
    expect(sent[0].headers).toEqual({ cookie: 'doable_session=s', authorization: 'Basic abc', origin: 'http://h', 'content-type': 'application/json' });
    expect(sent[0].origin).toBe('http://h:8080');
  });

  it('never forwards headers (a raw bearer token) on bearer routes', async () => {
    const { forwarder, sent } = forwarderSeeing();
    const match: RouteMatch = { route: { method: 'POST', path: '/x', subject: SyncSubjects.edge, dialect: 'sync-api-v1', auth: 'bearer' }, params: {} };
    await forwarder.forward(match, { ...call, headers: { authorization: 'Bearer secret-token' } });
    expect(sent[0].headers).toBeUndefined();
    // The origin (the Host the caller used) is no credential: services build absolute URLs from it (file URLs).
    expect(sent[0].origin).toBe('http://h:8080');
  });

  it('drops a forwarded header that is too large', async () => {
    const { forwarder, sent } = forwarderSeeing();
    const match: RouteMatch = { route: { method: 'POST', path: '/x', subject: AuthSubjects.edge, dialect: 'sync-api-v1', auth: 'none' }, params: {} };
    await forwarder.forward(match, { ...call, headers: { cookie: 'x'.repeat(9000), origin: 'http://h' } });
    expect(sent[0].headers).toEqual({ origin: 'http://h' });
  });

  it('resends a GET to another replica, unless the route writes on GET (the first generation)', async () => {
    const { forwarder, resendable } = forwarderSeeing();
    const read: RouteMatch = { route: { method: 'GET', path: '/API/getProjects', subject: SyncSubjects.firstGeneration, dialect: 'first-generation', auth: 'bearer' }, params: {} };
    const write: RouteMatch = { route: { ...read.route, path: '/API/addItem', writesOnGet: true }, params: {} };
    await forwarder.forward(read, { ...call, method: 'GET' });
    await forwarder.forward(write, { ...call, method: 'GET' });
    expect(resendable).toEqual([true, false]);
  });

  it('resends an idempotent write (a revocation) but not another write without X-Request-Id', async () => {
    const { forwarder, resendable } = forwarderSeeing();
    const revoke: RouteMatch = { route: { method: 'POST', path: '/api/v1/revoke', subject: AuthSubjects.edge, dialect: 'sync-api-v1', auth: 'none', idempotent: true }, params: {} };
    const signUp: RouteMatch = { route: { method: 'POST', path: '/auth/signup', subject: AuthSubjects.edge, dialect: 'sync-api-v1', auth: 'none' }, params: {} };
    await forwarder.forward(revoke, call);
    await forwarder.forward(signUp, call);
    expect(resendable).toEqual([true, false]);
  });
});
