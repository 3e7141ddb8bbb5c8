import { z } from 'zod';
import { eventSubject, requestSubject } from './subject';

const payload = z.object({ userId: z.string() });

describe('requestSubject', () => {
  it.each(['sync.edge.v1', 'auth.token.verify.v2', 'plans.user-limits.v10', 'notifications.live.list.v1', 'a1.b2.v0'])('accepts %s', (name) => {
    const subject = requestSubject<{ userId: string }, { ok: boolean }>(name, payload);
    expect(subject).toEqual({ kind: 'request', name, request: payload });
  });

  it.each([
    ['no version', 'sync.edge'],
    ['a single segment', 'sync'],
    ['only a version', 'v1'],
    ['an owner and a version only', 'sync.v1'],
    ['a version without a number', 'sync.edge.v'],
    ['an upper-case letter', 'Sync.edge.v1'],
    ['an upper-case version', 'sync.edge.V1'],
    ['a version not at the end', 'sync.v1.edge'],
    ['an empty segment', 'sync..edge.v1'],
    ['a leading dot', '.sync.edge.v1'],
    ['a trailing dot', 'sync.edge.v1.'],
    ['a segment starting with a digit', 'sync.1edge.v1'],
    ['a segment starting with a dash', 'sync.-edge.v1'],
    ['an underscore', 'sync.user_status.v1'],
    ['a space', 'sync.edge .v1'],
    ['a wildcard', 'sync.*.v1'],
    ['a dotted version', 'sync.edge.v1.2'],
    ['an empty name', ''],
  ])('rejects a name with %s (%j)', (_label, name) => {
    expect(() => requestSubject(name, payload)).toThrow(`subject "${name}" must be dotted, lower-case and end in .v<N>`);
  });
});

describe('eventSubject', () => {
  it.each(['auth.evt.user-created.v1', 'sync.evt.project.added.v3'])('accepts %s', (name) => {
    expect(eventSubject<{ userId: string }>(name, payload)).toEqual({ kind: 'event', name, payload });
  });

  it.each(['auth.user-created.v1', 'auth.events.user-created.v1', 'auth.evts.user.v1', 'auth.event.user.v1'])('rejects %s without an evt segment', (name) => {
    expect(() => eventSubject(name, payload)).toThrow(`event subject "${name}" must contain an "evt" segment`);
  });

  it.each(['auth.evt', 'Auth.evt.user.v1', 'auth.evt.user_created.v1'])('still applies the name rules to %s', (name) => {
    expect(() => eventSubject(name, payload)).toThrow(`subject "${name}" must be dotted, lower-case and end in .v<N>`);
  });
});
