/**
 * The colour palette (public-api-facts §3): names on the v9/v1/REST v2 wire, integers 30..49
 * (in this order) on the v8/REST v1 wire.
 */
export const COLOR_NAMES = [
  'berry_red', 'red', 'orange', 'yellow', 'olive_green', 'lime_green', 'green', 'mint_green', 'teal', 'sky_blue',
  'light_blue', 'blue', 'grape', 'violet', 'lavender', 'magenta', 'salmon', 'charcoal', 'grey', 'taupe',
] as const;
export type ColorName = (typeof COLOR_NAMES)[number];

const FIRST_COLOR_ID = 30;

/** The REST v1 integer of a colour name; an unknown name is charcoal's. */
export function colorId(name: string): number {
  const index = COLOR_NAMES.indexOf(name as ColorName);
  return FIRST_COLOR_ID + (index < 0 ? COLOR_NAMES.indexOf('charcoal') : index);
}

/** The name of a REST v1 colour integer, or undefined when there is none. */
export function colorNameOf(id: number): ColorName | undefined {
  return COLOR_NAMES[id - FIRST_COLOR_ID];
}
