import { COLOR_NAMES } from '@doable/contracts-sync';
import {
  colorNameOfLegacyLabel,
  colorNameOfLegacyProject,
  colorNameOfV8,
  LEGACY_LABEL_PALETTE,
  LEGACY_PROJECT_PALETTE,
  legacyLabelColor,
  legacyProjectColor,
  v8ColorOf,
} from './legacy-colors';

describe('legacy colours', () => {
  it('maps v8 integers 30..49 one to one (the contracts\' map)', () => {
    expect(COLOR_NAMES.map(v8ColorOf)).toEqual(COLOR_NAMES.map((_, index) => 30 + index));
    expect(COLOR_NAMES.map((name) => colorNameOfV8(v8ColorOf(name)))).toEqual([...COLOR_NAMES]);
    expect([colorNameOfV8(29), colorNameOfV8(50)]).toEqual([undefined, undefined]);
  });

  // The two tables, written out: a change to the palettes or the distance shows here.
  it('maps each v7 project colour to its nearest name', () => {
    expect(LEGACY_PROJECT_PALETTE.map((_, index) => colorNameOfLegacyProject(index))).toMatchInlineSnapshot(`
[
  "lime_green",
  "salmon",
  "orange",
  "olive_green",
  "light_blue",
  "taupe",
  "lavender",
  "grey",
  "salmon",
  "yellow",
  "mint_green",
  "light_blue",
  "magenta",
  "berry_red",
  "red",
  "lime_green",
  "mint_green",
  "teal",
  "sky_blue",
  "sky_blue",
  "charcoal",
  "charcoal",
]
`);
  });

  it('maps each name to its nearest v7 project colour', () => {
    expect(Object.fromEntries(COLOR_NAMES.map((name) => [name, legacyProjectColor(name)]))).toMatchInlineSnapshot(`
{
  "berry_red": 13,
  "blue": 19,
  "charcoal": 21,
  "grape": 12,
  "green": 15,
  "grey": 7,
  "lavender": 6,
  "light_blue": 4,
  "lime_green": 0,
  "magenta": 12,
  "mint_green": 10,
  "olive_green": 3,
  "orange": 2,
  "red": 14,
  "salmon": 1,
  "sky_blue": 18,
  "taupe": 5,
  "teal": 17,
  "violet": 12,
  "yellow": 9,
}
`);
  });

  it('maps v7 label colours and names both ways', () => {
    expect(LEGACY_LABEL_PALETTE.map((_, index) => colorNameOfLegacyLabel(index))).toMatchInlineSnapshot(`
[
  "green",
  "olive_green",
  "red",
  "magenta",
  "violet",
  "grape",
  "sky_blue",
  "charcoal",
  "teal",
  "mint_green",
  "berry_red",
  "lime_green",
  "charcoal",
]
`);
    expect(Object.fromEntries(COLOR_NAMES.map((name) => [name, legacyLabelColor(name)]))).toMatchInlineSnapshot(`
{
  "berry_red": 10,
  "blue": 6,
  "charcoal": 7,
  "grape": 4,
  "green": 0,
  "grey": 7,
  "lavender": 3,
  "light_blue": 6,
  "lime_green": 11,
  "magenta": 3,
  "mint_green": 9,
  "olive_green": 1,
  "orange": 2,
  "red": 2,
  "salmon": 10,
  "sky_blue": 6,
  "taupe": 7,
  "teal": 8,
  "violet": 4,
  "yellow": 1,
}
`);
  });

  it('answers undefined outside the palettes and the default for an unknown name', () => {
    expect([colorNameOfLegacyProject(22), colorNameOfLegacyProject(-1), colorNameOfLegacyProject(1.5), colorNameOfLegacyLabel(13)]).toEqual([undefined, undefined, undefined, undefined]);
    expect([legacyProjectColor('puce'), legacyLabelColor('puce')]).toEqual([7, 7]);
  });

  it('reads back a name written as a legacy colour as a name of the same hue family at worst', () => {
    // Every legacy index a name is written as reads back as a name: never undefined.
    for (const name of COLOR_NAMES) {
      expect(colorNameOfLegacyProject(legacyProjectColor(name))).toBeDefined();
      expect(colorNameOfLegacyLabel(legacyLabelColor(name))).toBeDefined();
    }
  });
});
