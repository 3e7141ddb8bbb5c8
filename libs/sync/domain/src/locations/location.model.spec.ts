import { MAX_RECENT_LOCATIONS, type RecentLocation, sameLocations, withRecentLocation } from './location.model';

const place = (name: string, loc_lat = '52.52', loc_long = '13.40'): RecentLocation => ({ name, loc_lat, loc_long });

describe('recent locations', () => {
  it('puts a new place first', () => {
    expect(withRecentLocation([place('Home'), place('Work')], place('Shop'))).toEqual([place('Shop'), place('Home'), place('Work')]);
  });

  it('moves a place used again to the front instead of repeating it, whatever the spelling of its coordinates', () => {
    const list = [place('Home', '-33.86', '151.21'), place('Shop', '52.5200', '13.405')];
    expect(withRecentLocation(list, place('Shop', '52.52', '13.4050'))).toEqual([place('Shop', '52.52', '13.4050'), place('Home', '-33.86', '151.21')]);
  });

  it('keeps places of the same name at other coordinates, and other names at the same coordinates', () => {
    expect(withRecentLocation([place('Home', '1', '2'), place('Office')], place('Home'))).toEqual([place('Home'), place('Home', '1', '2'), place('Office')]);
  });

  it(`keeps the ${MAX_RECENT_LOCATIONS} most recent places`, () => {
    let list: RecentLocation[] = [];
    for (let index = 0; index < MAX_RECENT_LOCATIONS + 5; index++) list = withRecentLocation(list, place(`Place ${index}`));
    expect(list).toHaveLength(MAX_RECENT_LOCATIONS);
    expect(list[0].name).toBe(`Place ${MAX_RECENT_LOCATIONS + 4}`);
    expect(list[MAX_RECENT_LOCATIONS - 1].name).toBe('Place 5');
  });

  it('tells an unchanged list from a changed one', () => {
    const list = [place('Home'), place('Work', '1', '2')];
    expect(sameLocations(withRecentLocation(list, place('Home')), list)).toBe(true);
    expect(sameLocations(withRecentLocation(list, place('Work', '1', '2')), list)).toBe(false);
    expect(sameLocations([place('Home', '52.5200')], [place('Home')])).toBe(false);
  });
});
