import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pageSlugger } from './github-slug';

/** One link of a Markdown file: where it is and where it points. */
export interface MarkdownLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** Folders no reader's Markdown lives in (dependencies, build output, the site's cache). */
const SKIPPED = new Set(['node_modules', 'dist', 'tmp', 'data', 'coverage', '.git', '.nx', 'cache']);

/** Every Markdown file under `dir` (recursively), skipping dependencies and build output. */
export function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIPPED.has(name)) return [];
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/**
 * The lines of a Markdown file that are prose: fenced code blocks blanked (a link or a heading
 * inside one is an example, not a link), line numbers kept.
 */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const opening = /^\s*(```+|~~~+)/.exec(line);
    if (fence === undefined && opening) {
      fence = opening[1][0].repeat(opening[1].length);
      return '';
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence)) fence = undefined;
      return '';
    }
    return line;
  });
}

/** `line` with its inline code spans blanked: `[a](b)` inside backticks is not a link. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
}

/** Every inline link, image, reference definition and HTML `<img src>` / `<a href>` of a Markdown file. */
export function linksOf(file: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(readFileSync(file, 'utf8')).forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ file, line: index + 1, target: match[1] });
    for (const match of line.matchAll(/<(?:img|a)\s[^>]*?(?:src|href)="([^"]+)"/g)) links.push({ file, line: index + 1, target: match[1] });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition) links.push({ file, line: index + 1, target: definition[1] });
  });
  return links;
}

/** The anchors a Markdown file offers: its headings' GitHub slugs and any `<a id|name="...">`. */
export function anchorsOf(file: string): Set<string> {
  const slug = pageSlugger();
  const anchors = new Set<string>();
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) anchors.add(slug(headingText(heading[1])));
    for (const named of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(named[1]);
  }
  return anchors;
}

/** A heading's text as a reader sees it: code spans' contents, links' words, no HTML tags. */
function headingText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`+([^`]*)`+/g, '$1');
}

/**
 * Why `link` does not resolve, or undefined when it does. Relative links only: the file or
 * folder must exist and a `#anchor` must be a heading of the Markdown file it names. A link
 * from the site root (`/api/x`) means one thing on GitHub (the repository root) and another on
 * the docs site, so it is refused; external links are not fetched.
 */
export function brokenBecause(link: MarkdownLink, repoRoot: string): string | undefined {
  const { target } = link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined;
  if (target.startsWith('/')) return 'links from the root resolve differently on GitHub and on the site: use a relative path';
  const [pathPart = '', anchor] = target.split('#', 2) as [string, string | undefined];
  const path = pathPart === '' ? link.file : resolve(dirname(link.file), decodeURIComponent(pathPart));
  if (!path.startsWith(repoRoot)) return 'points outside the repository';
  if (!existsSync(path)) return `${relative(repoRoot, path)} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!path.endsWith('.md')) return undefined;
  if (!anchorsOf(path).has(decodeURIComponent(anchor))) return `${relative(repoRoot, path)} has no heading #${anchor}`;
  return undefined;
}
