import type { ColorName } from '@doable/contracts-web-wire';

/** Todoist's named colours, as projects and labels take them (`color`). */
const COLOURS: readonly ColorName[] = ['berry_red', 'red', 'orange', 'yellow', 'olive_green', 'lime_green', 'green', 'mint_green', 'teal', 'sky_blue', 'light_blue', 'blue', 'grape', 'violet', 'lavender', 'magenta', 'salmon', 'charcoal', 'grey', 'taupe'];

/** A labelled colour picker; `onChange` gets the colour's name as the API spells it. */
export function ColourSelect({ id, value, onChange }: { id: string; value: string | undefined; onChange: (colour: ColorName) => void }) {
  return (
    <span class="field">
      <label for={id}>Colour</label>
      <select id={id} value={value ?? 'charcoal'} onChange={(event) => onChange(event.currentTarget.value as ColorName)}>
        {COLOURS.map((colour) => (
          <option key={colour} value={colour}>
            {colour.replace(/_/g, ' ')}
          </option>
        ))}
      </select>
    </span>
  );
}
