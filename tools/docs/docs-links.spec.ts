import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { githubSlug, pageSlugger } from './github-slug';
import { MISS_EXPLANATIONS } from '../../bench/src/misses';
import { brokenBecause, linksOf, markdownFiles } from './markdown-links';

const repoRoot = resolve(__dirname, '..', '..');

/**
 * Every relative link and #anchor in the repository's Markdown (the README, docs/, the bench's
 * and the libraries' pages) resolves, with anchors as GitHub makes them, which the docs site
 * makes too (docs/.vitepress/config.mts). VitePress's build also fails on a link to a missing
 * page, but it runs only in `npm run docs` and checks no anchors; this runs in `npm test`.
 */
describe('Markdown links', () => {
  const files = markdownFiles(repoRoot);

  it('finds the pages it checks', () => {
    const names = files.map((file) => relative(repoRoot, file));
    expect(names).toEqual(expect.arrayContaining(['README.md', 'docs/index.md', 'bench/README.md', 'apps/web/README.md', 'docs/testing.md']));
  });

  it('resolve: every relative link names a file that exists, and every #anchor a heading of it', () => {
    const broken = files.flatMap((file) => linksOf(file).flatMap((link) => {
      const why = brokenBecause(link, repoRoot);
      return why ? [`${relative(repoRoot, link.file)}:${link.line}: ${link.target}: ${why}`] : [];
    }));
    expect(broken).toEqual([]);
  });

  it('hold no bare <word> outside code in docs/: the site reads Markdown as a Vue template, where an unclosed tag fails the build', () => {
    // Inline HTML the pages really use; anything else in angle brackets belongs in backticks.
    const HTML = new Set(['a', 'img', 'br', 'details', 'summary', 'sub', 'sup', 'kbd', 'code', 'pre', 'p', 'div', 'span', 'table', 'tr', 'td', 'th', 'b', 'i', 'em', 'strong']);
    const bare = files
      .filter((file) => relative(repoRoot, file).startsWith('docs/'))
      .flatMap((file) => {
        const prose = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ' ')).replace(/`[^`]*`/g, (code) => code.replace(/[^\n]/g, ' '));
        return [...prose.matchAll(/<\/?([a-z][a-z0-9-]*)[^>]*>/gi)]
          .filter((match) => !HTML.has(match[1].toLowerCase()))
          .map((match) => `${relative(repoRoot, file)}: ${match[0]}`);
      });
    expect(bare).toEqual([]);
  });

  it("resolve where the bench writes them: each miss's profile link, from bench/RESULTS.md", () => {
    const results = join(repoRoot, 'bench', 'RESULTS.md');
    const broken = Object.entries(MISS_EXPLANATIONS).flatMap(([id, explained]) => {
      const why = brokenBecause({ file: results, line: 0, target: explained.profile }, repoRoot);
      return why ? [`${id}: ${explained.profile}: ${why}`] : [];
    });
    expect(broken).toEqual([]);
  });
});

describe('githubSlug', () => {
  it('makes the anchors GitHub makes', () => {
    expect(githubSlug('Libraries, and why each')).toBe('libraries-and-why-each');
    expect(githubSlug('S5: the filter language through REST v2 (ratio 0.19-0.42; target 0.6 since issue #18)')).toBe('s5-the-filter-language-through-rest-v2-ratio-019-042-target-06-since-issue-18');
    expect(githubSlug("S14: the web app's first load")).toBe('s14-the-web-apps-first-load');
    expect(githubSlug('Traces (OpenTelemetry)')).toBe('traces-opentelemetry');
  });

  it('numbers a repeated heading as GitHub does', () => {
    const slug = pageSlugger();
    expect(['Notes', 'Notes', 'Notes-1', 'Notes'].map(slug)).toEqual(['notes', 'notes-1', 'notes-1-1', 'notes-2']);
  });
});
