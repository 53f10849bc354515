package provision

import (
	"fmt"
	"strings"

	"github.com/pkcalc/pkcalc/core/key"
)

// The functions that compute a synthetic key in application code. Each is a
// table of the spec's terms plus fixed code that repeats key.Spec.Extract:
//
//   - a path is looked up through objects only; a missing path, an object or
//     an array gives no key (null, None, undefined or false);
//   - a value's text is a string as it is, a number in its shortest
//     round-trip form without an exponent (as strconv.FormatFloat(f, 'f', -1,
//     64)), or true, false, null;
//   - a computed suffix is FNV-1a (32-bit) of the text's UTF-8 bytes modulo N;
//   - a time bucket reads what key.Time reads (the layouts of time.Parse that
//     key tries, written out as one regular expression with Go's ranges:
//     a one- or two-digit hour, offsets up to ±24:60, a fraction after a
//     comma or a point; or epoch seconds, milliseconds or microseconds told
//     apart by size, truncated as time.Unix, UnixMilli and UnixMicro do) and
//     prints the UTC hour, day or month as Go's time.Format does, years
//     before 1 and after 9999 included;
//   - the terms are joined with "-".
//
// The arithmetic is on whole minutes since 1970 in the proleptic Gregorian
// calendar (Howard Hinnant's days_from_civil), so no language's date
// library, time zone database or year range is involved.
//
// A function sees the document only after its language's JSON reader, and
// cannot undo what that reader changed: Python reads the integer -0 as 0,
// readers other than pkcalc's keep the last of duplicate properties where
// pkcalc keeps the first, and pkcalc reads unpaired UTF-16 surrogates as
// U+FFFD.

// isoPattern is the regular expression of the date-times key.Time reads,
// without anchors. Groups: 1-3 date; 4-6 hour, minute, second after T
// (seconds optional); 7-9 the same after spaces (seconds required); 10-12
// the zone's sign, hours and minutes. It has no backslash, so it reads the
// same in every language's string literal.
const isoPattern = `([0-9]{4})-([0-9]{2})-([0-9]{2})` +
	`(?:(?:T([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:[.,][0-9]+)?)?` +
	`| +([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:[.,][0-9]+)?)` +
	`(?:Z|([+-])([0-9]{2}):([0-9]{2}))?)?`

// keyProperty is the property name of SyntheticPath.
var keyProperty = strings.TrimPrefix(SyntheticPath, "/")

// sdkCode is code to add to an SDK snippet.
type sdkCode struct {
	imports []string
	code    string
}

func bucketName(t key.Term) string { return string(t.Bucket) }

// pythonKey is partition_key(doc) for a dict decoded by json.
func pythonKey(spec key.Spec) sdkCode {
	var b strings.Builder
	fmt.Fprintf(&b, "# Terms of the synthetic key %s:\n# (property path, time bucket or None, modulus or 0).\n_PARTITION_KEY_TERMS = [\n", comment(spec.String()))
	for _, t := range spec.Terms {
		bucket := "None"
		if t.Bucket != "" {
			bucket = jsonQuote(bucketName(t))
		}
		fmt.Fprintf(&b, "    ([%s], %s, %d),\n", list(t.Path, jsonQuote, ", "), bucket, t.Modulus)
	}
	b.WriteString("]\n")
	b.WriteString(strings.ReplaceAll(pythonKeyCode, "ISO_PATTERN", strings.Join(splitPattern(), "\"\n    r\"")))
	return sdkCode{imports: []string{"import math", "import re", "from decimal import Decimal"}, code: b.String()}
}

// splitPattern cuts isoPattern where it is written on several lines.
func splitPattern() []string {
	return []string{
		`([0-9]{4})-([0-9]{2})-([0-9]{2})`,
		`(?:(?:T([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:[.,][0-9]+)?)?`,
		`| +([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:[.,][0-9]+)?)`,
		`(?:Z|([+-])([0-9]{2}):([0-9]{2}))?)?`,
	}
}

