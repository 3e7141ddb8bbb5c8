import { deflateRawSync } from 'node:zlib';
import { packRequest, unpackRequest } from './request-packing';

describe('request packing', () => {
  it('sends small requests as they are', () => {
    const payload = { a: 1, text: 'short' };
    expect(packRequest(payload, 100)).toBe(payload);
    expect(unpackRequest(payload)).toBe(payload);
  });

  it('deflates large requests and gets them back exactly', () => {
    const payload = { body: { commands: Array.from({ length: 2_000 }, (_, index) => ({ type: 'item_add', uuid: `u-${index}`, args: { content: `task ${index} ✓` } })) } };
    const packed = packRequest(payload, 1_000);
    expect(packed).toMatchObject({ mark: 'doable.packed.v1' });
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(payload).length / 4);
    expect(unpackRequest(packed)).toEqual(payload);
  });

  it('refuses a packed request that inflates past its bound', () => {
    const bomb = { mark: 'doable.packed.v1', deflated: deflateRawSync(Buffer.alloc(17 * 1024 * 1024, 32)).toString('base64') };
    expect(() => unpackRequest(bomb)).toThrow(expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE' }));
  });

  it('refuses a packed request that is not deflate data', () => {
    expect(() => unpackRequest({ mark: 'doable.packed.v1', deflated: 'not deflate' })).toThrow(expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE' }));
  });
});
