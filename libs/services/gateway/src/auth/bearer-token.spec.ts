import { SyncSubjects } from '@doable/contracts-sync';
import type { Route } from '../routes/route';
import { authorizationFor, bodyWithoutFormToken, type TokenSource } from './bearer-token';

const v9: Route = { method: 'POST', path: '/sync/v9/sync', subject: SyncSubjects.edge, dialect: 'sync-v9', auth: 'bearer' };
const v8: Route = { method: 'POST', path: '/sync/v8/quick/add', subject: SyncSubjects.quickAdd, dialect: 'sync-v8', auth: 'bearer', formToken: true };
const TOKEN = 'a'.repeat(40);

function request(options: { authorization?: string; body?: unknown; form?: boolean }): TokenSource {
  return {
    headers: options.authorization === undefined ? {} : { authorization: options.authorization },
    body: options.body,
    is: (type) => (options.form !== false && type === 'application/x-www-form-urlencoded' ? type : false),
  };
}

describe('authorizationFor', () => {
  it('passes the Authorization header on, on every route', () => {
    expect(authorizationFor(request({ authorization: `Bearer ${TOKEN}` }), v9)).toBe(`Bearer ${TOKEN}`);
    expect(authorizationFor(request({ authorization: `Bearer ${TOKEN}`, body: { token: 'other' } }), v8)).toBe(`Bearer ${TOKEN}`);
  });

  it('takes the token form field only on a route that accepts it', () => {
    expect(authorizationFor(request({ body: { token: TOKEN } }), v8)).toBe(`Bearer ${TOKEN}`);
    expect(authorizationFor(request({ body: { token: TOKEN } }), v9)).toBeUndefined();
  });

  it('never reads access_token (body or query), nor a token from a JSON body', () => {
    expect(authorizationFor(request({ body: { access_token: TOKEN } }), v8)).toBeUndefined();
    expect(authorizationFor(request({ body: { token: TOKEN }, form: false }), v8)).toBeUndefined();
  });
});

describe('bodyWithoutFormToken', () => {
  it('drops the token field the edge used as the credential, and only that', () => {
    expect(bodyWithoutFormToken(request({ body: { token: TOKEN, text: 'Buy milk' } }), v8)).toEqual({ text: 'Buy milk' });
    expect(bodyWithoutFormToken(request({ body: { token: TOKEN, text: 'x' } }), v9)).toEqual({ token: TOKEN, text: 'x' });
    expect(bodyWithoutFormToken(request({ authorization: `Bearer ${TOKEN}`, body: { token: 'x' } }), v8)).toEqual({ token: 'x' });
  });
});
