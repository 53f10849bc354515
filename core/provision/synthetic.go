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
//   - a time bucket reads what key.Time reads (text in one of
//     key.TimeForms, by their regular expressions and the fields their
//     groups hold; or epoch seconds, milliseconds or microseconds told apart
//     by size, truncated as time.Unix, UnixMilli and UnixMicro do) and
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
// and pkcalc reads unpaired UTF-16 surrogates as U+FFFD. Of duplicate
// properties pkcalc keeps the last (core/ingest), as these readers do.

// timeForms writes key.TimeForms in a language, each line after indent:
// each form's name and example as a comment (prefix starts a comment line),
// then form(pattern, groups), where pattern is the form's regular expression
// as pieces quoted by quote and joined by join, and groups the names of its
// groups, quoted.
func timeForms(indent, prefix string, quote func(string) string, join string, form func(pattern, groups string) string) string {
	var b strings.Builder
	for _, f := range key.TimeForms {
		pieces := patternPieces(f.Pattern)
		for i := range pieces {
			pieces[i] = quote(pieces[i])
		}
		fmt.Fprintf(&b, "%s%s %s: %s\n%s%s\n", indent, prefix, f.Name, f.Example, indent, form(strings.Join(pieces, join), quote(f.Groups)))
	}
	return b.String()
}

// patternPieces cuts a regular expression into pieces of at most 60
// characters, after a | or a ) that no quantifier follows, so that it is
// written on several lines.
func patternPieces(p string) []string {
	var out []string
	for len(p) > 60 {
		cut := 59
		for i := 59; i > 0; i-- {
			if (p[i] == '|' || p[i] == ')') && !strings.ContainsRune("?*+{", rune(p[i+1])) {
				cut = i
				break
			}
		}
		out = append(out, p[:cut+1])
		p = p[cut+1:]
	}
	return append(out, p)
}

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
	b.WriteString(strings.ReplaceAll(pythonKeyCode, "@FORMS@", timeForms("    ", "#", jsonQuote, "\n        ", func(p, g string) string {
		return fmt.Sprintf("(re.compile(\n        %s), %s),", p, g)
	})))
	return sdkCode{imports: []string{"import math", "import re", "from decimal import Decimal"}, code: b.String()}
}

const pythonKeyCode = `
# The forms of text read as a time: each a regular expression, matched
# whole, and what its groups hold: y year, m month (digits or a name), d day,
# H hour, M minute, s h n the zone's sign, hours and minutes.
_TIME_FORMS = [
@FORMS@]
_MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec"


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
                minute = _text_minute(value)
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


def _text_minute(s):
    # A date-time in one of _TIME_FORMS (UTC when it has no zone), as whole
    # minutes since 1970.
    if not 10 <= len(s) <= 40:
        return None
    for pattern, groups in _TIME_FORMS:
        m = pattern.fullmatch(s)
        if m is not None:
            break
    else:
        return None
    f = dict(zip(groups, m.groups("")))
    num = lambda g: int(f.get(g) or 0)
    year, day = num("y"), num("d")
    month = num("m") if len(f["m"]) == 2 else _MONTHS.index(f["m"][:3]) // 3 + 1
    # The patterns bound every field but the day by its month.
    if day > _days_in(year, month):
        return None
    offset = num("h") * 60 + num("n")
    if f.get("s") == "-":
        offset = -offset
    return _days_from_civil(year, month, day) * 1440 + num("H") * 60 + num("M") - offset


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
	b.WriteString(strings.ReplaceAll(javascriptKeyCode, "@FORMS@", timeForms("  ", "//", jsonQuote, " +\n      ", func(p, g string) string {
		return fmt.Sprintf("[new RegExp(\"^(?:\" +\n      %s +\n      \")$\"), %s],", p, g)
	})))
	return sdkCode{code: b.String()}
}

const javascriptKeyCode = `
// The forms of text read as a time: each a regular expression and what its
// groups hold: y year, m month (digits or a name), d day, H hour, M minute,
// s h n the zone's sign, hours and minutes.
const TIME_FORMS = [
@FORMS@];
const MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

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
        minute = textMinute(value);
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

