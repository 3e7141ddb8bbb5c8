import { attachmentHeader } from './templates.rpc-controller';

describe('template download header', () => {
  it('sends any project name as Latin-1 header text: an ASCII filename and the UTF-8 filename*', () => {
    const header = attachmentHeader('Проект "план".csv');
    expect(header).toBe(`attachment; filename="______ ______.csv"; filename*=UTF-8''${encodeURIComponent('Проект "план".csv')}`);
    expect(/^[\x20-\x7e]*$/.test(header)).toBe(true);
    expect(attachmentHeader('Launch.csv')).toBe(`attachment; filename="Launch.csv"; filename*=UTF-8''Launch.csv`);
  });
});