const pythonKeyCode = `
_ISO_TIME = re.compile(
    r"ISO_PATTERN"
)


def partition_key(doc):
    """Return the value to store in /partitionKey of doc (a dict decoded from
    JSON), computed exactly as pkcalc computes the synthetic key, or None when
    a path is missing or holds an object or an array, or a time term's value
    is not a date-time."""
    parts = []
    for path, bucket, modulus in _PARTITION_KEY_TERMS:
        value = doc
        for name in path:
            if not isinstance(value, dict) or name not in value:
                return None
            value = value[name]
        text = _key_text(value)
        if text is None:
            return None
        if modulus:
            # FNV-1a (32-bit) of the UTF-8 text, modulo N.
            h = 0x811C9DC5
            for byte in text.encode("utf-8"):
                h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
            text = str(h % modulus)
        elif bucket:
            if _is_number(value):
                minute = _epoch_minute(_float(value))
            elif isinstance(value, str):
                minute = _iso_minute(value)
            else:
                minute = None
            if minute is None:
                return None
            text = _bucket_text(minute, bucket)
        parts.append(text)
    return "-".join(parts)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _float(value):
    try:
        return float(value)
    except OverflowError:  # an integer beyond a double reads as infinity
        return math.inf if value > 0 else -math.inf


def _key_text(value):
    # Strings as they are; numbers in their shortest form, never with an
    # exponent; true, false and null as words; None for objects and arrays.
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if not _is_number(value):
        return None
    f = _float(value)
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    text = format(Decimal(repr(f)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _epoch_minute(f):
    # Seconds, milliseconds or microseconds since 1970, told apart by size,
    # as whole minutes (rounded down).
    a = abs(f)
    if a < 1e11:
        frac, whole = math.modf(f)
        seconds = int(whole) + int(frac * 1e9) // 1_000_000_000
    elif a < 1e14:
        seconds = int(f) // 1000
    elif a < 1e17:
        seconds = int(f) // 1_000_000
    else:
        return None
    return seconds // 60


def _iso_minute(s):
    # An ISO 8601 date, or date and time with or without a zone (UTC when it
    # has none), as whole minutes since 1970.
    m = _ISO_TIME.fullmatch(s) if 10 <= len(s) <= 40 else None
    if m is None:
        return None
    year, month, day = int(m[1]), int(m[2]), int(m[3])
    # Only one of the two forms (after T, after spaces) matched.
    hour, minute, second = (int(m[i] or m[i + 3] or 0) for i in (4, 5, 6))
    if not (1 <= month <= 12 and 1 <= day <= _days_in(year, month)
            and hour < 24 and minute < 60 and second < 60):
        return None
    offset = 0
    if m[10]:
        if int(m[11]) > 24 or int(m[12]) > 60:
            return None
        offset = int(m[11]) * 60 + int(m[12])
        if m[10] == "-":
            offset = -offset
    return _days_from_civil(year, month, day) * 1440 + hour * 60 + minute - offset


def _days_in(year, month):
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _days_from_civil(y, m, d):
    # Days since 1970-01-01, proleptic Gregorian (H. Hinnant's algorithm).
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m - 3 if m > 2 else m + 9) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _bucket_text(minute, bucket):
    # The UTC hour (2006-01-02T15), day (2006-01-02) or month (2006-01).
    days, rest = divmod(minute, 1440)
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (month <= 2)
    text = ("-" if year < 0 else "") + "%04d-%02d" % (abs(year), month)
    if bucket != "month":
        text += "-%02d" % day
    if bucket == "hour":
        text += "T%02d" % (rest // 60)
    return text
`

// javascriptKey is partitionKey(doc) for an object from JSON.parse.
func javascriptKey(spec key.Spec) sdkCode {
	var b strings.Builder
	fmt.Fprintf(&b, "// Terms of the synthetic key %s:\n// property path, time bucket (\"\" for none), modulus (0 for none).\nconst PARTITION_KEY_TERMS = [\n", comment(spec.String()))
	for _, t := range spec.Terms {
		fmt.Fprintf(&b, "  { path: [%s], bucket: %s, modulus: %d },\n", list(t.Path, jsonQuote, ", "), jsonQuote(bucketName(t)), t.Modulus)
	}
	b.WriteString("];\n")
	b.WriteString(strings.ReplaceAll(javascriptKeyCode, "ISO_PATTERN", isoPattern))
	return sdkCode{code: b.String()}
}

