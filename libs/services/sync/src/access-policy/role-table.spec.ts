import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registeredPolicies } from './registered-handlers';
import { roleTables, withGeneratedSections } from './role-table';

const README = join(__dirname, '../../../../../README.md');
const REGENERATE = 'UPDATE_README=1 npx jest --selectProjects unit --testPathPatterns access-policy/role-table';

describe("README.md's role tables", () => {
  const declared = registeredPolicies().declared();

  it('are the ones the declared policies generate', () => {
    const text = readFileSync(README, 'utf8');
    const generated = withGeneratedSections(text, roleTables(declared));
    if (process.env['UPDATE_README'] === '1') writeFileSync(README, generated);
    else if (generated !== text) throw new Error(`README.md's role tables differ from the declared policies: run \`${REGENERATE}\``);
    expect(readFileSync(README, 'utf8')).toBe(generated);
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
