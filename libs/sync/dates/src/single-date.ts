import { DateTime } from 'luxon';
import { type LanguagePack } from './languages/language-pack';
import { type ParseEnv } from './parse-env';
import { parseDateTimePhrase } from './phrase-parser';
import { Scanner } from './scanner';
import { type WallDateTime, wallDay } from './core/wall-clock';

/** A whole string naming one date (and maybe a time), or undefined when it is not understood. */
export function parseSingleDate(text: string, pack: LanguagePack, env: ParseEnv, now: Date, zone: string): WallDateTime | undefined {
  const sc = new Scanner(text, pack.spaced);
  const own = parseDateTimePhrase(sc, pack, env);
  if (own && sc.done()) return own;
  return parseWithChrono(text, pack, env, now, zone);
}

/**
 * chrono-node knows the explicit date forms of its locales ("1. Dezember um 17 Uhr", "12月1日下午5点").
 * It is asked only when our tables fail, and only a parse that covers the whole string counts:
 * a due string with words left over is an error, not a guess.
 */
function parseWithChrono(text: string, pack: LanguagePack, env: ParseEnv, now: Date, zone: string): WallDateTime | undefined {
  if (!pack.chrono) return undefined;
  const offset = DateTime.fromJSDate(now, { zone }).offset;
  const results = pack.chrono.parse(text, { instant: now, timezone: offset }, { forwardDate: true });
  const [result] = results;
  if (results.length !== 1 || !result) return undefined;
  const leftover = (text.slice(0, result.index) + text.slice(result.index + result.text.length)).replace(/[\s,.]/g, '');
  if (leftover.length > 0) return undefined;
  const c = result.start;
  const year = c.get('year');
  const month = c.get('month');
  const date = c.get('day');
  if (year === null || month === null || date === null) return undefined;
  let day = wallDay(year, month, date);
  if (!day) return undefined;
  if (!c.isCertain('year') && c.isCertain('month') && day < env.today) day = day.plus({ years: 1 });
  if (!c.isCertain('hour')) return { day };
  return { day, time: { hour: c.get('hour') ?? 0, minute: c.get('minute') ?? 0 } };
}
