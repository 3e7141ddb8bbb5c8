/**
 * The product's release (semver), stamped on every log line and every `/health` answer so an
 * operator can tell which release each replica runs during a rolling update. Written here, not
 * read from package.json at run time, because the images carry dist/ without the manifest;
 * product-version.spec.ts checks it against package.json and CHANGELOG.md.
 */
export const PRODUCT_VERSION = '1.0.0';
