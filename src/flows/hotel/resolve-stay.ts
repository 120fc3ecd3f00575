import moment, { type Moment } from "moment";

/** The longest stay HotelFlow books. */
export const MAX_NIGHTS = 30;

export interface StayDates {
  /** `YYYY-MM-DD`, the day of arrival. */
  checkIn: string;
  /** `YYYY-MM-DD`, the day of departure: the last night is the one before it. */
  checkOut: string;
  nights: number;
}

export type StayProblem = "unrecognized" | "invalid_date" | "past" | "end_before_start" | "too_long";

export type StayResolution = { ok: true; stay: StayDates } | { ok: false; problem: StayProblem; reason: string };

const MONTH_NAMES =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const MONTH = `(?:${MONTH_NAMES})\\b\\.?`;
const DAY = "\\d{1,2}(?:st|nd|rd|th)?\\b";
const YEAR = "(?:,?\\s+\\d{4}\\b)?";
const DATE = `(?:\\d{4}-\\d{2}-\\d{2}\\b|${MONTH}\\s+${DAY}${YEAR}|${DAY}\\s+(?:of\\s+)?${MONTH}${YEAR}|today|tonight|tomorrow)`;
const TO = "\\s*(?:-|to|until|till|through|thru)\\s*";
const COUNTS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

// Searched, not anchored, so the user's whole sentence ("we'd like Aug 9 to Aug 14, please") works.
const RANGE = new RegExp(`\\b(${DATE})${TO}(${DATE}|${DAY})`);
const DAY_RANGE = new RegExp(`\\b(${DAY})${TO}(${DATE})`);
const FOR_NIGHTS = new RegExp(
  `\\b(${DATE})\\s+for\\s+(\\d{1,2}|${Object.keys(COUNTS).join("|")})\\s+(nights?|weeks?)\\b`,
);
const WEEK_OF_MONTH = new RegExp(
  `\\b(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\\s+week\\s+(?:of|in)\\s+(${MONTH_NAMES})\\b\\.?(?:,?\\s+(\\d{4})\\b)?`,
);
const SINGLE = new RegExp(`\\b(${DATE})`);

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_FIRST = new RegExp(`^(${MONTH_NAMES})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?$`);
const DAY_FIRST = new RegExp(`^(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_NAMES})\\.?(?:,?\\s+(\\d{4}))?$`);
const WEEK_ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  "1st": 1,
  second: 2,
  "2nd": 2,
  third: 3,
  "3rd": 3,
  fourth: 4,
  "4th": 4,
  fifth: 5,
  "5th": 5,
};

/** A calendar day as the user wrote it; `year` is missing when they left it out. */
interface WrittenDay {
  text: string;
  year?: number;
  /** 0 for January, as moment counts. */
  month: number;
  day: number;
}

class InvalidDate extends Error {}

function monthIndex(name: string): number {
  return ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].indexOf(name.slice(0, 3));
}

function written(text: string, today: Moment): WrittenDay {
  if (text === "today" || text === "tonight" || text === "tomorrow") {
    const day = text === "tomorrow" ? today.clone().add(1, "day") : today;
    return { text, year: day.year(), month: day.month(), day: day.date() };
  }
  const iso = ISO_DAY.exec(text);
  if (iso) return { text, year: Number(iso[1]), month: Number(iso[2]) - 1, day: Number(iso[3]) };
  const monthFirst = MONTH_FIRST.exec(text);
  const dayFirst = DAY_FIRST.exec(text);
  const [monthName, day, year] = monthFirst
    ? [monthFirst[1]!, monthFirst[2]!, monthFirst[3]]
    : [dayFirst![2]!, dayFirst![1]!, dayFirst![3]];
  return { text, month: monthIndex(monthName), day: Number(day), ...(year ? { year: Number(year) } : {}) };
}

function dayIn(year: number, { month, day }: WrittenDay): Moment | undefined {
  const date = moment.utc([year, month, day]);
  return date.isValid() ? date : undefined;
}

function mustExist(date: Moment | undefined, written: WrittenDay): Moment {
  if (!date) throw new InvalidDate(`"${written.text}" is not a calendar date`);
  return date;
}

/** A check-in without a year is its next occurrence from today on. */
function checkInDay(written: WrittenDay, today: Moment): Moment {
  if (written.year !== undefined) return mustExist(dayIn(written.year, written), written);
  const thisYear = dayIn(today.year(), written);
  return mustExist(thisYear && !thisYear.isBefore(today) ? thisYear : dayIn(today.year() + 1, written), written);
}

/** A check-out without a year follows its check-in: the same year, or the next when its month comes earlier. */
function checkOutDay(written: WrittenDay, checkIn: Moment): Moment {
  const year = written.year ?? checkIn.year() + (written.month < checkIn.month() ? 1 : 0);
  return mustExist(dayIn(year, written), written);
}

/** The Monday that starts the `ordinal` week (1–5, or "last") of a month: weeks run Monday to Monday. */
function weekStart(year: number, month: number, ordinal: string): Moment | undefined {
  const first = moment.utc([year, month, 1]);
  const mondays: Moment[] = [];
  for (
    let monday = first.clone().add((8 - first.isoWeekday()) % 7, "days");
    monday.month() === month;
    monday = monday.clone().add(7, "days")
  ) {
    mondays.push(monday);
  }
  return ordinal === "last" ? mondays.at(-1) : mondays[WEEK_ORDINALS[ordinal]! - 1];
}

