import { escapeHtml, html, layout, SafeHtml } from './html';

describe('html', () => {
  it('escapes every interpolated string', () => {
    expect(html`<p title="${'"x"'}">${'<script>alert(1)</script>'}&${"it's"}</p>`.value).toBe(
      '<p title="&quot;x&quot;">&lt;script&gt;alert(1)&lt;/script&gt;&it&#39;s</p>',
    );
  });

  it('keeps nested html and joins lists', () => {
    const items = ['a<', 'b'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>`.value).toBe('<ul><li>a&lt;</li><li>b</li></ul>');
  });

  it('renders nothing for null, undefined and false', () => {
    expect(html`[${null}${undefined}${false}]`.value).toBe('[]');
  });

  it('escapes the title of a page', () => {
    const page = layout('<b>', new SafeHtml('<p>ok</p>'));
    expect(page).toContain('<title>&lt;b&gt; · Doable</title>');
    expect(page.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(escapeHtml('&')).toBe('&amp;');
  });
});
