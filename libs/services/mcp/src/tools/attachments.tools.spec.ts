import { kindOf, storedPath, thumbnailPath } from './attachments.tools';

describe('view-attachment helpers', () => {
  it('shows images assistants take and text, and nothing else', () => {
    expect(['image/png', 'image/jpeg', 'image/gif', 'image/webp'].map(kindOf)).toEqual(['image', 'image', 'image', 'image']);
    expect(['text/plain', 'text/csv', 'application/json', 'application/xml'].map(kindOf)).toEqual(['text', 'text', 'text', 'text']);
    expect(['image/tiff', 'application/pdf', 'application/octet-stream', 'audio/mpeg'].map(kindOf)).toEqual(['none', 'none', 'none', 'none']);
  });

  it('reads only our file URLs (any origin), and finds the large thumbnail beside the original', () => {
    expect(storedPath('https://other.example.com/uploads/files/12/abc/photo%201.png')).toBe('/uploads/files/12/abc/photo%201.png');
    expect(storedPath('https://cdn.example.net/photo.png')).toBeNull();
    expect(storedPath('not a url')).toBeNull();
    expect(thumbnailPath('/uploads/files/12/abc/photo%201.png')).toBe('/uploads/files/12/abc/tn_l/photo%201.png');
  });
});
