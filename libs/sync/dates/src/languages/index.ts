import { invalidDateArgument } from '../core/due-errors';
import { DA } from './da';
import { DE } from './de';
import { EN } from './en';
import { ES } from './es';
import { FR } from './fr';
import { IT } from './it';
import { JA } from './ja';
import { KO } from './ko';
import { type LanguagePack } from './language-pack';
import { NL } from './nl';
import { PL } from './pl';
import { PT } from './pt';
import { RU } from './ru';
import { SV } from './sv';
import { ZH } from './zh';

const PACKS: readonly LanguagePack[] = [EN, DA, PL, ZH, KO, DE, PT, JA, IT, FR, SV, RU, ES, NL];

/** The date languages of sync-interface §2 (Reminder `date_lang`), in that order. */
export const SUPPORTED_LANGS: readonly string[] = PACKS.map((p) => p.code);

export function languagePack(lang: string): LanguagePack | undefined {
  return PACKS.find((p) => p.code === lang);
}

export function requireLanguagePack(lang: string): LanguagePack {
  const pack = languagePack(lang);
  if (!pack) throw invalidDateArgument('lang', `Unsupported date language: "${lang}"`, { lang, expected: SUPPORTED_LANGS });
  return pack;
}