const javascriptKeyCode = `
const ISO_TIME = /^ISO_PATTERN$/;

/**
 * Returns the value to store in /partitionKey of a document (an object from
 * JSON), computed exactly as pkcalc computes the synthetic key, or undefined
 * when a path is missing or holds an object or an array, or a time term's
 * value is not a date-time.
 */
function partitionKey(doc) {
  const parts = [];
  for (const { path, bucket, modulus } of PARTITION_KEY_TERMS) {
    let value = doc;
    for (const name of path) {
      if (!isObject(value) || !Object.prototype.hasOwnProperty.call(value, name)) {
        return undefined;
      }
      value = value[name];
    }
    let text = keyText(value);
    if (text === undefined) {
      return undefined;
    }
    if (modulus > 0) {
      // FNV-1a (32-bit) of the UTF-8 text, modulo N.
      let h = 0x811c9dc5;
      for (const byte of new TextEncoder().encode(text)) {
        h = Math.imul(h ^ byte, 0x01000193) >>> 0;
      }
      text = String(h % modulus);
    } else if (bucket) {
      let minute;
      if (typeof value === "number") {
        minute = epochMinute(value);
      } else if (typeof value === "string") {
        minute = isoMinute(value);
      }
      if (minute === undefined) {
        return undefined;
      }
      text = bucketText(minute, bucket);
    }
    parts.push(text);
  }
  return parts.join("-");
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// Strings as they are; numbers in their shortest form, never with an
// exponent; true, false and null as words; undefined for objects and arrays.
function keyText(value) {
  if (value === null) {
    return "null";
  }
  switch (typeof value) {
    case "string":
      return value;
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return numberText(value);
  }
  return undefined;
}

function numberText(n) {
  if (Number.isNaN(n)) {
    return "NaN";
  }
  if (!Number.isFinite(n)) {
    return n > 0 ? "+Inf" : "-Inf";
  }
  if (Object.is(n, -0)) {
    return "-0";
  }
  const s = String(n); // shortest round-trip digits, maybe with an exponent
  const e = s.indexOf("e");
  if (e < 0) {
    return s;
  }
  let mantissa = s.slice(0, e);
  let sign = "";
  if (mantissa[0] === "-") {
    sign = "-";
    mantissa = mantissa.slice(1);
  }
  const dot = mantissa.indexOf(".");
  const digits = mantissa.replace(".", "");
  const point = (dot < 0 ? mantissa.length : dot) + Number(s.slice(e + 1));
  if (point <= 0) {
    return sign + "0." + "0".repeat(-point) + digits;
  }
  if (point >= digits.length) {
    return sign + digits + "0".repeat(point - digits.length);
  }
  return sign + digits.slice(0, point) + "." + digits.slice(point);
}

// Seconds, milliseconds or microseconds since 1970, told apart by size, as
// whole minutes (rounded down).
function epochMinute(f) {
  const a = Math.abs(f);
  let seconds;
  if (!Number.isFinite(f)) {
    return undefined;
  } else if (a < 1e11) {
    const whole = Math.trunc(f);
    seconds = whole + Math.floor(Math.trunc((f - whole) * 1e9) / 1e9);
  } else if (a < 1e14) {
    seconds = Number(floorDiv(BigInt(Math.trunc(f)), 1000n));
  } else if (a < 1e17) {
    seconds = Number(floorDiv(BigInt(Math.trunc(f)), 1000000n));
  } else {
    return undefined;
  }
  return Math.floor(seconds / 60);
}

function floorDiv(a, b) {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

// An ISO 8601 date, or date and time with or without a zone (UTC when it has
// none), as whole minutes since 1970.
function isoMinute(s) {
  const m = s.length >= 10 && s.length <= 40 ? ISO_TIME.exec(s) : null;
  if (m === null) {
    return undefined;
  }
  const num = (i) => (m[i] === undefined ? 0 : Number(m[i]));
  const [year, month, day] = [num(1), num(2), num(3)];
  // Only one of the two forms (after T, after spaces) matched.
  const [hour, minute, second] = [num(4) + num(7), num(5) + num(8), num(6) + num(9)];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  let offset = 0;
  if (m[10] !== undefined) {
    if (num(11) > 24 || num(12) > 60) {
      return undefined;
    }
    offset = (num(11) * 60 + num(12)) * (m[10] === "-" ? -1 : 1);
  }
  return daysFromCivil(year, month, day) * 1440 + hour * 60 + minute - offset;
}

function daysIn(year, month) {
  if (month === 2) {
    return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

// Days since 1970-01-01, proleptic Gregorian (H. Hinnant's algorithm).
function daysFromCivil(y, m, d) {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

// The UTC hour (2006-01-02T15), day (2006-01-02) or month (2006-01).
function bucketText(minute, bucket) {
  const days = Math.floor(minute / 1440);
  const hour = Math.floor((minute - days * 1440) / 60);
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const pad = (n, w) => String(n).padStart(w, "0");
  let text = (year < 0 ? "-" : "") + pad(Math.abs(year), 4) + "-" + pad(month, 2);
  if (bucket !== "month") {
    text += "-" + pad(day, 2);
  }
  if (bucket === "hour") {
    text += "T" + pad(hour, 2);
  }
  return text;
}
`

