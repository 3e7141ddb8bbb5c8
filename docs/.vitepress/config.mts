import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type MarkdownRenderer } from 'vitepress';
import { githubSlug } from '../../tools/docs/github-slug';

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(docsDir, '..');

/**
 * Where a link to a repository file outside docs/ (the README, a library's README, a spec)
 * goes on the site: `DOCS_SOURCE_URL` (say https://github.com/<owner>/doable/blob/main) + the
 * file's path. Unset, the link keeps its relative path (right on GitHub, where the pages are
 * also read) and opens in a new tab. tools/docs/docs-links.spec.ts checks these links exist.
 */
function linksOutOfDocs(md: MarkdownRenderer): void {
  const sourceUrl = process.env['DOCS_SOURCE_URL']?.replace(/\/$/, '');
  md.core.ruler.push('links-out-of-docs', (state) => {
    const page = (state.env as { path?: string }).path;
    if (!page) return;
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        const href = token.type === 'link_open' ? token.attrGet('href') : null;
        if (!href || /^([a-z][a-z0-9+.-]*:|\/|#)/i.test(href)) continue;
        const [path = '', hash] = href.split('#', 2);
        const target = resolve(dirname(page), decodeURIComponent(path));
        if (target.startsWith(`${docsDir}/`)) continue;
        if (sourceUrl) token.attrSet('href', `${sourceUrl}/${relative(repoRoot, target)}${hash ? `#${hash}` : ''}`);
        token.attrSet('target', '_blank');
      }
    }
  });
}

export default defineConfig({
  title: 'Doable',
  description: 'A self-hostable task-management backend that speaks the Todoist wire protocols',
  outDir: '../tmp/docs-site',
  cacheDir: '../tmp/docs-cache',
  srcExclude: ['**/README.md'],
  cleanUrls: false,
  markdown: {
    // GitHub's anchors, so one `page.md#anchor` works on GitHub and here (tools/docs/github-slug.ts);
    // markdown-it-anchor numbers a repeated one itself (`-1`, `-2`), as GitHub does.
    anchor: { slugify: githubSlug },
    config: (md) => linksOutOfDocs(md),
  },
  themeConfig: {
    search: { provider: 'local' },
    outline: [2, 3],
    nav: [
      { text: 'API', link: '/api/generations' },
      { text: 'Operations', link: '/operations/running' },
      { text: 'Architecture', link: '/architecture/' },
      { text: 'Performance', link: '/performance/' },
    ],
    sidebar: [
      {
        text: 'Doable',
        items: [
          { text: 'Overview', link: '/' },
          { text: 'What works today', link: '/features' },
          { text: 'Web app', link: '/web-app' },
        ],
      },
      {
        text: 'API',
        items: [
          { text: 'API generations', link: '/api/generations' },
          { text: 'What a client may send', link: '/api/input-rules' },
          { text: 'Errors', link: '/api/errors' },
          { text: 'Security rules', link: '/api/security' },
          { text: 'Plans and limits', link: '/api/plans-and-limits' },
          { text: 'Roles', link: '/api/roles' },
          { text: 'Collaboration', link: '/api/collaboration' },
          { text: 'Workspaces', link: '/api/workspaces' },
          { text: 'Templates and listings', link: '/api/templates' },
          { text: 'Files and uploads', link: '/api/files' },
          { text: 'Activity log', link: '/api/activity-log' },
          { text: 'Accounts, tokens and OAuth 2.0', link: '/api/accounts' },
          { text: 'Push channel', link: '/api/push-channel' },
          { text: 'Webhooks', link: '/api/webhooks' },
          { text: 'Assistant server (MCP)', link: '/api/mcp' },
          { text: 'OpenAPI', link: '/api/openapi' },
        ],
      },
      {
        text: 'Operations',
        items: [
          { text: 'Running Doable', link: '/operations/running' },
          { text: 'Configuration', link: '/operations/configuration' },
          { text: 'Kubernetes', link: '/operations/kubernetes' },
          { text: 'Observability', link: '/operations/observability' },
          { text: 'Backups, and moving from Todoist', link: '/operations/backups' },
          { text: 'Operator CLI', link: '/operations/cli' },
          { text: 'Upgrading', link: '/operations/upgrades' },
          { text: 'Capacity', link: '/operations/capacity' },
        ],
      },
      {
        text: 'Architecture',
        items: [
          { text: 'In one screen', link: '/architecture/' },
          { text: 'Libraries and their floors', link: '/architecture/floors' },
          { text: 'Libraries, and why each', link: '/architecture/libraries' },
          { text: 'Adding a command', link: '/architecture/adding-a-command' },
          { text: 'Adding a field', link: '/architecture/adding-a-field' },
          { text: 'Adding an API version', link: '/architecture/adding-a-dialect' },
          { text: 'Testing', link: '/testing' },
          { text: 'Writing the docs', link: '/contributing' },
        ],
      },
      {
        text: 'Performance',
        collapsed: true,
        items: [
          { text: 'The bench', link: '/performance/' },
          { text: 'S1: polling', link: '/performance/s1-polling' },
          { text: 'S2: a batch of 100 commands', link: '/performance/s2-batch' },
          { text: 'S3: a full sync', link: '/performance/s3-full-sync' },
          { text: 'S4: an incremental sync', link: '/performance/s4-incremental-sync' },
          { text: 'S5: the filter language', link: '/performance/s5-filter' },
          { text: 'S6: memory over a day', link: '/performance/s6-memory' },
          { text: 'S13: replicas', link: '/performance/s13-scale' },
          { text: "S14: the web app's first load", link: '/performance/s14-web-app' },
          { text: 'Findings in embedded mode', link: '/performance/embedded-findings' },
        ],
      },
    ],
  },
});
