import { checkHostOrigin, hostOriginPolicy } from './host-origin-policy';

describe('host and origin policy', () => {
  const defaults = hostOriginPolicy('https://todo.example.com', '', '');

  it('admits the public host and the local names on any port, without an Origin', () => {
    for (const reached of ['https://todo.example.com', 'http://localhost:8080', 'http://127.0.0.1:4321', 'http://[::1]:80']) {
      expect(checkHostOrigin(defaults, reached, undefined)).toEqual({ allowed: true });
    }
  });

  it('refuses a host that is not ours (a rebound name)', () => {
    expect(checkHostOrigin(defaults, 'http://evil.example.net:8080', undefined)).toEqual({ allowed: false, reason: 'Host evil.example.net is not allowed' });
    expect(checkHostOrigin(defaults, undefined, undefined).allowed).toBe(false);
  });

  it('admits the public origin and the origin the request reached, refuses any other', () => {
    expect(checkHostOrigin(defaults, 'http://localhost:8080', 'https://todo.example.com').allowed).toBe(true);
    expect(checkHostOrigin(defaults, 'http://localhost:8080', 'http://localhost:8080').allowed).toBe(true);
    expect(checkHostOrigin(defaults, 'http://localhost:8080', 'http://localhost:9999')).toEqual({ allowed: false, reason: 'Origin http://localhost:9999 is not allowed' });
    expect(checkHostOrigin(defaults, 'http://localhost:8080', 'https://evil.example.net').allowed).toBe(false);
    expect(checkHostOrigin(defaults, 'http://localhost:8080', 'null').allowed).toBe(false);
  });

  it('uses the configured lists instead of the defaults', () => {
    const policy = hostOriginPolicy('https://todo.example.com', 'mcp.example.org, other.example.org:8443', 'https://app.example.org');
    expect(checkHostOrigin(policy, 'https://mcp.example.org', 'https://app.example.org').allowed).toBe(true);
    expect(checkHostOrigin(policy, 'https://other.example.org:8443', undefined).allowed).toBe(true);
    expect(checkHostOrigin(policy, 'http://localhost:8080', undefined).allowed).toBe(false);
    expect(checkHostOrigin(policy, 'https://mcp.example.org', 'https://todo.example.com').allowed).toBe(false);
  });
});
