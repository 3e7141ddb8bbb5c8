import { judge } from './fuzz-oracle';

/** The fuzz suite's oracle must be able to fail: each kind of broken answer is a defect. */
describe('the fuzz oracle', () => {
  const coded = { error: 'Invalid argument value', error_tag: 'INVALID_ARGUMENT_VALUE', error_code: 20, http_code: 400 };

  it.each([
    ['a 500', 'POST', '/rest/v2/tasks', { status: 500, contentType: 'application/json', body: { ...coded, error_tag: 'INTERNAL_SERVER_ERROR', http_code: 500 } }],
    ['a 503', 'GET', '/api/v1/tasks', { status: 503, contentType: 'application/json', body: null }],
    ['an uncoded 400 (Nest default body)', 'DELETE', '/rest/v1/tasks/1', { status: 400, contentType: 'application/json', body: { message: 'Failed to decode param', statusCode: 400 } }],
    ['a first-generation error string elsewhere', 'GET', '/api/v1/tasks', { status: 400, contentType: 'application/json', body: 'ERROR_PROJECT_NOT_FOUND' }],
    ['an uncoded string on a first-generation route', 'GET', '/API/getProjects', { status: 400, contentType: 'application/json', body: 'something went wrong' }],
    ['a 404 in HTML on an API route', 'GET', '/api/v1/tasks/1', { status: 404, contentType: 'text/html', body: '<html>' }],
    ['a command answering 500', 'POST', '/api/v1/sync', { status: 200, contentType: 'application/json', body: { sync_status: { u: { ...coded, http_code: 500 } } } }],
    ['a command answering neither ok nor a code', 'POST', '/sync/v9/sync', { status: 200, contentType: 'application/json', body: { sync_status: { u: 'maybe' } } }],
    ['a per-id status neither ok nor coded', 'POST', '/api/v1/sync', { status: 200, contentType: 'application/json', body: { sync_status: { u: { '1': 'ok', '2': { error: 'x' } } } } }],
    ['a JSON-RPC-shaped answer elsewhere than /mcp', 'POST', '/rest/v2/tasks', { status: 400, contentType: 'application/json', body: { jsonrpc: '2.0', error: { code: -32000, message: 'x' } } }],
  ])('flags %s', (_, method, path, answer) => {
    expect(judge(method, path, answer).defect).toEqual(expect.any(String));
  });

  it.each([
    ['a coded 400', 'POST', '/rest/v2/tasks', { status: 400, contentType: 'application/json', body: coded }, true],
    ['an OAuth error body', 'POST', '/oauth/access_token', { status: 400, contentType: 'application/json', body: { error: 'bad_authorization_code' } }, true],
    ['a client registration error (RFC 7591)', 'POST', '/oauth/register', { status: 400, contentType: 'application/json', body: { error: 'invalid_redirect_uri', error_description: 'x' } }, true],
    ['the web app session refusing a cross-site call', 'POST', '/auth/app/token', { status: 403, contentType: 'application/json', body: { error: 'cross_origin', error_description: 'x' } }, true],
    ['a JSON-RPC error from the assistant server', 'POST', '/mcp', { status: 406, contentType: 'application/json', body: { jsonrpc: '2.0', error: { code: -32000, message: 'Not Acceptable' }, id: null } }, true],
    ['a page re-rendered with its error', 'POST', '/auth/login', { status: 400, contentType: 'text/html; charset=utf-8', body: '<form>' }, true],
    ['a successful write', 'POST', '/rest/v2/tasks', { status: 200, contentType: 'application/json', body: { id: '1' } }, false],
    ['a first-generation refusal', 'GET', '/API/getProject?project_id=x', { status: 400, contentType: 'application/json', body: 'ERROR_PROJECT_NOT_FOUND' }, true],
    ['a first-generation write over GET', 'GET', '/API/addItem?content=x', { status: 200, contentType: 'application/json', body: { id: 1 } }, false],
    ['a first-generation read over GET', 'GET', '/API/getProjects', { status: 200, contentType: 'application/json', body: [] }, true],
    ['a refused command', 'POST', '/api/v1/sync', { status: 200, contentType: 'application/json', body: { sync_status: { u: coded } } }, true],
  ])('accepts %s', (_, method, path, answer, refused) => {
    expect(judge(method, path, answer)).toEqual({ refused });
  });
});
