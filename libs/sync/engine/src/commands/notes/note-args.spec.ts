import { fileAttachmentArg } from '@doable/contracts-sync';

describe('file_attachment argument', () => {
  it('keeps the known fields, drops unknown ones and defaults resource_type to file', () => {
    expect(fileAttachmentArg.parse({ file_name: 'a.png', file_size: 10, file_type: 'image/png', file_url: 'https://x.test/a.png', upload_state: 'pending', tn_s: ['https://x.test/s.png', 96, 96], extra: 1 })).toEqual({
      resource_type: 'file',
      file_name: 'a.png',
      file_size: 10,
      file_type: 'image/png',
      file_url: 'https://x.test/a.png',
      upload_state: 'pending',
      tn_s: ['https://x.test/s.png', 96, 96],
    });
  });

  it.each([
    ['no location at all', { file_name: 'a' }],
    ['an unknown upload state', { file_url: 'https://x.test/a', upload_state: 'done' }],
    ['a non-web URL', { file_url: 'file:///etc/passwd' }],
    ['a negative size', { file_url: 'https://x.test/a', file_size: -1 }],
    ['a malformed thumbnail', { file_url: 'https://x.test/a', tn_l: ['https://x.test/l', 'wide', 1] }],
  ])('refuses %s', (_case, input) => {
    expect(fileAttachmentArg.safeParse(input).success).toBe(false);
  });
});
