import { SyncSubjects } from '@doable/contracts-sync';
import type { Route } from '../routes/route';
import { authorizationFor, bodyWithoutFormToken, queryWithoutTokens, type TokenSource } from './bearer-token';

const v9: Route = { method: 'POST', path: '/sync/v9/sync', subject: SyncSubjects.edge, dialect: 'sync-v9', auth: 'bearer' };
const v8: Route = { method: 'POST', path: '/sync/v8/quick/add', subject: SyncSubjects.quickAdd, dialect: 'sync-v8', auth: 'bearer', formToken: true };
const TOKEN = 'a'.repeat(40);

const firstGeneration: Route = { method: 'GET', path: '/API/getProjects', subject: SyncSubjects.firstGeneration, dialect: 'first-generation', auth: 'bearer', legacyToken: true };

function request(options: { authorization?: string; body?: unknown; form?: boolean; query?: Record<string, unknown> }): TokenSource {
  return {
    headers: options.authorization === undefined ? {} : { authorization: options.authorization },
    body: options.body,
    query: options.query ?? {},
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

describe('the first generation\'s token places', () => {
  it('takes token or api_token from the form, else the query, on its routes only', () => {
    expect(authorizationFor(request({ query: { token: TOKEN } }), firstGeneration)).toBe(`Bearer ${TOKEN}`);
    expect(authorizationFor(request({ query: { api_token: TOKEN } }), firstGeneration)).toBe(`Bearer ${TOKEN}`);
    expect(authorizationFor(request({ body: { api_token: TOKEN }, query: { token: 'other' } }), firstGeneration)).toBe(`Bearer ${TOKEN}`);
    expect(authorizationFor(request({ query: { token: TOKEN } }), v9)).toBeUndefined();
    expect(authorizationFor(request({ query: { token: TOKEN } }), v8)).toBeUndefined();
  });

  it('never reads access_token, nor a token from a JSON body', () => {
    expect(authorizationFor(request({ query: { access_token: TOKEN } }), firstGeneration)).toBeUndefined();
    expect(authorizationFor(request({ body: { token: TOKEN }, form: false }), firstGeneration)).toBeUndefined();
  });

  it('forwards neither the query\'s nor the form\'s token fields, and leaves other routes\' queries alone', () => {
    const withTokens = request({ body: { token: TOKEN, content: 'x' }, query: { api_token: TOKEN, token: TOKEN, project_id: '1' } });
    expect(queryWithoutTokens(withTokens, firstGeneration)).toEqual({ project_id: '1' });
    expect(bodyWithoutFormToken(withTokens, firstGeneration)).toEqual({ content: 'x' });
    expect(queryWithoutTokens(withTokens, v9)).toEqual({ api_token: TOKEN, token: TOKEN, project_id: '1' });
  });
});
