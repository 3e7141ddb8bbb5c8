import fc from 'fast-check';
import { FirstGenerationRefusal } from './first-generation-refusal';
import { firstGenerationReply, JSONP_CALLBACK, jsonpCallback, refusalReply } from './first-generation-reply';

describe('first-generation replies', () => {
  it('answers JSON with nosniff', () => {
    expect(firstGenerationReply(200, ['ok'], undefined)).toEqual({ status: 200, body: '["ok"]', contentType: 'application/json; charset=utf-8', headers: { 'X-Content-Type-Options': 'nosniff' } });
  });

  it('wraps JSONP as callback(...) in JavaScript, with what ends a script line or element escaped', () => {
    const reply = firstGenerationReply(200, { content: '</script>\u2028' }, 'app.cb');
    expect(reply.contentType).toBe('application/javascript; charset=utf-8');
    expect(reply.headers).toEqual({ 'X-Content-Type-Options': 'nosniff' });
    expect(reply.body).toBe('/**/app.cb({"content":"\\u003c/script>\\u2028"});');
  });

  it('answers a refusal as its tag, as a JSON string', () => {
    expect(refusalReply(FirstGenerationRefusal.projectNotFound(), undefined)).toMatchObject({ status: 400, body: '"ERROR_PROJECT_NOT_FOUND"' });
    expect(refusalReply(FirstGenerationRefusal.itemNotFound(), 'cb')).toMatchObject({ status: 400, body: '/**/cb("ERROR_ITEM_NOT_FOUND");' });
  });

  it('takes dotted identifiers as callbacks and refuses everything else', () => {
    for (const good of ['cb', '$', '_x9', 'jQuery1_2', 'a.b.c.d']) expect(jsonpCallback(good)).toBe(good);
    for (const bad of ['', '1a', 'a b', 'a-b', 'a.b.c.d.e', 'a..b', 'alert(1)', 'x;y', `${'a'.repeat(65)}`, 'a.']) {
      expect(() => jsonpCallback(bad)).toThrow(FirstGenerationRefusal);
    }
    expect(jsonpCallback(undefined)).toBeUndefined();
  });

  it('never lets a character that could leave the call through (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (name) => {
        if (JSONP_CALLBACK.test(name)) expect(name).toMatch(/^[A-Za-z0-9_$.]+$/);
      }),
    );
  });
});
