import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { COLOR_NAMES } from './colors';

/**
 * Argument pieces more than one field table names: a colour is a palette name (v9, api/v1, REST
 * v2) or its integer (v8, REST v1), as project, label and filter commands take it alike.
 */
export const colorArg = z.union([z.enum(COLOR_NAMES), storedInteger]);
