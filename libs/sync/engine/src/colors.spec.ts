import { DomainError } from '@doable/shared-errors';
import { colorName } from './colors';

function colorError(color: number): DomainError {
  try {
    colorName(color);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected colorName to throw');
}

describe('colorName', () => {
  // The palette of public-api-facts §3, integer by integer.
  it.each([
    [30, 'berry_red'],
    [31, 'red'],
    [32, 'orange'],
    [33, 'yellow'],
    [34, 'olive_green'],
    [35, 'lime_green'],
    [36, 'green'],
    [37, 'mint_green'],
    [38, 'teal'],
    [39, 'sky_blue'],
    [40, 'light_blue'],
    [41, 'blue'],
    [42, 'grape'],
    [43, 'violet'],
    [44, 'lavender'],
    [45, 'magenta'],
    [46, 'salmon'],
    [47, 'charcoal'],
    [48, 'grey'],
    [49, 'taupe'],
  ])('maps colour %d to %s', (color, name) => {
    expect(colorName(color)).toBe(name);
  });

  it.each([29, 50, 0, -1, 30.5, 1e3, Number.NaN])('rejects colour %d as INVALID_ARGUMENT_VALUE naming color', (color) => {
    const err = colorError(color);
    expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(err.extra).toEqual({ argument: 'color' });
  });

  it('passes a colour name through unchanged', () => {
    expect(colorName('lime_green')).toBe('lime_green');
  });
});
