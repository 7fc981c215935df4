// A value as a native control takes it: "05/20/2010" is 2010-05-20 for a date input, "9:37 PM" is
// 21:37 for a time input. A value that cannot be read for the control's type is undefined (refused),
// never handed to the page to drop silently.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const COLORS: Record<string, string> = {
  black: '#000000', white: '#ffffff', red: '#ff0000', green: '#008000', blue: '#0000ff', yellow: '#ffff00',
  orange: '#ffa500', purple: '#800080', pink: '#ffc0cb', gray: '#808080', grey: '#808080', brown: '#a52a2a',
  cyan: '#00ffff', magenta: '#ff00ff', lime: '#00ff00', navy: '#000080', teal: '#008080', maroon: '#800000',
};

/** The input types whose value has a fixed form. */
export const NATIVE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'number', 'range', 'color']);

/** Which number of a date written 03/04/2025 is the day: as its field's label shows (dateOrder), else month first. */
export type DateOrder = 'day-first' | 'month-first';

/** The order a field's label shows for dates ("Birthday (DD/MM/YYYY)"), if it shows one. */
export function dateOrder(label: string): DateOrder | undefined {
  const dayFirst = /\b(?:dd?[/.-]mm?|day[/.-]month)\b/i.test(label);
  const monthFirst = /\b(?:mm?[/.-]dd?|month[/.-]day)\b/i.test(label);
  // A label showing both ("not DD/MM, use MM/DD") says neither for certain.
  if (dayFirst === monthFirst) return undefined;
  return dayFirst ? 'day-first' : 'month-first';
}

/** The value in the form the input type takes; the value itself for other types; undefined when it cannot be read so. */
export function nativeValue(type: string | undefined, value: string, order?: DateOrder): string | undefined {
  const v = value.trim();
  switch (type) {
    case 'date':
      return date(v, order);
    case 'time':
      return time(v);
    case 'datetime-local': {
      const m = /^(.+?)(?:T|,? at |,? )(\d{1,2}(?::\d{2}){0,2}\s*(?:[ap]\.?m\.?)?)$/i.exec(v);
      const d = m && date(m[1]!, order);
      const t = m && time(m[2]!);
      return d && t ? `${d}T${t}` : undefined;
    }
    case 'month':
      return month(v);
    case 'week': {
      const m = /^(\d{4})-?W(\d{1,2})$/i.exec(v) ?? /^week (\d{1,2}),? (?:of )?(\d{4})$/i.exec(v);
      if (!m) return undefined;
      const [year, week] = /^\d{4}$/.test(m[1]!) ? [m[1]!, m[2]!] : [m[2]!, m[1]!];
      return Number(week) >= 1 && Number(week) <= 53 ? `${year}-W${week.padStart(2, '0')}` : undefined;
    }
    case 'number':
    case 'range': {
      const n = v.replace(/,(?=\d{3}\b)/g, '');
      return /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i.test(n) ? String(Number(n)) : undefined;
    }
    case 'color': {
      const hex = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(v)?.[1];
      if (hex) return `#${(hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex).toLowerCase()}`;
      return COLORS[v.toLowerCase()];
    }
    default:
      return value;
  }
}

/** "72.5 kg", "30%": a number and the unit written after it; undefined for anything else. */
export function numberWithUnit(value: string): { number: string; unit: string } | undefined {
  const m = /^([-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+))\s*(%|[a-zµ°][a-zµ°/²³]*)$/i.exec(value.trim());
  return m ? { number: m[1]!, unit: m[2]! } : undefined;
}

/** ISO, month/day/year (day/month/year when the first number is over 12, or the label says so), "May 20, 2010", "20 May 2010". */
function date(v: string, order?: DateOrder): string | undefined {
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v) ?? /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(v);
  if (m) return ymd(m[1]!, m[2]!, m[3]!);
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(v);
  if (m) return order === 'day-first' || (order === undefined && Number(m[1]) > 12) ? ymd(m[3]!, m[2]!, m[1]!) : ymd(m[3]!, m[1]!, m[2]!);
  m = /^(?:\w+,? )?([a-z]{3,})\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/i.exec(v);
  if (m) return monthNumber(m[1]!) ? ymd(m[3]!, String(monthNumber(m[1]!)), m[2]!) : undefined;
  m = /^(?:\w+,? )?(\d{1,2})(?:st|nd|rd|th)? (?:of )?([a-z]{3,})\.?,? (\d{4})$/i.exec(v);
  if (m) return monthNumber(m[2]!) ? ymd(m[3]!, String(monthNumber(m[2]!)), m[1]!) : undefined;
  return undefined;
}

function ymd(year: string, month: string, day: string): string | undefined {
  const [y, mo, d] = [Number(year), Number(month), Number(day)];
  const real = new Date(Date.UTC(y, mo - 1, d));
  if (real.getUTCMonth() !== mo - 1 || real.getUTCDate() !== d) return undefined;
  return `${year.padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The part of the day said in words, as the half of a 12-hour clock (docs/decisions.md, "A time said in words"). */
const DAY_PART: Record<string, 'a' | 'p'> = { morning: 'a', afternoon: 'p', evening: 'p' };

/** "9:37 PM", "21:37", "9 pm", "noon", "09:05:30", "6:45 in the morning". */
function time(v: string): string | undefined {
  if (/^noon$/i.test(v)) return '12:00';
  if (/^midnight$/i.test(v)) return '00:00';
  const said = /^(\d{1,2}(?::\d{2}){0,2}) in the (morning|afternoon|evening)$/i.exec(v);
  // "12 in the evening" is no hour of a 12-hour clock (12 pm is noon).
  if (said && !(Number(said[1]!.split(':')[0]) === 12 && said[2]!.toLowerCase() === 'evening')) return time(`${said[1]} ${DAY_PART[said[2]!.toLowerCase()]}m`);
  if (said) return undefined;
  const m = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])?\.?(?:m\.?)?$/i.exec(v);
  if (!m || (!m[2] && !m[4])) return undefined;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  const second = m[3] === undefined ? undefined : Number(m[3]);
  const half = m[4]?.toLowerCase();
  if (half) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (half === 'p' ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || (second ?? 0) > 59) return undefined;
  const hm = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
  return second === undefined ? hm : `${hm}:${String(second).padStart(2, '0')}`;
}

/** "2010-05", "05/2010", "May 2010". */
function month(v: string): string | undefined {
  let m = /^(\d{4})-(\d{1,2})$/.exec(v);
  if (m) return monthOf(m[1]!, Number(m[2]));
  m = /^(\d{1,2})\/(\d{4})$/.exec(v);
  if (m) return monthOf(m[2]!, Number(m[1]));
  m = /^([a-z]{3,})\.?,? (\d{4})$/i.exec(v);
  return m ? monthOf(m[2]!, monthNumber(m[1]!)) : undefined;
}

function monthOf(year: string, mo: number | undefined): string | undefined {
  return mo && mo >= 1 && mo <= 12 ? `${year}-${String(mo).padStart(2, '0')}` : undefined;
}

function monthNumber(name: string): number | undefined {
  const at = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  if (at < 0 || !'january february march april may june july august september october november december'.includes(name.toLowerCase().replace(/\.$/, ''))) return undefined;
  return at + 1;
}