// A date-time in one of TIME_FORMS (UTC when it has no zone), as whole
// minutes since 1970.
function textMinute(s) {
  if (s.length < 10 || s.length > 40) {
    return undefined;
  }
  for (const [pattern, groups] of TIME_FORMS) {
    const m = pattern.exec(s);
    if (m === null) {
      continue;
    }
    const field = (g) => (groups.includes(g) ? m[groups.indexOf(g) + 1] || "" : "");
    const num = (g) => Number(field(g) || 0);
    const [year, day] = [num("y"), num("d")];
    const month = field("m").length === 2 ? num("m") : MONTHS.indexOf(field("m").slice(0, 3)) / 3 + 1;
    // The patterns bound every field but the day by its month.
    if (day > daysIn(year, month)) {
      return undefined;
    }
    const offset = (num("h") * 60 + num("n")) * (field("s") === "-" ? -1 : 1);
    return daysFromCivil(year, month, day) * 1440 + num("H") * 60 + num("M") - offset;
  }
  return undefined;
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
	b.WriteString(strings.ReplaceAll(javaKeyCode, "@FORMS@", timeForms("        ", "//", javaQuote, "\n            + ", func(p, g string) string {
		return fmt.Sprintf("{Pattern.compile(\n            %s), %s},", p, g)
	})))
	return sdkCode{
		imports: []string{
			"java.math.BigDecimal", "java.math.MathContext", "java.math.RoundingMode",
			"java.nio.charset.StandardCharsets", "java.util.Map",
			"java.util.regex.Matcher", "java.util.regex.Pattern",
		},
		code: b.String(),
	}
}

