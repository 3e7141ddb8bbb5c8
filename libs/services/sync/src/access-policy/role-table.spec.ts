import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registeredPolicies } from './registered-handlers';
import { roleTables, withGeneratedSections } from './role-table';

/** The docs page that holds the tables (the README used to; it now points there). */
const PAGE = join(__dirname, '../../../../../docs/api/roles.md');
const REGENERATE = 'UPDATE_DOCS=1 npx jest libs/services/sync/src/access-policy/role-table --selectProjects unit';

describe("docs/api/roles.md's role tables", () => {
  const declared = registeredPolicies().declared();

  it('are the ones the declared policies generate', () => {
    const text = readFileSync(PAGE, 'utf8');
    const generated = withGeneratedSections(text, roleTables(declared));
    if (process.env['UPDATE_DOCS'] === '1') writeFileSync(PAGE, generated);
    else if (generated !== text) throw new Error(`docs/api/roles.md's role tables differ from the declared policies: run \`${REGENERATE}\``);
    expect(readFileSync(PAGE, 'utf8')).toBe(generated);
  });

  it('show each role what it may do: only the CREATOR deletes, a COMPLETE_ONLY member adds no task, a GUEST only belongs', () => {
    const { 'project-roles': project, 'workspace-roles': workspace } = roleTables(declared);
    expect(project).toContain('| **delete**: `project_delete` | ✓ |  |  |  |  |');
    expect(project.split('\n').find((line) => line.startsWith('| **edit**'))).toMatch(/`item_add`.* \| ✓ \| ✓ \| ✓ \| ✓ \|  \|$/);
    expect(project).toContain('| READ_WRITE | READ_WRITE, EDIT_ONLY, COMPLETE_ONLY |');
    expect(workspace.split('\n').find((line) => line.startsWith('| **belong**'))).toMatch(/ \| ✓ \| ✓ \| ✓ \|$/);
    expect(workspace).toContain('| MEMBER | MEMBER, GUEST |');
    expect(workspace).toContain('| GUEST | none |');
  });
});
