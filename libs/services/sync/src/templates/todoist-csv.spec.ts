import { DomainError } from '@doable/shared-errors';
import { parseTodoistCsv, splitLabels, type TemplateTask, type TemplateTree, TODOIST_CSV_COLUMNS, writeTodoistCsv } from './todoist-csv';

const task = (content: string, extra: Partial<TemplateTask> = {}): TemplateTask => ({
  content,
  description: '',
  priority: 1,
  labels: [],
  author: null,
  responsible: null,
  date: null,
  dateLang: null,
  timezone: null,
  duration: null,
  deadline: null,
  deadlineLang: null,
  notes: [],
  children: [],
  ...extra,
});

const refusal = async (text: string, options: { maxRows?: number; maxBytes?: number } = {}): Promise<{ code: string; message: string; extra: Record<string, unknown> }> => {
  try {
    await parseTodoistCsv(text, options);
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, message: err.message, extra: err.extra };
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('Todoist CSV', () => {
  const tree: TemplateTree = {
    meta: { view_style: 'board' },
    notes: [{ content: 'About this project', author: { name: 'Ada', id: '7' } }],
    tasks: [
      task('Plan, "carefully"', {
        description: 'line one\nline two',
        priority: 4,
        labels: ['work', 'deep'],
        author: { name: 'Ada Lovelace', id: '7' },
        responsible: { name: 'Bob', id: '8' },
        date: 'every monday',
        dateLang: 'en',
        duration: { amount: 30, unit: 'minute' },
        deadline: '2026-12-24',
        deadlineLang: 'en',
        notes: [{ content: 'first, comment', author: { name: 'Ada', id: '7' } }],
        children: [task('Sub', { priority: 2, children: [task('Sub sub', { date: '2026-12-01T10:00:00Z', timezone: 'Europe/Paris' })] })],
      }),
    ],
    sections: [
      { name: 'Later', tasks: [task('In a section', { priority: 3 })] },
      { name: 'Empty', tasks: [] },
    ],
  };

  it('writes the header and rows Todoist writes: PRIORITY 1 for p1, INDENT for depth, labels in CONTENT, people as Name (id)', () => {
    const text = writeTodoistCsv(tree);
    const lines = text.split('\n');
    expect(lines[0]).toBe(TODOIST_CSV_COLUMNS.join(','));
    expect(lines[1]).toBe('meta,view_style=board,,,,,,,,,,,,');
    expect(text).toContain('task,"Plan, ""carefully"" @work @deep","line one\nline two",1,1,Ada Lovelace (7),Bob (8),every monday,en,,30,minute,2026-12-24,en');
    expect(text).toContain('task,Sub,,3,2,');
    expect(text).toContain('task,Sub sub,,4,3,,,2026-12-01T10:00:00Z,,Europe/Paris');
    expect(text).toContain('section,Later,');
    expect(text).toContain('task,In a section,,2,1,');
  });

  it('reads back exactly the tree it wrote', async () => {
    expect(await parseTodoistCsv(writeTodoistCsv(tree))).toEqual(tree);
  });

  it('reads the v8-era header (no DESCRIPTION, no duration or deadline), a BOM, CRLF and blank rows', async () => {
    const text = '\uFEFFTYPE,CONTENT,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE\r\n' + 'task,Old one @home,1,1,Ann (1),,tomorrow,en,UTC\r\n\r\n' + 'task,Child,,2,,,,,\r\n' + 'note,A note,,,,,,,\r\n';
    const parsed = await parseTodoistCsv(text);
    expect(parsed.tasks).toEqual([
      task('Old one', { priority: 4, labels: ['home'], author: { name: 'Ann', id: '1' }, date: 'tomorrow', dateLang: 'en', timezone: 'UTC', children: [task('Child', { notes: [{ content: 'A note', author: null }] })] }),
    ]);
  });

  it('accepts columns in any order and case, short rows, and an INDENT deeper than the task above allows', async () => {
    const parsed = await parseTodoistCsv('content,type,indent\nA,task,1\nB,task,4\nC,task\n');
    expect(parsed.tasks.map((t) => [t.content, t.children.map((c) => c.content)])).toEqual([
      ['A', ['B']],
      ['C', []],
    ]);
  });

  it('keeps an @ inside a word (an e-mail address) in the content', () => {
    expect(splitLabels('Write to ada@example.com @errand')).toEqual({ content: 'Write to ada@example.com', labels: ['errand'] });
  });

  it.each([
    ['not CSV (an open quote)', 'TYPE,CONTENT\ntask,"unfinished\n'],
    ['no TYPE column', 'NAME,CONTENT\ntask,x\n'],
    ['an empty file', '\n\n'],
    ['an unknown TYPE', 'TYPE,CONTENT\nfolder,x\n'],
    ['a PRIORITY out of range', 'TYPE,CONTENT,PRIORITY\ntask,x,9\n'],
    ['an INDENT that is not a number', 'TYPE,CONTENT,INDENT\ntask,x,deep\n'],
    ['a task without content', 'TYPE,CONTENT\ntask,@only-a-label\n'],
    ['a bad DURATION', 'TYPE,CONTENT,DURATION\ntask,x,-5\n'],
  ])('refuses %s with INVALID_ARGUMENT_VALUE on argument file', async (_name, text) => {
    const { code, extra } = await refusal(text);
    expect(code).toBe('INVALID_ARGUMENT_VALUE');
    expect(extra['argument']).toBe('file');
  });

  it('names the row of a refused line', async () => {
    expect((await refusal('TYPE,CONTENT,PRIORITY\ntask,ok,1\ntask,bad,0\n')).extra['row']).toBe(3);
  });
});

describe('Todoist CSV bounds', () => {
  it('refuses more rows than the caller allows, blank rows not counted', async () => {
    const text = 'TYPE,CONTENT\n' + 'task,x\n\n'.repeat(3);
    expect((await parseTodoistCsv(text, { maxRows: 3 })).tasks).toHaveLength(3);
    await expect(parseTodoistCsv(text, { maxRows: 2 })).rejects.toThrow(DomainError);
  });

  it('stops at the row past its bound: the rest of a huge file is never parsed', async () => {
    // 100,000 rows, the last one malformed: a parser that read the whole file first would
    // name that row; a streaming one is refused at row 1,001 and never reaches it.
    const text = 'TYPE,CONTENT\n' + 'task,aaaaaaaa\n'.repeat(100_000) + 'task,"unclosed\n';
    const refused = await refusal(text, { maxRows: 1000, maxBytes: 16 * 1024 * 1024 });
    expect(refused).toEqual({ code: 'INVALID_ARGUMENT_VALUE', message: 'Invalid template file: more than 1000 rows', extra: { argument: 'file', max_rows: 1000 } });
  }, 30_000);

  it('lets other work run while it parses a large file (it yields between slices)', async () => {
    const text = 'TYPE,CONTENT\n' + 'task,aaaaaaaa\n'.repeat(4_000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const tree = await parseTodoistCsv(text, { maxRows: 5_000 });
    clearInterval(timer);
    expect(tree.tasks).toHaveLength(4_000);
    // ~56 KB in 4 KB slices: the timer got its turn between slices.
    expect(ticks).toBeGreaterThan(0);
  }, 30_000);

  it('refuses a row longer than a megabyte at its megabyte, not at the file\'s byte bound', async () => {
    const refused = await refusal('TYPE,CONTENT\ntask,' + 'a'.repeat(3 * 1024 * 1024) + '\n', { maxBytes: 100 * 1024 * 1024 });
    expect(refused.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(refused.message).toMatch(/^Invalid template file: Max Record Size/);
  }, 30_000);

  it('refuses more bytes than allowed, counted as written', async () => {
    expect((await refusal('TYPE,CONTENT\n' + 'task,x\n'.repeat(100), { maxBytes: 200 })).message).toBe('Invalid template file: larger than 200 bytes');
  });
});
