package io.weir.handler.codec.http;

import io.weir.util.AsciiString;

import java.util.Date;
import java.util.Objects;

/**
 * HTTP-dates (RFC 9110 §5.6.7): formats the preferred IMF-fixdate (RFC 1123) form and parses all three forms a
 * recipient must accept:
 * <pre>
 *   IMF-fixdate  Sun, 06 Nov 1994 08:49:37 GMT
 *   RFC 850      Sunday, 06-Nov-94 08:49:37 GMT
 *   asctime      Sun Nov  6 08:49:37 1994
 * </pre>
 * Parsing is positional and allocation-free (no {@link java.text.DateFormat}, no regular expressions; months are
 * matched character by character) and never throws on malformed input: {@link #parseMillis} returns
 * {@link #INVALID_DATE} and {@link #parseHttpDate} returns {@code null}.
 *
 * <p>Thread-safe. {@link #format(long)} and {@link #currentDate()} keep the text of the most recent second in
 * an immutable holder published through a volatile field, so servers stamping a {@code Date} header on every
 * response format once per second and never lock.
 */
public final class DateFormatter {
    /** Returned by {@link #parseMillis} for input that is not a valid HTTP-date. */
    public static final long INVALID_DATE = Long.MIN_VALUE;

    private static final long MILLIS_PER_SECOND = 1000L;
    private static final int SECONDS_PER_DAY = 86_400;
    private static final int IMF_FIXDATE_LENGTH = 29;
    private static final int ASCTIME_LENGTH = 24;
    private static final int MAX_YEAR = 9999;
    /** RFC 9110 §5.6.7: a two-digit year more than this many years in the future is in the past century. */
    private static final int TWO_DIGIT_YEAR_WINDOW_YEARS = 50;

