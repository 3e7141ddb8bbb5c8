import { ROUTES } from '@doable/gateway';
import { handledSubjects } from '@doable/shared-transport';
import { ALL_SERVICES } from './all-services';

/**
 * The principal is checked once, where a subject is handled (`@Handles(subject, { principal })`),
 * never by hand in a controller: every subject the gateway reaches with a bearer route must
 * declare it. A subject that also serves unauthenticated routes is listed here with the reason;
 * its handler answers each route's own credential (a password, a client secret, a signature).
 */
const WITHOUT_PRINCIPAL: Readonly<Record<string, string>> = {
  'auth.edge.v1': 'auth-oauth answers log-in, sign-up, the OAuth exchange and the token pages, each checking its own credential',
  'uploads.file.v1': 'a stored file is authorised by the signature in its URL, so an <img> can show it',
};

describe('the principal is checked at the service edge', () => {
  const handled = handledSubjects();

  it('sees every service\'s handlers (guards against a test that checks nothing)', () => {
    expect(ALL_SERVICES.length).toBeGreaterThanOrEqual(9);
    expect(handled.size).toBeGreaterThan(20);
  });

  it.each([...new Set(ROUTES.filter((route) => route.auth === 'bearer').map((route) => route.subject.name))])('%s (a bearer route) requires a principal where it is handled', (subject) => {
    expect(handled.has(subject)).toBe(true);
    if (subject in WITHOUT_PRINCIPAL) return;
    expect(handled.get(subject)).not.toBeNull();
  });

  it.each([...new Set(ROUTES.filter((route) => route.auth === 'none').map((route) => route.subject.name))])('%s (a route without a token) is a listed exception', (subject) => {
    expect(handled.has(subject)).toBe(true);
    expect(Object.keys(WITHOUT_PRINCIPAL)).toContain(subject);
  });

  it('lists no exception that is not needed', () => {
    for (const subject of Object.keys(WITHOUT_PRINCIPAL)) expect(handled.get(subject)).toBeNull();
  });
});
