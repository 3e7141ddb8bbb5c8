import fc from 'fast-check';
import { DomainError } from '@doable/shared-errors';
import { checkFormBytes, checkUtf8Bytes } from './body-encoding';
import { bodyParserError } from './body-parser-errors';
import { checkFormValues, checkJsonBody, checkJsonBytes, jsonNestsDeeperThan, MAX_BODY_DEPTH } from './body-shape';

function codeOf(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (err) {
    return err instanceof DomainError ? err.code : 'not a DomainError';
  }
}

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects, bytes and strings alike', () => {
    expect(jsonNestsDeeperThan(nested(MAX_BODY_DEPTH), MAX_BODY_DEPTH)).toBe(false);
    expect(jsonNestsDeeperThan(Buffer.from(nested(MAX_BODY_DEPTH + 1)), MAX_BODY_DEPTH)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":{"c":[]}}}', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":{"c":[]}}}', 4)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestsDeeperThan(JSON.stringify({ content: '[[[[[[[[[[\\"[[[[' }), 1)).toBe(false);
  });

  it('agrees with the real depth of any JSON value (property)', () => {
    const depthOf = (value: unknown): number =>
      value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, limit) => {
        expect(jsonNestsDeeperThan(JSON.stringify(value), limit)).toBe(depthOf(value) > limit);
      }),
    );
  });
});

describe('body checks', () => {
  it('refuses a JSON body 5,000 deep as BODY_TOO_DEEP', () => {
    expect(codeOf(() => checkJsonBytes(Buffer.from(nested(5_000, '{"a":', '}'))))).toBe('BODY_TOO_DEEP');
    expect(codeOf(() => checkJsonBytes(Buffer.from(JSON.stringify({ commands: JSON.parse(nested(40)) as unknown }))))).toBe('BODY_TOO_DEEP');
  });

  it('refuses JSON text too deep inside a form field (commands), and leaves ordinary text alone', () => {
    expect(codeOf(() => checkFormValues({ commands: nested(5_000) }))).toBe('BODY_TOO_DEEP');
    expect(codeOf(() => checkFormValues({ ids: [nested(2), nested(40)] }))).toBe('BODY_TOO_DEEP');
    expect(codeOf(() => checkFormValues({ content: `see ${nested(40)}`, commands: '[{"type":"item_add","args":{"due":{"string":"today"}}}]' }))).toBeUndefined();
  });

  it.each([
    ['a string', 'text'],
    ['a number', 3],
    ['an array', [{}]],
    ['a boolean', true],
  ])('refuses %s where an object is expected', (_name, value) => {
    expect(codeOf(() => checkJsonBody(value, Buffer.from(JSON.stringify(value))))).toBe('BODY_NOT_OBJECT');
  });

  it('takes null as no body, and an object as it is', () => {
    expect(codeOf(() => checkJsonBody(null, Buffer.from('null')))).toBeUndefined();
    expect(codeOf(() => checkJsonBody({ a: 1 }, Buffer.from('{"a":1}')))).toBeUndefined();
  });

  it.each(['{"__proto__":{"admin":true}}', '{"a":[{"__proto__":1}]}', '{"\\u005f_proto__":{}}'])('refuses a __proto__ key: %s', (text) => {
    expect(codeOf(() => checkJsonBody(JSON.parse(text) as unknown, Buffer.from(text)))).toBe('BAD_REQUEST');
  });

  it('refuses bytes that are not UTF-8, in a JSON body and in a form value', () => {
    expect(codeOf(() => checkUtf8Bytes(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), 'utf-8'))).toBe('INVALID_UTF8');
    expect(codeOf(() => checkFormBytes(Buffer.from('content=%FF%FE'), 'utf-8'))).toBe('INVALID_UTF8');
    expect(codeOf(() => checkFormBytes(Buffer.from('content=caf%C3%A9+100%'), 'utf-8'))).toBeUndefined();
  });
});

describe('bodyParserError', () => {
  it.each([
    [{ type: 'parameters.too.many', status: 413 }, 'TOO_MANY_PARAMETERS'],
    [{ type: 'entity.too.large', status: 413, limit: 10 }, 'PAYLOAD_TOO_LARGE'],
    [{ type: 'encoding.unsupported', status: 415, encoding: 'x-bogus' }, 'UNSUPPORTED_MEDIA_TYPE'],
    [{ type: 'charset.unsupported', status: 415, charset: 'latin1' }, 'UNSUPPORTED_MEDIA_TYPE'],
    [{ type: 'entity.parse.failed', status: 400 }, 'INVALID_JSON'],
    [{ code: 'Z_DATA_ERROR', status: 400 }, 'INVALID_CONTENT_ENCODING'],
    [{ code: 'ERR__ERROR_FORMAT_PADDING_1', status: 400 }, 'INVALID_CONTENT_ENCODING'],
  ])('maps %j to %s', (failure, code) => {
    expect(bodyParserError(Object.assign(new Error('x'), failure))?.code).toBe(code);
  });

  it('leaves errors that are not the parsers’ alone', () => {
    expect(bodyParserError(new Error('boom'))).toBeUndefined();
    expect(bodyParserError(Object.assign(new Error('x'), { status: 500, expose: false }))).toBeUndefined();
  });
});
