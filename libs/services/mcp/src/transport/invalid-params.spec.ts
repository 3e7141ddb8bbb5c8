import { invalidParams } from './mcp-endpoint';

describe('invalidParams: a request whose params its method refuses is -32602 with its id', () => {
  it.each([
    ['arguments a string', { name: 'add-tasks', arguments: 'x' }],
    ['arguments an array', { name: 'add-tasks', arguments: [1] }],
    ['no tool name', { arguments: {} }],
    ['no params', undefined],
  ])('tools/call with %s', (_case, params) => {
    const reply = invalidParams({ jsonrpc: '2.0', id: 3, method: 'tools/call', ...(params === undefined ? {} : { params }) });
    expect(reply?.status).toBe(200);
    expect(JSON.parse(String(reply?.body))).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32602 } });
  });

  it('leaves well-formed requests, notifications, other methods and batches to the SDK', () => {
    expect(invalidParams({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add-tasks', arguments: {} } })).toBeUndefined();
    expect(invalidParams({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(invalidParams({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeUndefined();
    expect(invalidParams([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' }])).toBeUndefined();
    expect(invalidParams('x')).toBeUndefined();
  });
});
