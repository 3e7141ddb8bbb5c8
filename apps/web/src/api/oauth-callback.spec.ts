import { readCallback } from './oauth-callback';

describe('readCallback', () => {
  const pending = { state: 's-123', verifier: 'v', hash: '#/today' };

  it('is nothing to do on an ordinary load', () => {
    expect(readCallback('', pending)).toEqual({ kind: 'none' });
  });

  it('hands back the code, verifier and view when the state matches', () => {
    expect(readCallback('?code=abc&state=s-123', pending)).toEqual({ kind: 'code', code: 'abc', verifier: 'v', hash: '#/today' });
  });

  it('aborts when the state differs or this tab started no sign-in', () => {
    expect(readCallback('?code=abc&state=other', pending).kind).toBe('error');
    expect(readCallback('?code=abc&state=s-123', null).kind).toBe('error');
  });

  it('reports a refusal from the authorization page', () => {
    expect(readCallback('?error=access_denied&state=s-123', pending)).toEqual({ kind: 'error', message: 'Access was not granted.' });
  });
});
