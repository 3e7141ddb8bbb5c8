export interface Section {
  id: string;
  user_id: string;
  project_id: string;
  name: string;
  description: string | null;
  section_order: number;
  is_collapsed: boolean;
  is_archived: boolean;
  is_deleted: boolean;
  archived_at: Date | null;
  added_at: Date;
  updated_at: Date;
  version: string;
}

export const SECTION_COLUMNS = `id::text, user_id::text, project_id::text, name, description, section_order, is_collapsed, is_archived,
  is_deleted, archived_at, added_at, updated_at, version::text`;