    private static final String[] DAY_NAMES = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] FULL_DAY_NAMES =
            {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
    private static final String[] MONTH_NAMES =
            {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

    private record Cached(long epochSecond, String text, AsciiString ascii) {
    }

    private static volatile Cached cached = new Cached(Long.MIN_VALUE, "", AsciiString.EMPTY_STRING);

    private DateFormatter() {
    }

    // ---- formatting ----

    /** The current time as an IMF-fixdate, such as {@code Sun, 06 Nov 1994 08:49:37 GMT}; cached per second. */
    public static AsciiString currentDate() {
        return cachedFor(Math.floorDiv(System.currentTimeMillis(), MILLIS_PER_SECOND)).ascii;
    }

    /**
     * {@code epochMillis} as an IMF-fixdate (milliseconds are dropped).
     *
     * @throws IllegalArgumentException if the year is outside 0000–9999, which the format cannot express
     */
    public static String format(long epochMillis) {
        return cachedFor(Math.floorDiv(epochMillis, MILLIS_PER_SECOND)).text;
    }

    /**
     * {@code date} as an IMF-fixdate.
     *
     * @throws IllegalArgumentException if the year is outside 0000–9999
     */
    public static String format(Date date) {
        Objects.requireNonNull(date, "date");
        return format(date.getTime());
    }

    private static Cached cachedFor(long epochSecond) {
        Cached c = cached;
        if (c.epochSecond == epochSecond) {
            return c;
        }
        String text = formatSeconds(epochSecond);
        c = new Cached(epochSecond, text, AsciiString.cached(text));
        // Only the clock's current second is worth keeping; formatting an old Last-Modified must not evict it.
        long nowSecond = Math.floorDiv(System.currentTimeMillis(), MILLIS_PER_SECOND);
        if (epochSecond >= nowSecond - 1) {
            cached = c;
        }
        return c;
    }

    private static String formatSeconds(long epochSecond) {
        long days = Math.floorDiv(epochSecond, SECONDS_PER_DAY);
        int secondOfDay = (int) Math.floorMod(epochSecond, SECONDS_PER_DAY);
        // Civil-from-days (proleptic Gregorian), shifted so that years start in March and leap days come last.
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int day = (int) (doy - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        if (year < 0 || year > MAX_YEAR) {
            throw new IllegalArgumentException("year " + year + " cannot be written as an HTTP-date (epoch second "
                    + epochSecond + ')');
        }
        // 1970-01-01 was a Thursday: index 3 in DAY_NAMES.
        int dayOfWeek = (int) Math.floorMod(days + 3, 7);
        char[] out = new char[IMF_FIXDATE_LENGTH];
        DAY_NAMES[dayOfWeek].getChars(0, 3, out, 0);
        out[3] = ',';
        out[4] = ' ';
        twoDigits(out, 5, day);
        out[7] = ' ';
        MONTH_NAMES[month - 1].getChars(0, 3, out, 8);
        out[11] = ' ';
        twoDigits(out, 12, (int) (year / 100));
        twoDigits(out, 14, (int) (year % 100));
        out[16] = ' ';
        twoDigits(out, 17, secondOfDay / 3600);
        out[19] = ':';
        twoDigits(out, 20, secondOfDay / 60 % 60);
        out[22] = ':';
        twoDigits(out, 23, secondOfDay % 60);
        out[25] = ' ';
        out[26] = 'G';
        out[27] = 'M';
        out[28] = 'T';
        return new String(out);
    }

    private static void twoDigits(char[] out, int at, int value) {
        out[at] = (char) ('0' + value / 10);
        out[at + 1] = (char) ('0' + value % 10);
    }

    // ---- parsing ----

    /**
     * {@code text} parsed as an HTTP-date in any of the three forms, spaces and tabs around it ignored, or
     * {@code null} if it is not one. Never throws for malformed input.
     */
    public static Date parseHttpDate(CharSequence text) {
        long millis = parseMillis(text);
        return millis == INVALID_DATE ? null : new Date(millis);
    }

    /**
     * {@code text} parsed as an HTTP-date in any of the three forms, in milliseconds since the epoch, or
     * {@link #INVALID_DATE} if it is not one (including {@code null}, wrong day or month names, impossible dates
     * such as 31 Feb, and out-of-range times). A two-digit RFC 850 year is placed per RFC 9110 §5.6.7: a year
     * that would be more than 50 years in the future is taken in the previous century.
     */
    public static long parseMillis(CharSequence text) {
        if (text == null) {
            return INVALID_DATE;
        }
        int start = 0;
        int end = text.length();
        while (start < end && isOws(text.charAt(start))) {
            start++;
        }
        while (end > start && isOws(text.charAt(end - 1))) {
            end--;
        }
        int length = end - start;
        if (length < ASCTIME_LENGTH) {
            return INVALID_DATE;
        }
        char c3 = text.charAt(start + 3);
        if (c3 == ',') {
            return length == IMF_FIXDATE_LENGTH ? parseImfFixdate(text, start) : INVALID_DATE;
        }
        if (c3 == ' ') {
            return length == ASCTIME_LENGTH ? parseAsctime(text, start) : INVALID_DATE;
        }
        return parseRfc850(text, start, end);
    }

    private static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }

    /** {@code Sun, 06 Nov 1994 08:49:37 GMT}. */
    private static long parseImfFixdate(CharSequence s, int p) {
        if (dayOfWeek(s, p) < 0 || s.charAt(p + 4) != ' ' || s.charAt(p + 7) != ' ' || s.charAt(p + 11) != ' '
                || s.charAt(p + 16) != ' ' || s.charAt(p + 25) != ' ' || !isGmt(s, p + 26)) {
            return INVALID_DATE;
        }
        int day = digits(s, p + 5, 2);
        int month = month(s, p + 8);
        int year = digits(s, p + 12, 4);
        return toMillis(year, month, day, s, p + 17);
    }

    /** {@code Sun Nov  6 08:49:37 1994} (the day may also be written {@code 06}). */
    private static long parseAsctime(CharSequence s, int p) {
        if (dayOfWeek(s, p) < 0 || s.charAt(p + 7) != ' ' || s.charAt(p + 10) != ' ' || s.charAt(p + 19) != ' ') {
            return INVALID_DATE;
        }
        int month = month(s, p + 4);
        int day;
        if (s.charAt(p + 8) == ' ') {
            day = digits(s, p + 9, 1);
        } else {
            day = digits(s, p + 8, 2);
        }
        int year = digits(s, p + 20, 4);
        return toMillis(year, month, day, s, p + 11);
    }

    /** {@code Sunday, 06-Nov-94 08:49:37 GMT}. */
    private static long parseRfc850(CharSequence s, int start, int end) {
        int comma = -1;
        for (int i = start + 6; i < start + 10 && i < end; i++) {
            if (s.charAt(i) == ',') {
                comma = i;
                break;
            }
        }
        if (comma < 0 || !isFullDayName(s, start, comma) || end - comma != 24) {
            return INVALID_DATE;
        }
        int p = comma + 1;
        if (s.charAt(p) != ' ' || s.charAt(p + 3) != '-' || s.charAt(p + 7) != '-' || s.charAt(p + 10) != ' '
                || s.charAt(p + 19) != ' ' || !isGmt(s, p + 20)) {
            return INVALID_DATE;
        }
        int day = digits(s, p + 1, 2);
        int month = month(s, p + 4);
        int twoDigitYear = digits(s, p + 8, 2);
        if (twoDigitYear < 0) {
            return INVALID_DATE;
        }
        int currentYear = java.time.Year.now(java.time.ZoneOffset.UTC).getValue();
        int year = currentYear / 100 * 100 + twoDigitYear;
        if (year > currentYear + TWO_DIGIT_YEAR_WINDOW_YEARS) {
            year -= 100;
        }
        return toMillis(year, month, day, s, p + 11);
    }

    /** Validates the date and {@code HH:MM:SS} at {@code p}, then converts; INVALID_DATE if anything is off. */
    private static long toMillis(int year, int month, int day, CharSequence s, int p) {
        if (s.charAt(p + 2) != ':' || s.charAt(p + 5) != ':') {
            return INVALID_DATE;
        }
        int hour = digits(s, p, 2);
        int minute = digits(s, p + 3, 2);
        int second = digits(s, p + 6, 2);
        // RFC 9110 §5.6.7 allows second 60 (a leap second); it is counted as the first second of the next minute.
        if (year < 0 || month < 1 || day < 1 || day > daysInMonth(year, month)
                || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) {
            return INVALID_DATE;
        }
        long days = daysFromCivil(year, month, day);
        return ((days * 24 + hour) * 60 + minute) * 60_000L + second * MILLIS_PER_SECOND;
    }

    private static long daysFromCivil(int year, int month, int day) {
        int y = month <= 2 ? year - 1 : year;
        int era = Math.floorDiv(y, 400);
        int yoe = y - era * 400;
        int mp = month > 2 ? month - 3 : month + 9;
        int doy = (153 * mp + 2) / 5 + day - 1;
        int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return (long) era * 146_097 + doe - 719_468;
    }

    private static int daysInMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** The value of {@code count} decimal digits at {@code p}, or -1 if one is not a digit. */
    private static int digits(CharSequence s, int p, int count) {
        int v = 0;
        for (int i = 0; i < count; i++) {
            int d = s.charAt(p + i) - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static boolean isGmt(CharSequence s, int p) {
        return s.charAt(p) == 'G' && s.charAt(p + 1) == 'M' && s.charAt(p + 2) == 'T';
    }

    /** The month 1–12 named by the three characters at {@code p} (exact case), or -1. */
    private static int month(CharSequence s, int p) {
        char a = s.charAt(p);
        char b = s.charAt(p + 1);
        char c = s.charAt(p + 2);
        return switch (a) {
            case 'J' -> b == 'a' && c == 'n' ? 1 : b == 'u' ? (c == 'n' ? 6 : c == 'l' ? 7 : -1) : -1;
            case 'F' -> b == 'e' && c == 'b' ? 2 : -1;
            case 'M' -> b == 'a' ? (c == 'r' ? 3 : c == 'y' ? 5 : -1) : -1;
            case 'A' -> b == 'p' && c == 'r' ? 4 : b == 'u' && c == 'g' ? 8 : -1;
            case 'S' -> b == 'e' && c == 'p' ? 9 : -1;
            case 'O' -> b == 'c' && c == 't' ? 10 : -1;
            case 'N' -> b == 'o' && c == 'v' ? 11 : -1;
            case 'D' -> b == 'e' && c == 'c' ? 12 : -1;
            default -> -1;
        };
    }

    /** The index in DAY_NAMES of the three-letter day name at {@code p}, or -1. */
    private static int dayOfWeek(CharSequence s, int p) {
        for (int i = 0; i < DAY_NAMES.length; i++) {
            String name = DAY_NAMES[i];
            if (s.charAt(p) == name.charAt(0) && s.charAt(p + 1) == name.charAt(1) && s.charAt(p + 2) == name.charAt(2)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isFullDayName(CharSequence s, int start, int end) {
        for (String name : FULL_DAY_NAMES) {
            if (name.length() == end - start && regionEquals(s, start, name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean regionEquals(CharSequence s, int start, String name) {
        for (int i = 0; i < name.length(); i++) {
            if (s.charAt(start + i) != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
