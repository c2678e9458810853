export interface Formatters {
  /** Date and time, e.g. "Sep 1, 2025, 12:00:00 PM" (with the zone's name when a `timeZone` is set). */
  date(iso: string): string;
  /** Relative to now, e.g. "5 minutes ago". */
  relative(iso: string, now?: number): string;
  /** A duration, e.g. "250 ms", "1.5 s", "3 min". */
  duration(ms: number): string;
  /** The catalog suffix for a count: `one` where the language says "1 item" (and French "0 élément"), else `other`. */
  plural(count: number): 'one' | 'other';
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['week', 604_800],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

export interface FormatterOptions {
  /** An IANA time zone ("UTC", "Europe/Paris") for dates, then named in each one; the browser's own by default. */
  timeZone?: string;
}

/** Formatters built on `Intl` for one locale: every date the widget shows goes through `date`. */
export function createFormatters(locale: string, { timeZone }: FormatterOptions = {}): Formatters {
  const dt = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: timeZone ? 'long' : 'medium',
    timeZone,
  });
  const rt = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const unit = (u: string, digits: number) =>
    new Intl.NumberFormat(locale, {
      style: 'unit',
      unit: u,
      unitDisplay: 'short',
      maximumFractionDigits: digits,
    });
  const ms = unit('millisecond', 0);
  const s = unit('second', 1);
  const min = unit('minute', 1);
  const h = unit('hour', 1);
  const pr = new Intl.PluralRules(locale);
  return {
    plural: (n) => (pr.select(n) === 'one' ? 'one' : 'other'),
    date: (iso) => dt.format(new Date(iso)),
    relative(iso, now = Date.now()) {
      const diff = (Date.parse(iso) - now) / 1000;
      for (const [u, secs] of UNITS)
        if (Math.abs(diff) >= secs || u === 'second') return rt.format(Math.round(diff / secs), u);
      return '';
    },
    duration: (d) =>
      d < 1000
        ? ms.format(d)
        : d < 60_000
          ? s.format(d / 1000)
          : d < 3_600_000
            ? min.format(d / 60_000)
            : h.format(d / 3_600_000),
  };
}
