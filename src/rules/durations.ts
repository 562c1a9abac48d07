// A length of time as every answer says it, text and apps alike: "45 s", "1 h 59 min", "1 d 5 h", "5 d", "2 y".

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

/** A span to the nearest unit, in two units below two days ("1 h 59 min", "1 d 5 h"): never rounded down. */
export function span(abs: number): string {
  if (abs < MIN - 500) return `${Math.round(abs / 1000)} s`;
  const two = (big: number, bigUnit: string, small: number, smallUnit: string) => {
    const n = Math.round(abs / small);
    const whole = Math.floor(n / (big / small));
    const rest = n % (big / small);
    return whole ? `${whole} ${bigUnit}${rest ? ` ${rest} ${smallUnit}` : ''}` : `${rest} ${smallUnit}`;
  };
  if (abs < DAY - MIN / 2) return two(HOUR, 'h', MIN, 'min');
  if (abs < 2 * DAY - HOUR / 2) return two(DAY, 'd', HOUR, 'h');
  if (abs < YEAR - DAY / 2) return `${Math.round(abs / DAY)} d`;
  return `${Math.round(abs / YEAR)} y`;
}
