import MarkdownIt from 'markdown-it';

/**
 * A task description's Markdown, as Todoist renders it (CommonMark, a line break where one was
 * typed, bare addresses made links), turned into HTML that cannot run anything:
 * - `html: false`: raw HTML in a description is escaped, never parsed, so `<img onerror=…>` or
 *   `<script>` a collaborator types shows as text in everyone else's page;
 * - links only to http(s), mailto and the app's own relative addresses (markdown-it's own check
 *   already refuses javascript:, vbscript:, file: and most data:; this narrows it to what a
 *   description needs), opened in a new tab with no opener and no referrer;
 * - headings are moved down two levels (below the view's h1 and its parts' h2);
 * - an image is shown as a link to it, not loaded: the app's CSP (`img-src 'self' data: blob:`)
 *   would block another origin's image anyway, and loading one would tell its host who read it.
 * This module is loaded on its own, after the task view (markdown-it is about 40 KiB gzip, more
 * than the rest of the app), so the first load and the view's first paint never wait for it.
 */
const SAFE_LINK = /^(https?:|mailto:|[#/?]|\.{0,2}\/)/i;
// A colon before any '/', '?' or '#' is a scheme, or an attempt at one ("java%09script:"): refused.
const HAS_SCHEME = /^[^/?#]*:/;

const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
markdown.validateLink = (url) => SAFE_LINK.test(url.trim()) || !HAS_SCHEME.test(url.trim());
markdown.renderer.rules.link_open = (tokens, index, options, _env, self) => {
  const token = tokens[index];
  token.attrSet('target', '_blank');
  token.attrSet('rel', 'noopener noreferrer');
  return self.renderToken(tokens, index, options);
};
// The task view's own title is the page's h1 and its parts are h2: a description's "# Plan" is
// drawn as h3 (and so on down to h6), so the headings stay in order for a screen reader.
for (const rule of ['heading_open', 'heading_close'] as const) {
  markdown.renderer.rules[rule] = (tokens, index, options, _env, self) => {
    const token = tokens[index];
    token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 2)}`;
    return self.renderToken(tokens, index, options);
  };
}
markdown.renderer.rules.image = (tokens, index) => {
  const token = tokens[index];
  const source = markdown.utils.escapeHtml(String(token.attrGet('src') ?? ''));
  const text = markdown.utils.escapeHtml(token.content || source);
  return `<a href="${source}" target="_blank" rel="noopener noreferrer">${text}</a>`;
};

/** The description as HTML that is safe to set as a page's inner HTML (see above). */
export function renderMarkdown(text: string): string {
  return markdown.render(text);
}