function weekOfMonth(match: RegExpExecArray, today: Moment): [Moment, Moment] {
  const [, ordinal, monthName, givenYear] = match;
  const month = monthIndex(monthName!);
  let year = givenYear ? Number(givenYear) : today.year();
  let start = weekStart(year, month, ordinal!);
  if (!givenYear && (!start || start.isBefore(today))) start = weekStart(++year, month, ordinal!);
  if (!start)
    throw new InvalidDate(
      `${moment.utc([year, month]).format("MMMM YYYY")} has no ${ordinal} week starting on a Monday`,
    );
  return [start, start.clone().add(7, "days")];
}

/** The check-in and check-out the words name, or why they name no stay. */
function readStay(text: string, today: Moment): [Moment, Moment] | string {
  const range = RANGE.exec(text);
  if (range) {
    const start = checkInDay(written(range[1]!, today), today);
    const endWritten = /^\d{1,2}(?:st|nd|rd|th)?$/.test(range[2]!)
      ? { text: range[2]!, year: start.year(), month: start.month(), day: parseInt(range[2]!, 10) }
      : written(range[2]!, today);
    return [start, checkOutDay(endWritten, start)];
  }
  const dayRange = DAY_RANGE.exec(text);
  if (dayRange) {
    const endWritten = written(dayRange[2]!, today);
    const startWritten = { ...endWritten, text: `${dayRange[1]} ${dayRange[2]}`, day: parseInt(dayRange[1]!, 10) };
    const start = checkInDay(startWritten, today);
    return [start, checkOutDay(endWritten, start)];
  }
  const forNights = FOR_NIGHTS.exec(text);
  if (forNights) {
    const start = checkInDay(written(forNights[1]!, today), today);
    const count = COUNTS[forNights[2]!] ?? Number(forNights[2]);
    return [start, start.clone().add(forNights[3]!.startsWith("week") ? count * 7 : count, "days")];
  }
  const week = WEEK_OF_MONTH.exec(text);
  if (week) return weekOfMonth(week, today);
  if (/\bnext\s+weekend\b/.test(text)) {
    const friday = today.clone().add(1, "week").isoWeekday(5);
    return [friday, friday.clone().add(2, "days")];
  }
  if (/\bthis\s+(?:coming\s+)?weekend\b/.test(text)) {
    const friday = today.clone().isoWeekday(5);
    return [moment.max(friday, today), today.clone().isoWeekday(7)];
  }
  if (/\bnext\s+week\b/.test(text)) {
    const monday = today.clone().add(1, "week").isoWeekday(1);
    return [monday, monday.clone().add(7, "days")];
  }
  const single = SINGLE.exec(text);
  if (single) {
    const day = checkInDay(written(single[1]!, today), today).format("YYYY-MM-DD");
    return `only a check-in day (${day}) was given; a stay also needs a check-out day or a number of nights`;
  }
  return 'no stay dates could be read; give them like "Aug 9 to Aug 14", "the second week of August" or "next weekend"';
}

/**
 * Resolves a stay given in words ("Aug 9 to Aug 14", "the second week of August", "Aug 9 for 3
 * nights", "next weekend", "2027-08-09 to 2027-08-14") against `now`, and checks it can be booked:
 * not in the past, at least one night, at most MAX_NIGHTS. Pure: `now` is an argument.
 *
 * Rules: "today" is now's UTC calendar day (the flow's pin is a UTC instant). A day without a year is
 * its next occurrence from today on; a check-out without a year follows its check-in. "X to Y" is
 * check-in X, check-out Y. A week of a month runs Monday to Monday (7 nights), counting the weeks
 * whose Monday falls in the month. "this weekend" is Friday (or today) to Sunday of this ISO week,
 * "next weekend" Friday to Sunday of the next one, "next week" Monday to Monday.
 */
export function resolveStay(words: string, now: Moment): StayResolution {
  const today = now.clone().utc().startOf("day");
  const text = words.toLowerCase().replace(/[–—]/g, "-").replace(/\s+/g, " ").trim();
  let read: [Moment, Moment] | string;
  try {
    read = readStay(text, today);
  } catch (error) {
    if (error instanceof InvalidDate) return { ok: false, problem: "invalid_date", reason: error.message };
    throw error;
  }
  if (typeof read === "string") return { ok: false, problem: "unrecognized", reason: read };
  const [start, end] = read;
  const checkIn = start.format("YYYY-MM-DD");
  const checkOut = end.format("YYYY-MM-DD");
  const nights = end.diff(start, "days");
  if (start.isBefore(today))
    return {
      ok: false,
      problem: "past",
      reason: `check-in ${checkIn} is in the past (today is ${today.format("YYYY-MM-DD")})`,
    };
  if (nights < 1)
    return { ok: false, problem: "end_before_start", reason: `check-out ${checkOut} is not after check-in ${checkIn}` };
  if (nights > MAX_NIGHTS) {
    return {
      ok: false,
      problem: "too_long",
      reason: `${checkIn} to ${checkOut} is ${nights} nights, over the ${MAX_NIGHTS}-night limit`,
    };
  }
  return { ok: true, stay: { checkIn, checkOut, nights } };
}