const javaKeyCode = `    // The forms of text read as a time: each a regular expression, matched whole, and what its
    // groups hold: y year, m month (digits or a name), d day, H hour, M minute, s h n the zone's
    // sign, hours and minutes.
    private static final Object[][] TIME_FORMS = {
@FORMS@    };
    private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

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
                    minute = textMinute((String) value);
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

    // A date-time in one of TIME_FORMS (UTC when it has no zone), as whole minutes since 1970.
    private static Long textMinute(String s) {
        if (s.length() < 10 || s.length() > 40) {
            return null;
        }
        for (Object[] form : TIME_FORMS) {
            Matcher m = ((Pattern) form[0]).matcher(s);
            if (!m.matches()) {
                continue;
            }
            String groups = (String) form[1];
            int year = num(m, groups, 'y'), day = num(m, groups, 'd');
            String name = field(m, groups, 'm');
            int month = name.length() == 2 ? num(m, groups, 'm') : MONTHS.indexOf(name.substring(0, 3)) / 3 + 1;
            // The patterns bound every field but the day by its month.
            if (day > daysIn(year, month)) {
                return null;
            }
            long offset = (num(m, groups, 'h') * 60L + num(m, groups, 'n')) * (field(m, groups, 's').equals("-") ? -1 : 1);
            return daysFromCivil(year, month, day) * 1440 + num(m, groups, 'H') * 60 + num(m, groups, 'M') - offset;
        }
        return null;
    }

    // The text of the group that holds field g, or "" where there is none.
    private static String field(Matcher m, String groups, char g) {
        int i = groups.indexOf(g);
        String text = i < 0 ? null : m.group(i + 1);
        return text == null ? "" : text;
    }

    private static int num(Matcher m, String groups, char g) {
        String text = field(m, groups, g);
        return text.isEmpty() ? 0 : Integer.parseInt(text);
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
	b.WriteString(strings.ReplaceAll(csharpKeyCode, "@FORMS@", timeForms("        ", "//", csQuote, "\n            + ", func(p, g string) string {
		return fmt.Sprintf("(new Regex(\"^(?:\"\n            + %s\n            + \")\\\\z\", RegexOptions.CultureInvariant), %s),", p, g)
	})))
	return sdkCode{
		imports: []string{"System.Globalization", "System.Text", "System.Text.Json", "System.Text.RegularExpressions"},
		code:    b.String(),
	}
}

const csharpKeyCode = `
    // The forms of text read as a time: each a regular expression and what its groups hold:
    // y year, m month (digits or a name), d day, H hour, M minute, s h n the zone's sign, hours
    // and minutes.
    static readonly (Regex Pattern, string Groups)[] TimeForms =
    {
@FORMS@    };
    const string Months = "JanFebMarAprMayJunJulAugSepOctNovDec";

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
                    minute = TextMinute(text);
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

    // A date-time in one of TimeForms (UTC when it has no zone), as whole minutes since 1970.
    static long? TextMinute(string s)
    {
        if (s.Length < 10 || s.Length > 40) return null;
        foreach (var (pattern, groups) in TimeForms)
        {
            Match m = pattern.Match(s);
            if (!m.Success) continue;
            string Field(char g)
            {
                int i = groups.IndexOf(g);
                return i >= 0 && m.Groups[i + 1].Success ? m.Groups[i + 1].Value : "";
            }
            int Num(char g) => Field(g).Length == 0 ? 0 : int.Parse(Field(g), CultureInfo.InvariantCulture);
            int year = Num('y'), day = Num('d');
            int month = Field('m').Length == 2 ? Num('m') : Months.IndexOf(Field('m').Substring(0, 3), StringComparison.Ordinal) / 3 + 1;
            // The patterns bound every field but the day by its month.
            if (day > DaysIn(year, month)) return null;
            long offset = (Num('h') * 60L + Num('n')) * (Field('s') == "-" ? -1 : 1);
            return DaysFromCivil(year, month, day) * 1440 + Num('H') * 60 + Num('M') - offset;
        }
        return null;
    }

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
	b.WriteString(strings.ReplaceAll(goKeyCode, "@FORMS@", timeForms("\t", "//", goQuote, " +\n\t\t", func(p, g string) string {
		return fmt.Sprintf("{regexp.MustCompile(\"^(?:\" +\n\t\t%s +\n\t\t\")$\"), %s},", p, g)
	})))
	return sdkCode{imports: []string{"encoding/json", "hash/fnv", "math", "regexp", "strconv", "strings", "time"}, code: b.String()}
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

// timeForms are the forms of text read as a time: each a regular expression
// and what its groups hold: y year, m month (digits or a name), d day, H hour,
// M minute, s h n the zone's sign, hours and minutes.
var timeForms = []struct {
	pattern *regexp.Regexp
	groups  string
}{
@FORMS@}

// keyTime reads a date-time in one of timeForms (UTC when it has no zone) or a
// number of seconds, milliseconds or microseconds since 1970, told apart by
// size.
func keyTime(v any) (time.Time, bool) {
	if s, ok := v.(string); ok {
		if len(s) < 10 || len(s) > 40 {
			return time.Time{}, false
		}
		for _, f := range timeForms {
			m := f.pattern.FindStringSubmatch(s)
			if m == nil {
				continue
			}
			field := func(g rune) string {
				if i := strings.IndexRune(f.groups, g); i >= 0 {
					return m[i+1]
				}
				return ""
			}
			num := func(g rune) int { n, _ := strconv.Atoi(field(g)); return n }
			year, month, day := num('y'), num('m'), num('d')
			if name := field('m'); len(name) > 2 {
				month = strings.Index("JanFebMarAprMayJunJulAugSepOctNovDec", name[:3])/3 + 1
			}
			// The patterns bound every field but the day by its month.
			if day > time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
				return time.Time{}, false
			}
			offset := num('h')*60 + num('n')
			if field('s') == "-" {
				offset = -offset
			}
			at := time.Date(year, time.Month(month), day, num('H'), num('M')-offset, 0, 0, time.UTC)
			return at, true
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
