import { sourceFiles } from '@doable/shared-testing';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * Who may do or read what is decided in two places: the command policy (command-policy.ts with
 * the role model in project-roles.ts and workspace-roles.ts, and the tables derived in
 * role-tables.ts) and the read policy (read-policy.ts), all in libs/contracts/sync; the one scope
 * check is holdsAnyScope (contracts-common principal.ts). Everywhere else asks them. This spec
 * reads every production file for the shapes a decision made by hand takes: a role name compared
 * (in TypeScript or SQL), a list of role names, a switch over them, a token's scopes searched, a
 * refusal naming scopes it wrote out itself. A role name that is only written (a row inserted
 * with its CREATOR, a wire enum) is no decision and is not looked for.
 */
const repoRoot = resolve(__dirname, '../../../../..');

const ROLE = `(?:${['CREATOR', 'ADMIN', 'READ_WRITE', 'EDIT_ONLY', 'COMPLETE_ONLY', 'READ_ONLY', 'MEMBER', 'GUEST'].join('|')})`;
const SCOPE = `(?:task:add|data:read|data:read_write|data:delete|project:delete|backups:read)`;

/** The shapes of a decision made by hand, each with what it is. */
const DECISIONS: ReadonlyArray<readonly [what: string, pattern: RegExp]> = [
  ['a role compared', new RegExp(`(?:===|!==|==|!=)\\s*'${ROLE}'|'${ROLE}'\\s*(?:===|!==|==|!=)`)],
  ['a switch over roles', new RegExp(`case\\s+'${ROLE}'\\s*:`)],
  ['a role compared in SQL', new RegExp(`\\brole\\s*(?:=|<>|!=)\\s*'${ROLE}'|\\brole\\s+(?:NOT\\s+)?IN\\s*\\(\\s*'`, 'i')],
  ['a list of roles', new RegExp(`\\[\\s*'${ROLE}'(?:\\s*,\\s*'${ROLE}')*\\s*\\]`)],
  ['scopes searched', /\bscopes\s*\.\s*(?:includes|some|every|has|indexOf)\s*\(/],
  ['a scope looked for', new RegExp(`\\.includes\\(\\s*'${SCOPE}'`)],
  ['a refusal naming scopes by hand', new RegExp(`required_scopes:\\s*\\[\\s*'${SCOPE}'`)],
];

/** The two policies and the scope check: where decisions belong. */
const POLICY_MODULES = new Set([
  'libs/contracts/sync/src/command-policy.ts',
  'libs/contracts/sync/src/project-roles.ts',
  'libs/contracts/sync/src/workspace-roles.ts',
  'libs/contracts/sync/src/role-tables.ts',
  'libs/contracts/sync/src/read-policy.ts',
  'libs/contracts/common/src/principal.ts',
]);

/**
 * What may stay, each with why it is no decision of who may do or see what. A file's entry
 * names the text it allows; an entry that no longer matches fails the spec (so the list shrinks).
 */
const ALLOWED: ReadonlyArray<{ readonly file: string; readonly text: string; readonly why: string }> = [
  {
    file: 'libs/sync/domain/src/workspaces/workspace.model.ts',
    text: "role = 'ADMIN')",
    why: "the wire's admin_count / member_count / guest_count: how many members hold each role, counted, not a decision",
  },
  { file: 'libs/sync/domain/src/workspaces/workspace.model.ts', text: "role = 'MEMBER')", why: 'as above (member_count)' },
  { file: 'libs/sync/domain/src/workspaces/workspace.model.ts', text: "role = 'GUEST')", why: 'as above (guest_count)' },
  {
    file: 'libs/sync/domain/src/projects/project-invitations.repository.ts',
    text: "role = 'GUEST'",
    why: "counts the guest seats max_guests_per_workspace limits (the plan's quantity; who takes a seat is takesGuestSeat)",
  },
  {
    file: 'libs/sync/domain/src/workspaces/workspace-invitations.repository.ts',
    text: "role = 'GUEST'",
    why: 'counts open guest invitations for the same quantity',
  },
];

function decisionsIn(file: string): string[] {
  const found: string[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      const code = line.trim();
      // Comments explain the rules in words; only code decides.
      if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return;
      for (const [what, pattern] of DECISIONS) {
        const match = pattern.exec(line);
        if (match) found.push(`${relative(repoRoot, file)}:${index + 1}: ${what}: ${line.trim()}`);
      }
    });
  return found;
}

/** Production code: apps' and libraries' sources, without specs, test kits, harnesses, fixtures or migrations (which set up roles to test them), nor the web app (a client: it shows what the server decided). */
function productionFiles(): string[] {
  return ['apps', 'libs'].flatMap((top) =>
    sourceFiles(join(repoRoot, top)).filter((file) => {
      const path = relative(repoRoot, file);
      return !/\/(testing|migrations)\/|[.-](harness|fixture)\.ts$|^apps\/web\//.test(path) && !POLICY_MODULES.has(path);
    }),
  );
}

describe('access decisions live in the two policies', () => {
  const found = productionFiles().flatMap(decisionsIn);
  const allowed = (hit: string) => ALLOWED.some(({ file, text }) => hit.startsWith(`${file}:`) && hit.includes(text));

  it('finds no role or scope decision outside the command and read policies', () => {
    expect(found.filter((hit) => !allowed(hit))).toEqual([]);
  });

  it('allows nothing that is no longer there', () => {
    expect(ALLOWED.filter(({ file, text }) => !found.some((hit) => hit.startsWith(`${file}:`) && hit.includes(text))).map(({ file, text }) => `${file}: ${text}`)).toEqual([]);
  });

  it('recognises each shape of a decision made by hand', () => {
    const samples = [
      "if (role === 'ADMIN') {",
      "case 'GUEST':",
      "WHERE m.role = 'ADMIN'",
      "memberIds(manager, id, ['ADMIN', 'MEMBER'])",
      "principal.scopes.includes('data:read')",
      "{ required_scopes: ['data:read_write'] }",
    ];
    expect(samples.filter((sample) => !DECISIONS.some(([, pattern]) => pattern.test(sample)))).toEqual([]);
    expect(["role: 'MEMBER',", "VALUES ($1, $2, 'CREATOR', $3)", "// only an 'ADMIN' === sender"].filter((sample) => !sample.startsWith('//') && DECISIONS.some(([, pattern]) => pattern.test(sample)))).toEqual([]);
  });
});
