import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contractCatalogue } from './contract-catalogue';

const CONTRACTS_DIR = join(__dirname, '..', '..');

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !/\.(spec|integration-spec)\.ts$/.test(entry.name)) yield path;
  }
}

/** A subject name as the contracts write one: a quoted dotted name ending in `.v<N>`. */
const SUBJECT_LITERAL = /'([a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)+\.v[0-9]+)'/g;

describe('the contract catalogue', () => {
  const catalogue = contractCatalogue();

  it('holds every subject and event named in the contracts, so the release snapshot misses none', () => {
    const named = new Set<string>();
    for (const file of sources(CONTRACTS_DIR)) {
      if (file.startsWith(join(CONTRACTS_DIR, 'releases'))) continue;
      for (const match of readFileSync(file, 'utf8').matchAll(SUBJECT_LITERAL)) named.add(match[1]);
    }
    expect(named.size).toBeGreaterThan(50);
    expect([...named].filter((name) => !catalogue.has(name)).sort()).toEqual([]);
  });

  it('names each entry after its own subject', () => {
    for (const [name, subject] of catalogue) expect(subject.name).toBe(name);
  });
});
