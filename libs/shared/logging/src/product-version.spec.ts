import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRODUCT_VERSION } from './product-version';

/** The release is written in a few places that cannot import it; each must say the same. */
const ROOT = join(__dirname, '..', '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('the product version', () => {
  it('is semver', () => {
    expect(PRODUCT_VERSION).toMatch(/^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$/);
  });

  it("is package.json's version", () => {
    expect((JSON.parse(read('package.json')) as { version: string }).version).toBe(PRODUCT_VERSION);
  });

  it("is the changelog's latest release", () => {
    const releases = [...read('CHANGELOG.md').matchAll(/^## \[([^\]]+)\]/gm)].map((match) => match[1]).filter((name) => name !== 'Unreleased');
    expect(releases[0]).toBe(PRODUCT_VERSION);
  });

  it('is the tag of every image the compose and Kubernetes files run', () => {
    const files = ['docker-compose.yml', ...readdirSync(join(ROOT, 'k8s', 'base')).filter((name) => name.endsWith('.yaml')).map((name) => join('k8s', 'base', name))];
    const tags = files.flatMap((file) => [...read(file).matchAll(/doable\/[a-z-]+:(?:\$\{DOABLE_VERSION:-)?([0-9][^}\s"]*)/g)].map((match) => ({ file, tag: match[1] })));
    expect(tags.length).toBeGreaterThan(10);
    expect(tags.filter(({ tag }) => tag !== PRODUCT_VERSION)).toEqual([]);
  });
});
