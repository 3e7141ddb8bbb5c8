import { type LanguagePack } from './language-pack';

/**
 * Korean: chrono-node has no locale, so this table is all there is. Written without spaces between
 * number and unit: 매일, 매주 월요일, 3일마다, 내일 오후 5시.
 */
export const KO: LanguagePack = {
  code: 'ko',
  spaced: false,
  noDate: ['날짜 없음', '기한 없음'],
  today: ['오늘'],
  tomorrow: ['내일'],
  yesterday: ['어제'],
  weekdays: [['월요일'], ['화요일'], ['수요일'], ['목요일'], ['금요일'], ['토요일'], ['일요일']],
  next: ['다음 주', '다음주', '다음'],
  this: ['이번 주', '이번주', '이번'],
  on: [],
  in: [],
  inSuffix: ['후', '뒤'],
  ago: ['전'],
  and: ['와', '과', '、'],
  units: { day: ['일'], week: ['주'], month: ['개월', '달', '월'], year: ['년'] },
  hourUnits: ['시간'],
  minuteUnits: ['분'],
  every: ['매'],
  everyFromCompletion: ['매!'],
  everySuffix: ['마다'],
  other: ['격'],
  workday: ['평일'],
  weekend: ['주말'],
  last: ['마지막'],
  starting: ['시작'],
  until: ['까지'],
  timesOfDay: { 정오: { hour: 12, minute: 0 }, 자정: { hour: 0, minute: 0 } },
  at: [],
  amPrefix: ['오전'],
  pmPrefix: ['오후'],
  hourSuffix: ['시'],
  minuteSuffix: ['분'],
};
