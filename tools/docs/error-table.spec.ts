import { resolve } from 'node:path';
import { ERROR_CATALOG } from '@doable/shared-errors';
import { checkGeneratedSections } from '@doable/shared-testing';
import { errorTable } from './error-table';

const PAGE = resolve(__dirname, '..', '..', 'docs', 'api', 'errors.md');
const REGENERATE = 'UPDATE_DOCS=1 npx jest tools/docs/error-table --selectProjects unit';

describe("docs/api/errors.md's table of error codes", () => {
  it('is the one the error catalog generates', () => {
    const text = checkGeneratedSections(PAGE, { 'error-codes': errorTable() }, REGENERATE);
    expect(text).toContain(errorTable());
  });

  it('has one row per code, with the status, the Todoist code and tag clients see', () => {
    const rows = errorTable().split('\n').slice(2);
    expect(rows).toHaveLength(Object.keys(ERROR_CATALOG).length);
    expect(rows).toContain('| `RATE_LIMITED` | 429 | 35 | `LIMITS_REACHED` | Too many requests. Limits reached. Try again later |');
    expect(rows).toContain('| `INVALID_TEMP_ID` | 400 | 15 | `INVALID_TEMPID` | Invalid temporary id |');
  });
});
