import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The web app's entry must stay free of values: one `export const` would pull the contracts' runtime into the browser bundle. */
describe('contracts-web-wire', () => {
  it.each([join(__dirname, 'index.ts'), join(__dirname, '../../sync/src/wire.ts')])('%s exports types only', (path) => {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
    const statements = source.statements.map((statement) => ({
      kind: ts.SyntaxKind[statement.kind],
      typeOnly: (ts.isExportDeclaration(statement) && statement.isTypeOnly) || ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement),
    }));
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((statement) => !statement.typeOnly)).toEqual([]);
  });
});