// javaKey is partitionKey(doc) for a Map from JSON (as Jackson's
// ObjectMapper.convertValue(item, Map.class) gives), as static members of
// the snippet's class.
func javaKey(spec key.Spec) sdkCode {
	var b strings.Builder
	fmt.Fprintf(&b, "    // Terms of the synthetic key %s:\n", javaComment(spec.String()))
	b.WriteString("    // property paths, time buckets (\"\" for none) and moduli (0 for none).\n")
	paths := make([]string, len(spec.Terms))
	buckets := make([]string, len(spec.Terms))
	moduli := make([]string, len(spec.Terms))
	for i, t := range spec.Terms {
		paths[i] = "{" + list(t.Path, javaQuote, ", ") + "}"
		buckets[i] = javaQuote(bucketName(t))
		moduli[i] = fmt.Sprint(t.Modulus)
	}
	fmt.Fprintf(&b, "    private static final String[][] TERM_PATHS = {%s};\n", strings.Join(paths, ", "))
	fmt.Fprintf(&b, "    private static final String[] TERM_BUCKETS = {%s};\n", strings.Join(buckets, ", "))
	fmt.Fprintf(&b, "    private static final int[] TERM_MODULI = {%s};\n", strings.Join(moduli, ", "))
	lines := splitPattern()
	for i := range lines {
		lines[i] = javaQuote(lines[i])
	}
	b.WriteString(strings.ReplaceAll(javaKeyCode, "ISO_PATTERN", strings.Join(lines, "\n        + ")))
	return sdkCode{
		imports: []string{
			"java.math.BigDecimal", "java.math.MathContext", "java.math.RoundingMode",
			"java.nio.charset.StandardCharsets", "java.util.Map",
			"java.util.regex.Matcher", "java.util.regex.Pattern",
		},
		code: b.String(),
	}
}

