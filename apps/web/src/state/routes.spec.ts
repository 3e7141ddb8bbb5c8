import { parseRoute, type Route, routeAfterMapping, routeHash, routeOfPath } from './routes';

describe('routes', () => {
  it('reads every view from the hash and writes it back the same', () => {
    const routes: Route[] = [
      { view: 'inbox' },
      { view: 'today' },
      { view: 'upcoming' },
      { view: 'completed' },
      { view: 'archived' },
      { view: 'notifications' },
      { view: 'settings' },
      { view: 'project', id: '6Jf8VQXxpwv56VQ7' },
      { view: 'label', name: 'at home' },
      { view: 'filter', id: '42' },
      { view: 'search', query: 'milk / eggs' },
      { view: 'workspace', id: 'w 1' },
      { view: 'task', id: '6000000001' },
      { view: 'invitation', id: '77' },
      { view: 'invitation', id: '77', answer: 'decline' },
    ];
    for (const route of routes) expect(parseRoute(routeHash(route))).toEqual(route);
  });

  it('opens Today for an empty or unknown hash, and the inbox for a project without id', () => {
    expect(parseRoute('')).toEqual({ view: 'today' });
    expect(parseRoute('#/nonsense')).toEqual({ view: 'today' });
    expect(parseRoute('#/project/')).toEqual({ view: 'inbox' });
    expect(parseRoute('#/label/%E0%A4%A')).toEqual({ view: 'inbox' });
  });

  it('follows a temp id the server mapped to the real one, and only that', () => {
    const mapping = { 'tmp-p': '123' };
    expect(routeAfterMapping({ view: 'project', id: 'tmp-p' }, mapping)).toEqual({ view: 'project', id: '123' });
    expect(routeAfterMapping({ view: 'project', id: '77' }, mapping)).toBeNull();
    expect(routeAfterMapping({ view: 'label', name: 'tmp-p' }, mapping)).toBeNull();
    expect(routeAfterMapping({ view: 'today' }, {})).toBeNull();
  });

  it('reads the mails’ path-form task and invitation links as their views, and no other path', () => {
    expect(routeOfPath('/app/task/6000000001')).toBe('#/task/6000000001');
    expect(routeOfPath('/app/task/6000000001/')).toBe('#/task/6000000001');
    expect(routeOfPath('/app/')).toBeNull();
    expect(routeOfPath('/app/task/')).toBeNull();
    expect(routeOfPath('/app/task/1/2')).toBeNull();
    expect(routeOfPath('/app/invitation/77/decline')).toBe('#/invitation/77/decline');
    expect(routeOfPath('/app/invitation/77/accept/')).toBe('#/invitation/77/accept');
    expect(routeOfPath('/app/invitation/77/delete')).toBeNull();
    expect(routeOfPath('/app/invitation/x/accept')).toBeNull();
  });
});
