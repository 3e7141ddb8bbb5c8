import { execFileSync } from 'node:child_process';

export interface OpenApiValidation {
  readonly valid: boolean;
  readonly version?: string;
  readonly errors?: unknown;
}

/**
 * Validates a document as OpenAPI (3.0/3.1/3.2) with @seriousme/openapi-schema-validator, the
 * official OpenAPI JSON schemas run through Ajv. It is ESM that reads its schemas relative to
 * `import.meta.url`, which Jest's CommonJS transform cannot carry, so it runs in a child Node
 * (offline: the schemas ship in the package).
 */
export function validateOpenApi(document: unknown): OpenApiValidation {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(text));
    process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors }));
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { input: JSON.stringify(document), cwd: process.cwd(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(output) as OpenApiValidation;
}