const javaKeyCode = `    private static final Pattern ISO_TIME = Pattern.compile(
        ISO_PATTERN);

    /**
     * Returns the value to store in /partitionKey of a document (a Map from JSON), computed
     * exactly as pkcalc computes the synthetic key, or null when a path is missing or holds an
     * object or an array, or a time term's value is not a date-time.
     */
    static String partitionKey(Map<String, Object> doc) {
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < TERM_PATHS.length; i++) {
            Object value = doc;
            for (String name : TERM_PATHS[i]) {
                if (!(value instanceof Map) || !((Map<?, ?>) value).containsKey(name)) {
                    return null;
                }
                value = ((Map<?, ?>) value).get(name);
            }
            String text = keyText(value);
            if (text == null) {
                return null;
            }
            if (TERM_MODULI[i] > 0) {
                // FNV-1a (32-bit) of the UTF-8 text, modulo N.
                int h = 0x811C9DC5;
                for (byte c : text.getBytes(StandardCharsets.UTF_8)) {
                    h = (h ^ (c & 0xFF)) * 0x01000193;
                }
                text = Long.toString(Integer.toUnsignedLong(h) % TERM_MODULI[i]);
            } else if (!TERM_BUCKETS[i].isEmpty()) {
                Long minute = null;
                if (value instanceof Number) {
                    minute = epochMinute(((Number) value).doubleValue());
                } else if (value instanceof String) {
                    minute = isoMinute((String) value);
                }
                if (minute == null) {
                    return null;
                }
                text = bucketText(minute, TERM_BUCKETS[i]);
            }
            if (i > 0) {
                key.append('-');
            }
            key.append(text);
        }
        return key.toString();
    }

    // Strings as they are; numbers in their shortest form, never with an exponent; true, false
    // and null as words; null for objects and arrays.
    private static String keyText(Object value) {
        if (value == null) {
            return "null";
        } else if (value instanceof String) {
            return (String) value;
        } else if (value instanceof Boolean) {
            return value.toString();
        } else if (value instanceof Number) {
            return numberText(((Number) value).doubleValue());
        }
        return null;
    }

    // The shortest decimal that reads back as f (the nearest one when two are as short), as
    // Go's strconv.FormatFloat(f, 'f', -1, 64) writes it.
    private static String numberText(double f) {
        if (Double.isNaN(f)) {
            return "NaN";
        } else if (Double.isInfinite(f)) {
            return f > 0 ? "+Inf" : "-Inf";
        } else if (f == 0) {
            return 1 / f < 0 ? "-0" : "0";
        }
        BigDecimal exact = new BigDecimal(f);
        for (int digits = 1; digits < 17; digits++) {
            BigDecimal down = exact.round(new MathContext(digits, RoundingMode.FLOOR));
            BigDecimal up = exact.round(new MathContext(digits, RoundingMode.CEILING));
            boolean downOK = down.doubleValue() == f, upOK = up.doubleValue() == f;
            if (downOK && upOK) {
                int c = exact.subtract(down).compareTo(up.subtract(exact));
                boolean even = !down.unscaledValue().testBit(0);
                return (c < 0 || c == 0 && even ? down : up).stripTrailingZeros().toPlainString();
            } else if (downOK || upOK) {
                return (downOK ? down : up).stripTrailingZeros().toPlainString();
            }
        }
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros().toPlainString();
    }

    // Seconds, milliseconds or microseconds since 1970, told apart by size, as whole minutes
    // (rounded down).
    private static Long epochMinute(double f) {
        double a = Math.abs(f);
        long seconds;
        if (Double.isNaN(f) || Double.isInfinite(f)) {
            return null;
        } else if (a < 1e11) {
            long whole = (long) f;
            seconds = whole + Math.floorDiv((long) ((f - whole) * 1e9), 1_000_000_000L);
        } else if (a < 1e14) {
            seconds = Math.floorDiv((long) f, 1000L);
        } else if (a < 1e17) {
            seconds = Math.floorDiv((long) f, 1_000_000L);
        } else {
            return null;
        }
        return Math.floorDiv(seconds, 60L);
    }

    // An ISO 8601 date, or date and time with or without a zone (UTC when it has none), as
    // whole minutes since 1970.
    private static Long isoMinute(String s) {
        Matcher m = ISO_TIME.matcher(s);
        if (s.length() < 10 || s.length() > 40 || !m.matches()) {
            return null;
        }
        int year = num(m, 1), month = num(m, 2), day = num(m, 3);
        // Only one of the two forms (after T, after spaces) matched.
        int hour = num(m, 4) + num(m, 7), minute = num(m, 5) + num(m, 8), second = num(m, 6) + num(m, 9);
        if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) {
            return null;
        }
        long offset = 0;
        if (m.group(10) != null) {
            if (num(m, 11) > 24 || num(m, 12) > 60) {
                return null;
            }
            offset = (num(m, 11) * 60L + num(m, 12)) * (m.group(10).equals("-") ? -1 : 1);
        }
        return daysFromCivil(year, month, day) * 1440 + hour * 60 + minute - offset;
    }

    private static int num(Matcher m, int group) {
        return m.group(group) == null ? 0 : Integer.parseInt(m.group(group));
    }

    private static int daysIn(int year, int month) {
        if (month == 2) {
            return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    // Days since 1970-01-01, proleptic Gregorian (H. Hinnant's algorithm).
    private static long daysFromCivil(long y, long m, long d) {
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400L);
        long yoe = y - era * 400;
        long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    // The UTC hour (2006-01-02T15), day (2006-01-02) or month (2006-01).
    private static String bucketText(long minute, String bucket) {
        long days = Math.floorDiv(minute, 1440L);
        long hour = Math.floorMod(minute, 1440L) / 60;
        long z = days + 719468;
        long era = Math.floorDiv(z, 146097L);
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long day = doy - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        String text = (year < 0 ? "-" : "") + pad(Math.abs(year), 4) + "-" + pad(month, 2);
        if (!bucket.equals("month")) {
            text += "-" + pad(day, 2);
        }
        if (bucket.equals("hour")) {
            text += "T" + pad(hour, 2);
        }
        return text;
    }

    private static String pad(long n, int width) {
        StringBuilder s = new StringBuilder(Long.toString(n));
        while (s.length() < width) {
            s.insert(0, '0');
        }
        return s.toString();
    }
`

