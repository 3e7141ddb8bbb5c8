// How quick add finds a `#project`, `/section` or `+person` in a line: one matcher for the
// server's parser (libs/sync/engine) and the web app's live highlights (apps/web), so the two
// never disagree on what a line names. Pure TypeScript with no imports: the web app bundles it.
export { findNamed, type Named, type NamedMatch } from './find-named';
