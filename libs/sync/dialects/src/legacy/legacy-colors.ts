import { COLOR_NAMES, type ColorName, colorId, colorNameOf } from '@doable/contracts-sync';

/**
 * Colours of the older generations. The domain stores names (berry_red .. taupe).
 *
 * - Sync v8 and REST v1: integers 30..49, one per name, in COLOR_NAMES order. That map is
 *   @doable/contracts-sync's (colorId / colorNameOf): the rest service's REST v1 dialect and the
 *   sync engine's argument parser (engine/colors.ts) use it too, so it stays there and is only
 *   re-exported here under the names the legacy dialects use.
 * - Sync v7, v6 and the first generation: palettes of their own. Projects 0..21 (0..11 free,
 *   12..21 premium), labels and filters 0..12 (v7 docs `_projects.md`, `_labels.md`; the same
 *   hexes in every client that drew them). No palette colour is a named colour, so each legacy
 *   index maps to the NEAREST name and each name to the nearest index of that palette, by
 *   colour difference (CIE76 Delta E in CIELAB). The maps are therefore
 *   not inverse: a legacy index read and written back may come back as a neighbour (a test
 *   lists both tables so a change to them is seen).
 */

/** v8 / REST v1 integer of a name (an unknown name is charcoal's, 47). */
export const v8ColorOf: (name: string) => number = colorId;

/** Name of a v8 / REST v1 integer 30..49, undefined for any other. */
export const colorNameOfV8: (id: number) => ColorName | undefined = colorNameOf;

/** The named colours as the v8-era clients drew them (public-api-facts §3, "SDK ≤v3 / legacy" hex). */
const NAMED_HEX: Readonly<Record<ColorName, string>> = {
  berry_red: '#b8255f',
  red: '#db4035',
  orange: '#ff9933',
  yellow: '#fad000',
  olive_green: '#afb83b',
  lime_green: '#7ecc49',
  green: '#299438',
  mint_green: '#6accbc',
  teal: '#158fad',
  sky_blue: '#14aaf5',
  light_blue: '#96c3eb',
  blue: '#4073ff',
  grape: '#884dff',
  violet: '#af38eb',
  lavender: '#eb96eb',
  magenta: '#e05194',
  salmon: '#ff8d85',
  charcoal: '#808080',
  grey: '#b8b8b8',
  taupe: '#ccac93',
};

/** v7 project colours 0..21 (0..11 free). */
export const LEGACY_PROJECT_PALETTE: readonly string[] = [
  '#95ef63', '#ff8581', '#ffc471', '#f9ec75', '#a8c8e4', '#d2b8a3', '#e2a8e4', '#cccccc', '#fb886e', '#ffcc00', '#74e8d3', '#3bd5fb',
  '#dc4fad', '#ac193d', '#d24726', '#82ba00', '#03b3b2', '#008299', '#5db2ff', '#0072c6', '#000000', '#777777',
];

/** v7 label and filter colours 0..12. */
export const LEGACY_LABEL_PALETTE: readonly string[] = [
  '#019412', '#a39d01', '#e73d02', '#e702a4', '#9902e7', '#1d02e7', '#0082c5', '#555555', '#008299', '#03b3b2', '#ac193d', '#82ba00', '#111111',
];

/** The Inbox's colour in v7 (7, grey), the default when a project names none. */
export const LEGACY_DEFAULT_PROJECT_COLOR = 7;
/** v7 labels defaulted to 7 (#555555); filters used 6 and 12 for their built-ins. */
export const LEGACY_DEFAULT_LABEL_COLOR = 7;

function rgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** sRGB (D65) to CIELAB: the space where a straight-line distance is roughly what an eye sees. */
function lab(hex: string): [number, number, number] {
  const [r, g, b] = rgb(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIE76 colour difference (Delta E*ab): enough to tell the nearest of twenty colours. */
export function colorDistance(a: string, b: string): number {
  const [l1, a1, b1] = lab(a);
  const [l2, a2, b2] = lab(b);
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2);
}

function nearest<T>(hex: string, candidates: readonly T[], hexOf: (candidate: T) => string): T {
  let best = candidates[0];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = colorDistance(hex, hexOf(candidate));
    // Strictly smaller: ties go to the earlier candidate (the free colours come first).
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function tables(palette: readonly string[]): { toName: readonly ColorName[]; toIndex: Readonly<Record<ColorName, number>> } {
  const indexes = palette.map((_, index) => index);
  return {
    toName: palette.map((hex) => nearest(hex, COLOR_NAMES, (name) => NAMED_HEX[name])),
    toIndex: Object.fromEntries(COLOR_NAMES.map((name) => [name, nearest(NAMED_HEX[name], indexes, (index) => palette[index])])) as Record<ColorName, number>,
  };
}

// Computed once, at load: 22 x 20 and 13 x 20 distances.
const PROJECT = tables(LEGACY_PROJECT_PALETTE);
const LABEL = tables(LEGACY_LABEL_PALETTE);

function isColorName(name: string): name is ColorName {
  return (COLOR_NAMES as readonly string[]).includes(name);
}

/** A project's colour name as a v7 / first-generation index 0..21 (an unknown name: the Inbox grey, 7). */
export function legacyProjectColor(name: string): number {
  return isColorName(name) ? PROJECT.toIndex[name] : LEGACY_DEFAULT_PROJECT_COLOR;
}

/** A v7 project colour index as the nearest name; undefined outside 0..21. */
export function colorNameOfLegacyProject(index: number): ColorName | undefined {
  return Number.isInteger(index) ? PROJECT.toName[index] : undefined;
}

/** A label's or filter's colour name as a v7 index 0..12 (an unknown name: 7). */
export function legacyLabelColor(name: string): number {
  return isColorName(name) ? LABEL.toIndex[name] : LEGACY_DEFAULT_LABEL_COLOR;
}

/** A v7 label or filter colour index as the nearest name; undefined outside 0..12. */
export function colorNameOfLegacyLabel(index: number): ColorName | undefined {
  return Number.isInteger(index) ? LABEL.toName[index] : undefined;
}