// csharpKey is SyntheticKey.Compute(JsonElement) (System.Text.Json).
func csharpKey(spec key.Spec) sdkCode {
	var b strings.Builder
	fmt.Fprintf(&b, "#nullable enable\n// Computes the synthetic key %s exactly as pkcalc does.\nstatic class SyntheticKey\n{\n", comment(spec.String()))
	b.WriteString("    // Terms: property path, time bucket (\"\" for none), modulus (0 for none).\n")
	b.WriteString("    static readonly (string[] Path, string Bucket, int Modulus)[] Terms =\n    {\n")
	for _, t := range spec.Terms {
		fmt.Fprintf(&b, "        (new[] { %s }, %s, %d),\n", list(t.Path, csQuote, ", "), csQuote(bucketName(t)), t.Modulus)
	}
	b.WriteString("    };\n")
	lines := splitPattern()
	lines[0] = "^" + lines[0]
	for i := range lines {
		lines[i] = csQuote(lines[i])
	}
	b.WriteString(strings.ReplaceAll(csharpKeyCode, "ISO_PATTERN", strings.Join(lines, "\n        + ")))
	return sdkCode{
		imports: []string{"System.Globalization", "System.Text", "System.Text.Json", "System.Text.RegularExpressions"},
		code:    b.String(),
	}
}

