import type { ObjectsRender, ObjectsRequest, RenderedQuery } from '@doable/contracts-sync';
import { isRenderedQuery } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import type { ObjectRenderer, RenderedAnswer, RenderSource } from './shared/object-renderer';
import { restV2Dialect } from './rest-v2/rest-v2.dialect';

/** The dialects whose whole answers the sync service writes (`ObjectsRequest.render`), by name. */
export const RENDERING_DIALECTS: Readonly<Record<ObjectsRender['dialect'], ObjectRenderer>> = {
  'rest-v2': restV2Dialect,
};

/** A request's answer to render: write it with `render(source)` once its commands have run. */
export interface Rendering {
  readonly query: RenderedQuery;
  render(source: RenderSource): Promise<RenderedAnswer>;
}

/**
 * What a request asks to be rendered (undefined: nothing, its objects are answered). Refuses,
 * before any command runs, a rendering asked of a query no rendered dialect writes (the caller's
 * mistake, not the user's).
 */
export function renderingOf(request: ObjectsRequest): Rendering | undefined {
  const { render, query } = request;
  if (render === undefined) return undefined;
  if (query === null || !isRenderedQuery(query)) {
    throw new DomainError('INTERNAL', `objects: ${render.dialect} renders objects it has, not ${query?.resource ?? 'an empty query'}`);
  }
  const dialect = RENDERING_DIALECTS[render.dialect];
  return { query, render: (source) => dialect.render(query, render, source) };
}
