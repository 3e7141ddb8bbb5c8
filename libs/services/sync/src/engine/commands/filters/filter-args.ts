import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { PROJECT_COLORS } from '../../../projects/project.model';

/** The fields a saved filter takes, a user's own (filter_*) and a workspace's (workspace_filter_*) alike. */
export const filterName = z.string().trim().min(1).max(1_024);
// The query is stored as written: clients evaluate it, the server does not.
export const filterQuery = z.string().trim().min(1).max(4_096);
export const filterDescription = z.string().max(16_384).nullable().optional();
export const filterColor = z.union([z.enum(PROJECT_COLORS), storedInteger]).optional();