const csharpKeyCode = `
    static readonly Regex IsoTime = new Regex(
        ISO_PATTERN
        + "\\z", RegexOptions.CultureInvariant);

    /// <summary>
    /// Returns the value to store in /partitionKey of a document, computed exactly as pkcalc
    /// computes the synthetic key, or null when a path is missing or holds an object or an array,
    /// or a time term's value is not a date-time. Pass the item as JSON, for example
    /// JsonSerializer.SerializeToElement(item).
    /// </summary>
    public static string? Compute(JsonElement doc)
    {
        var parts = new List<string>();
        foreach (var (path, bucket, modulus) in Terms)
        {
            JsonElement value = doc;
            foreach (string name in path)
            {
                if (value.ValueKind != JsonValueKind.Object || !value.TryGetProperty(name, out JsonElement next))
                {
                    return null;
                }
                value = next;
            }
            string text;
            switch (value.ValueKind)
            {
                case JsonValueKind.String: text = value.GetString()!; break;
                case JsonValueKind.Number: text = NumberText(value.GetDouble()); break;
                case JsonValueKind.True: text = "true"; break;
                case JsonValueKind.False: text = "false"; break;
                case JsonValueKind.Null: text = "null"; break;
                default: return null; // an object or an array is not a key value
            }
            if (modulus > 0)
            {
                // FNV-1a (32-bit) of the UTF-8 text, modulo N.
                uint h = 0x811C9DC5;
                foreach (byte c in Encoding.UTF8.GetBytes(text))
                {
                    h = unchecked((h ^ c) * 0x01000193u);
                }
                text = (h % (uint)modulus).ToString(CultureInfo.InvariantCulture);
            }
            else if (bucket != "")
            {
                long? minute = null;
                if (value.ValueKind == JsonValueKind.Number)
                {
                    minute = EpochMinute(value.GetDouble());
                }
                else if (value.ValueKind == JsonValueKind.String)
                {
                    minute = IsoMinute(text);
                }
                if (minute == null)
                {
                    return null;
                }
                text = BucketText(minute.Value, bucket);
            }
            parts.Add(text);
        }
        return string.Join("-", parts);
    }

    // Numbers in their shortest round-trip form, never with an exponent, as Go's
    // strconv.FormatFloat(f, 'f', -1, 64) writes them ("R" is shortest on .NET Core 3.0 and later).
    static string NumberText(double f)
    {
        if (double.IsNaN(f)) return "NaN";
        if (double.IsInfinity(f)) return f > 0 ? "+Inf" : "-Inf";
        string s = f.ToString("R", CultureInfo.InvariantCulture);
        int e = s.IndexOf('E');
        if (e < 0) return s;
        string mantissa = s.Substring(0, e), sign = "";
        if (mantissa.StartsWith("-", StringComparison.Ordinal))
        {
            sign = "-";
            mantissa = mantissa.Substring(1);
        }
        int dot = mantissa.IndexOf('.');
        string digits = mantissa.Replace(".", "");
        int point = (dot < 0 ? mantissa.Length : dot) + int.Parse(s.Substring(e + 1), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
        if (point <= 0) return sign + "0." + new string('0', -point) + digits;
        if (point >= digits.Length) return sign + digits + new string('0', point - digits.Length);
        return sign + digits.Substring(0, point) + "." + digits.Substring(point);
    }

    // Seconds, milliseconds or microseconds since 1970, told apart by size, as whole minutes
    // (rounded down).
    static long? EpochMinute(double f)
    {
        double a = Math.Abs(f);
        long seconds;
        if (double.IsNaN(f) || double.IsInfinity(f)) return null;
        if (a < 1e11)
        {
            double whole = Math.Truncate(f);
            seconds = (long)whole + FloorDiv((long)((f - whole) * 1e9), 1_000_000_000);
        }
        else if (a < 1e14) seconds = FloorDiv((long)f, 1000);
        else if (a < 1e17) seconds = FloorDiv((long)f, 1_000_000);
        else return null;
        return FloorDiv(seconds, 60);
    }

    static long FloorDiv(long a, long b) => a / b - (a % b != 0 && (a < 0) != (b < 0) ? 1 : 0);

    // An ISO 8601 date, or date and time with or without a zone (UTC when it has none), as
    // whole minutes since 1970.
    static long? IsoMinute(string s)
    {
        Match m = IsoTime.Match(s);
        if (s.Length < 10 || s.Length > 40 || !m.Success) return null;
        int year = Num(m, 1), month = Num(m, 2), day = Num(m, 3);
        // Only one of the two forms (after T, after spaces) matched.
        int hour = Num(m, 4) + Num(m, 7), minute = Num(m, 5) + Num(m, 8), second = Num(m, 6) + Num(m, 9);
        if (month < 1 || month > 12 || day < 1 || day > DaysIn(year, month) || hour > 23 || minute > 59 || second > 59) return null;
        long offset = 0;
        if (m.Groups[10].Success)
        {
            if (Num(m, 11) > 24 || Num(m, 12) > 60) return null;
            offset = (Num(m, 11) * 60L + Num(m, 12)) * (m.Groups[10].Value == "-" ? -1 : 1);
        }
        return DaysFromCivil(year, month, day) * 1440 + hour * 60 + minute - offset;
    }

    static int Num(Match m, int group) =>
        m.Groups[group].Success ? int.Parse(m.Groups[group].Value, CultureInfo.InvariantCulture) : 0;

    static int DaysIn(int year, int month) =>
        month == 2 ? (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28)
        : month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;

    // Days since 1970-01-01, proleptic Gregorian (H. Hinnant's algorithm).
    static long DaysFromCivil(long y, long m, long d)
    {
        y -= m <= 2 ? 1 : 0;
        long era = FloorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    // The UTC hour (2006-01-02T15), day (2006-01-02) or month (2006-01).
    static string BucketText(long minute, string bucket)
    {
        long days = FloorDiv(minute, 1440);
        long hour = (minute - days * 1440) / 60;
        long z = days + 719468;
        long era = FloorDiv(z, 146097);
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long day = doy - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        var inv = CultureInfo.InvariantCulture;
        string text = (year < 0 ? "-" : "") + Math.Abs(year).ToString("D4", inv) + "-" + month.ToString("D2", inv);
        if (bucket != "month") text += "-" + day.ToString("D2", inv);
        if (bucket == "hour") text += "T" + hour.ToString("D2", inv);
        return text;
    }
}
`

