// Units (API reference › Units): of `currentValue.units` and of threshold units.

const UNITS = [
  'RAW',
  'BITS',
  'BYTES',
  'KILOBITS',
  'KILOBYTES',
  'MEGABITS',
  'MEGABYTES',
  'GIGABITS',
  'GIGABYTES',
  'TERABYTES',
  'PETABYTES',
  'MILLISECONDS',
  'SECONDS',
  'MINUTES',
  'HOURS',
  'DAYS',
] as const;
export type Unit = (typeof UNITS)[number];
