import { COLOR_NAMES } from '@doable/contracts-sync';
/** A project as the domain stores it: canonical values; dialects decide the wire shape. */
export interface Project {
  id: string;
  owner_id: string;
  name: string;
  description: string;
  color: string;
  parent_id: string | null;
  child_order: number;
  is_collapsed: boolean;
  is_favorite: boolean;
  is_archived: boolean;
  is_deleted: boolean;
  inbox_project: boolean;
  view_style: string;
  created_at: Date;
  updated_at: Date;
  version: string;
}

export const PROJECT_COLUMNS = `id::text, owner_id::text, name, description, color, parent_id::text, child_order, is_collapsed,
  is_favorite, is_archived, is_deleted, inbox_project, view_style, created_at, updated_at, version::text`;

/** Colour names of the v9/v1 palette (public-api-facts §3). */
export const PROJECT_COLORS = COLOR_NAMES;

export const VIEW_STYLES = ['list', 'board', 'calendar'] as const;