// goKey is partitionKey(doc) for a map decoded by encoding/json; it uses the
// same time layouts and conversions as package key.
func goKey(spec key.Spec) sdkCode {
	var b strings.Builder
	fmt.Fprintf(&b, "// partitionKeyTerms are the terms of the synthetic key %s.\n", comment(spec.String()))
	b.WriteString("var partitionKeyTerms = []struct {\n\tpath    []string\n\tlayout  string // cut a date-time to this time.Format layout: hour, day or month\n\tmodulus int    // > 0: FNV-1a (32-bit) of the value's text, modulo it\n}{\n")
	for _, t := range spec.Terms {
		layout := map[key.Bucket]string{key.Hour: "2006-01-02T15", key.Day: "2006-01-02", key.Month: "2006-01"}[t.Bucket]
		fmt.Fprintf(&b, "\t{[]string{%s}, %s, %d},\n", list(t.Path, goQuote, ", "), goQuote(layout), t.Modulus)
	}
	b.WriteString("}\n")
	b.WriteString(goKeyCode)
	return sdkCode{imports: []string{"encoding/json", "hash/fnv", "math", "strconv", "strings", "time"}, code: b.String()}
}

const goKeyCode = `
// partitionKey returns the value to store in /partitionKey of doc (decoded by
// encoding/json), computed exactly as pkcalc computes the synthetic key. It
// returns false when a path is missing or holds an object or an array, or a
// time term's value is not a date-time.
func partitionKey(doc map[string]any) (string, bool) {
	parts := make([]string, 0, len(partitionKeyTerms))
	for _, t := range partitionKeyTerms {
		var v any = doc
		for _, name := range t.path {
			m, ok := v.(map[string]any)
			if !ok {
				return "", false
			}
			if v, ok = m[name]; !ok {
				return "", false
			}
		}
		text, ok := keyText(v)
		if !ok {
			return "", false
		}
		switch {
		case t.modulus > 0:
			h := fnv.New32a()
			h.Write([]byte(text))
			text = strconv.Itoa(int(h.Sum32() % uint32(t.modulus)))
		case t.layout != "":
			at, ok := keyTime(v)
			if !ok {
				return "", false
			}
			text = at.Format(t.layout)
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "-"), true
}

// keyText is a value as the key writes it: strings as they are, numbers in
// their shortest form, true, false and null; false for objects and arrays.
func keyText(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case nil:
		return "null", true
	}
	if f, ok := keyNumber(v); ok {
		return strconv.FormatFloat(f, 'f', -1, 64), true
	}
	return "", false
}

func keyNumber(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case json.Number:
		f, _ := v.Float64() // beyond a double: ±Inf, as pkcalc reads it
		return f, true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	}
	return 0, false
}

// keyTime reads an ISO 8601 string (UTC when it has no zone) or a number of
// seconds, milliseconds or microseconds since 1970, told apart by size.
func keyTime(v any) (time.Time, bool) {
	if s, ok := v.(string); ok {
		if len(s) < 10 || len(s) > 40 || s[4] != '-' {
			return time.Time{}, false
		}
		for _, layout := range []string{
			time.RFC3339Nano, "2006-01-02T15:04:05.999999999",
			"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999",
			"2006-01-02T15:04Z07:00", "2006-01-02T15:04", "2006-01-02",
		} {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UTC(), true
			}
		}
		return time.Time{}, false
	}
	f, ok := keyNumber(v)
	switch a := math.Abs(f); {
	case !ok || math.IsNaN(f) || math.IsInf(f, 0):
		return time.Time{}, false
	case a < 1e11:
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC(), true
	case a < 1e14:
		return time.UnixMilli(int64(f)).UTC(), true
	case a < 1e17:
		return time.UnixMicro(int64(f)).UTC(), true
	}
	return time.Time{}, false
}
`
