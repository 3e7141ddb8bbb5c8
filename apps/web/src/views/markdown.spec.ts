import { renderMarkdown } from './markdown';

describe('a description as Markdown', () => {
  it('renders what Todoist renders: emphasis, lists, code, headings (two levels down) and a typed line break', () => {
    const html = renderMarkdown('# Plan\n**bold** and _soft_\nnext line\n\n- one\n- two\n\n`code`');
    expect(html).toContain('<h3>Plan</h3>'); // under the view's h1 and its parts' h2
    expect(html).toContain('<strong>bold</strong> and <em>soft</em><br>\nnext line');
    expect(html).toContain('<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
    expect(html).toContain('<code>code</code>');
  });

  it('escapes raw HTML instead of parsing it', () => {
    const html = renderMarkdown('<img src=x onerror="alert(1)"> <script>alert(2)</script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });

  it('makes links open apart, and bare addresses links', () => {
    expect(renderMarkdown('[spec](https://example.com/a)')).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">spec</a>');
    expect(renderMarkdown('see https://example.com/b.')).toContain('<a href="https://example.com/b" target="_blank" rel="noopener noreferrer">https://example.com/b</a>.');
    expect(renderMarkdown('[mail](mailto:a@example.com) [task](/app/task/1)')).toMatch(/href="mailto:a@example.com".*href="\/app\/task\/1"/);
  });

  it('refuses links that could run or reach outside the web', () => {
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'vbscript:x', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'ftp://example.com/x', '<java\tscript:alert(1)>', 'java&#x09;script:alert(1)', '%6Aavascript:alert(1)']) {
      const html = renderMarkdown(`[click](${url})`);
      expect(html).not.toContain('<a ');
      expect(html).toContain('[click](');
    }
  });

  it('shows an image as a link to it, never loads it', () => {
    const html = renderMarkdown('![the plan](https://example.com/p.png)');
    expect(html).not.toContain('<img');
    expect(html).toContain('<a href="https://example.com/p.png" target="_blank" rel="noopener noreferrer">the plan</a>');
  });
});
