"""Turn a language model's written answer into words a voice can say.

Piper's espeak front end reads plain digits well ("1990", "3.5", "10:30", "1st") but reads
markdown, symbols and some abbreviations literally: "$5" becomes "dollar five", "3-5" "three dash
five", "km" "K M", "e.g." "E G", and an emoji is read out by its name ("grinning face"). This module
rewrites exactly those, and leaves the numbers themselves to espeak.

Use it on one sentence at a time, after :mod:`audio.sentences` has cut the text: a fenced code block
arrives as one piece and becomes a short phrase instead of being read.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

CODE_BLOCK_PHRASE = "I've left out a code block."
LONG_CODE_PHRASE = "a bit of code"
LINK_PHRASE = "a link"
INLINE_CODE_MAX_CHARS = 40
"""Inline code longer than this is not read out (it is rarely meant for the ear)."""
LONG_STRING_PHRASE = "a long string of characters"
LONGEST_WORD_CHARS = 45
"""The longest word in a major English dictionary ("pneumonoultramicroscopicsilicovolcanoconiosis").
A longer run with no space (a hash, a key, a pasted blob, a runaway template on the announce topic)
is no word: spelled out it took 38 s for 2,000 characters."""

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_N = rf"(?P<n>{_NUMBER})"

# --- block markdown: whole lines -------------------------------------------------------------

_FENCED_CODE = re.compile(r"^[ \t]*(```|~~~).*?(?:^[ \t]*\1[^\n]*$|\Z)", re.M | re.S)
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HORIZONTAL_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_HEADING = re.compile(r"^\s*#{1,6}\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$")
_QUOTE = re.compile(r"^\s*(?:>\s?)+")

# --- inline markdown -------------------------------------------------------------------------

_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_AUTOLINK = re.compile(r"<((?:https?|ftp)://[^>\s]+)>")
_URL = re.compile(r"\b(?:(?:https?|ftp)://|www\.)[^\s<>()\[\]{}\"']+", re.I)
_URL_TRAILING = ".,;:!?"
_INLINE_CODE = re.compile(r"(`+)(.+?)\1")
_UNSPACED_SCRIPT = re.compile("[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\u0e00-\u0e7f]")
"""CJK, kana, Hangul and Thai: their sentences have no spaces, and are words all the same."""
_DASHES = re.compile("[\u2013\u2014\u2015]")
_LONG_RUN = re.compile(rf"\S{{{LONGEST_WORD_CHARS + 1},}}")
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC_STAR = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_ITALIC_UNDERSCORE = re.compile(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_STRIKE = re.compile(r"~~(.+?)~~")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")

_LONE_SURROGATES = re.compile("[\ud800-\udfff]")
_TERMINAL_CODES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, "clear the screen"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: a window title, a hyperlink
    r"|\x1b[ -/]*[0-~]"  # the rest of ECMA-48's escapes
)
"""Terminal escape sequences (pasted from a terminal, or in a model's output): instructions to
a screen, never words ("\\x1b[2J" was said "2 J")."""
_CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""All but tab and the line ends, which the splitting above reads."""

# --- pictographs -----------------------------------------------------------------------------

_PICTOGRAPHS = re.compile(
    "["
    "\U0001f000-\U0001faff"  # emoji, symbols and pictographs, flags, playing cards, mahjong
    "\u2600-\u27bf"  # miscellaneous symbols and dingbats (sun, check marks)
    "\u2b00-\u2bff"  # arrows and stars (a lone star emoji lives here)
    "\u2300-\u23ff"  # watches and hourglasses
    "\u2190-\u2191\u2193-\u21ff"  # arrows other than the right arrow, which is said as "to"
    "\ufe0e\ufe0f\u200d\u20e3"  # variation selectors, joiner, keycap
    "\U000e0020-\U000e007f"  # tag characters (subdivision flags)
    "\u2122\u00ae"  # trade mark signs
    "]+"
)

# --- numbers, units, symbols -----------------------------------------------------------------

_CURRENCIES = {
    "$": ("dollar", "dollars", "cent", "cents"),
    "€": ("euro", "euros", "cent", "cents"),
    "£": ("pound", "pounds", "penny", "pence"),
    "¥": ("yen", "yen", None, None),
}
_SCALES = {
    "k": "thousand",
    "K": "thousand",
    "m": "million",
    "M": "million",
    "bn": "billion",
    "B": "billion",
    "thousand": "thousand",
    "million": "million",
    "billion": "billion",
    "trillion": "trillion",
}
_SCALE = "|".join(sorted(_SCALES, key=len, reverse=True))
_CURRENCY_BEFORE = re.compile(rf"(?P<c>[$€£¥])\s?{_N}(?:\s?(?P<s>{_SCALE})\b)?")
_CURRENCY_AFTER = re.compile(rf"{_N}\s?(?P<c>[€£¥])(?!\w)")

# Unit symbols said in full, singular and plural, longest first so "km/h" wins over "km".
_UNITS: dict[str, tuple[str, str]] = {
    "km/h": ("kilometre per hour", "kilometres per hour"),
    "kph": ("kilometre per hour", "kilometres per hour"),
    "mph": ("mile per hour", "miles per hour"),
    "m/s": ("metre per second", "metres per second"),
    "km²": ("square kilometre", "square kilometres"),
    "m²": ("square metre", "square metres"),
    "m³": ("cubic metre", "cubic metres"),
    "km": ("kilometre", "kilometres"),
    "cm": ("centimetre", "centimetres"),
    "mm": ("millimetre", "millimetres"),
    "m": ("metre", "metres"),
    "mi": ("mile", "miles"),
    "ft": ("foot", "feet"),
    "yd": ("yard", "yards"),
    "kg": ("kilogram", "kilograms"),
    "mg": ("milligram", "milligrams"),
    "g": ("gram", "grams"),
    "lbs": ("pound", "pounds"),
    "lb": ("pound", "pounds"),
    "oz": ("ounce", "ounces"),
    "ml": ("millilitre", "millilitres"),
    "mL": ("millilitre", "millilitres"),
    "l": ("litre", "litres"),
    "L": ("litre", "litres"),
    "kcal": ("kilocalorie", "kilocalories"),
    "hrs": ("hour", "hours"),
    "hr": ("hour", "hours"),
    "h": ("hour", "hours"),
    "mins": ("minute", "minutes"),
    "min": ("minute", "minutes"),
    "secs": ("second", "seconds"),
    "sec": ("second", "seconds"),
    "ms": ("millisecond", "milliseconds"),
    "s": ("second", "seconds"),
    "kHz": ("kilohertz", "kilohertz"),
    "MHz": ("megahertz", "megahertz"),
    "GHz": ("gigahertz", "gigahertz"),
    "Hz": ("hertz", "hertz"),
    "kWh": ("kilowatt hour", "kilowatt hours"),
    "kW": ("kilowatt", "kilowatts"),
    "W": ("watt", "watts"),
    "mAh": ("milliamp hour", "milliamp hours"),
    "V": ("volt", "volts"),
    "KB": ("kilobyte", "kilobytes"),
    "kB": ("kilobyte", "kilobytes"),
    "MB": ("megabyte", "megabytes"),
    "GB": ("gigabyte", "gigabytes"),
    "TB": ("terabyte", "terabytes"),
}
_UNIT = "|".join(re.escape(unit) for unit in sorted(_UNITS, key=len, reverse=True))
_NUMBER_UNIT = re.compile(rf"(?<![\w.]){_N}\s?(?P<u>{_UNIT})(?![\w/²³])")
_TEMPERATURE = re.compile(rf"{_N}\s?°\s?(?P<scale>[CF])?(?![A-Za-z])")
_PERCENT = re.compile(rf"{_N}\s?%")
_RANGE = re.compile(
    rf"(?<![\w.,-])(?P<a>{_NUMBER})(?:-|\s?[\u2013\u2014]\s?)(?P<b>{_NUMBER})(?![\d-]|\.\d)"
)
_MINUS = re.compile(rf"(?:(?<![\w.,)])-|\u2212)(?=(?:{_NUMBER}))")
_ISO_DATE = re.compile(r"\b(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b")
_DECADE = re.compile(r"(?<![\w'\u2019])['\u2019]?(?P<century>\d{2})?(?P<tens>\d)0s\b")
_THOUSANDS_K = re.compile(rf"(?<![\w.]){_N}k\b")
_DIMENSIONS = re.compile(rf"(?<![\w.])(?P<a>{_NUMBER})\s?x\s?(?P<b>{_NUMBER})(?![\w.])")
_TIMES = re.compile(rf"(?<![\w.]){_N}x\b")
_FRACTION = re.compile(r"(?<![\w/.])(?P<a>\d{1,3})/(?P<b>\d{1,3})(?![\w/]|\.\d)")
_HASH_NUMBER = re.compile(r"(?<!\w)#(?=\d)")
_NUMBER_ABBREVIATION = re.compile(r"\b[Nn]o\.\s?(?=\d)")
_LEADING_DECIMAL = re.compile(r"(?<![\w.])\.(?=\d)")
_APPROXIMATELY = re.compile(rf"~\s?(?=(?:{_NUMBER}))")
_LETTER_DIGIT_HYPHEN = re.compile(r"(?<=[A-Za-z])-(?=\d)")
_SHARP = re.compile(r"\b([CF])#")

_MONTHS = (
    "January February March April May June July August September October November December"
).split()
_DECADES = {
    "1": "tens",
    "2": "twenties",
    "3": "thirties",
    "4": "forties",
    "5": "fifties",
    "6": "sixties",
    "7": "seventies",
    "8": "eighties",
    "9": "nineties",
}
_FRACTIONS = {
    "1/2": "one half",
    "1/3": "one third",
    "2/3": "two thirds",
    "1/4": "one quarter",
    "3/4": "three quarters",
    "24/7": "24 7",
}
_OUT_OF = frozenset({"5", "10", "100"})
"""Denominators that mark a rating or a score: "8/10" is "8 out of 10"."""

# Abbreviations espeak spells out letter by letter; matched case-insensitively, first letter's case
# kept so a sentence that starts with "E.g." starts with "For example".
_ABBREVIATIONS = {
    r"e\.\s?g\.": "for example",
    r"i\.\s?e\.": "that is",
    r"vs\.?": "versus",
    r"approx\.": "approximately",
    r"w/o": "without",
    r"and/or": "and or",
}
_ABBREVIATION = re.compile(r"(?<![\w.])(" + "|".join(_ABBREVIATIONS) + r")(?![\w])", re.IGNORECASE)

_SYMBOLS = (
    (re.compile(r"\s*(?:→|->|=>)\s*"), " to "),
    (re.compile(r"\s*[\u2014\u2015]\s*|\s+\u2013\s+"), ", "),  # dashes as pauses
    (re.compile(r"≤\s?"), "at most "),
    (re.compile(r"≥\s?"), "at least "),
    (re.compile(r"(?<![<\w])<\s?(?=\d)"), "less than "),
    (re.compile(r"(?<![>\w-])>\s?(?=\d)"), "more than "),
    (re.compile(r"²"), " squared"),
    (re.compile(r"³"), " cubed"),
    (re.compile(r"…"), "..."),
    (re.compile(r"[*_#|`~^\\]+"), " "),
)
_SPACE = re.compile(r"[ \t\u00a0]+")
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+([,.;:!?])")
_ENDS_CLAUSE = re.compile(r"[.!?:;…]['\")\]]*$")


def speakable(text: str) -> str:
    """What a voice should say for ``text``: markdown, code, links and emoji gone, units said.

    Lines are kept as separate sentences (a heading or a list item gains a full stop so the voice
    pauses after it); the result is one line of plain text, empty when nothing is left to say.
    Lone surrogates (half an emoji from a model's ``\\ud83d`` escape, or bytes that were not
    UTF-8) and control characters (a ``\\u0000`` in a model's JSON) are dropped: no voice can
    say them, and Piper fails on the whole sentence.
    """
    text = _LONE_SURROGATES.sub("", text)
    text = _TERMINAL_CODES.sub("", text)
    text = _CONTROL_CHARACTERS.sub(" ", text)
    text = _FENCED_CODE.sub(f"\n{CODE_BLOCK_PHRASE}\n", text)
    lines = (_speakable_line(line) for line in text.splitlines())
    return " ".join(line for line in lines if line)


def _speakable_line(line: str) -> str:
    if _TABLE_RULE.match(line) or _HORIZONTAL_RULE.match(line):
        return ""
    line = _QUOTE.sub("", line)
    is_item = False
    if heading := _HEADING.match(line):
        line, is_item = heading.group(1), True
    elif line.strip().startswith("|") and line.count("|") >= 2:
        cells = (cell.strip() for cell in line.strip().strip("|").split("|"))
        line, is_item = ", ".join(cell for cell in cells if cell), True
    elif bullet := _BULLET.match(line):
        line, is_item = bullet.group(1), True
    line = _say_inline(line)
    if is_item and line and not _ENDS_CLAUSE.search(line):
        line += "."
    return line


def _say_inline(text: str) -> str:
    text = _IMAGE.sub(lambda m: m.group(1), text)
    text = _LINK.sub(_say_link, text)
    text = _AUTOLINK.sub(lambda m: _say_url(m.group(1)), text)
    text = _URL.sub(_say_bare_url, text)
    text = _INLINE_CODE.sub(_say_inline_code, text)
    text = _HTML_TAG.sub(" ", text)
    text = _LONG_RUN.sub(_say_long_run, text)
    text = _BOLD.sub(r"\2", text)
    text = _STRIKE.sub(r"\1", text)
    text = _ITALIC_STAR.sub(r"\1", text)
    text = _ITALIC_UNDERSCORE.sub(r"\1", text)
    text = _PICTOGRAPHS.sub(" ", text)
    text = _say_numbers(text)
    text = _ABBREVIATION.sub(_say_abbreviation, text)
    for pattern, replacement in _SYMBOLS:
        text = pattern.sub(replacement, text)
    text = _SPACE.sub(" ", text).strip()
    return _SPACE_BEFORE_PUNCTUATION.sub(r"\1", text)


def _say_link(match: re.Match[str]) -> str:
    label, target = match.group(1).strip(), match.group(2)
    if _URL.fullmatch(label) or label == target:
        return _say_url(label)
    return label


def _say_bare_url(match: re.Match[str]) -> str:
    url = match.group(0)
    stripped = url.rstrip(_URL_TRAILING)
    return _say_url(stripped) + url[len(stripped) :]


def _say_url(url: str) -> str:
    """A web address said as its site ("example.com"), or "a link" when it has none."""
    if not re.match(r"[a-z]+://", url, re.I):
        url = "http://" + url
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        host = ""
    host = host.removeprefix("www.")
    return host if "." in host else LINK_PHRASE


def _say_inline_code(match: re.Match[str]) -> str:
    code = match.group(2).strip()
    return code if len(code) <= INLINE_CODE_MAX_CHARS else LONG_CODE_PHRASE


def _say_long_run(match: re.Match[str]) -> str:
    run = match.group(0)
    if _UNSPACED_SCRIPT.search(run) or _DASHES.search(run):
        return run  # a sentence in a script written without spaces, or words joined by dashes
    word = run.rstrip(_URL_TRAILING + "'\")]")
    return run if len(word) <= LONGEST_WORD_CHARS else LONG_STRING_PHRASE + run[len(word) :]


def _say_abbreviation(match: re.Match[str]) -> str:
    found = match.group(1)
    key = next(p for p in _ABBREVIATIONS if re.fullmatch(p, found, re.IGNORECASE))
    words = _ABBREVIATIONS[key]
    return words[0].upper() + words[1:] if found[0].isupper() else words


def _say_numbers(text: str) -> str:
    text = _ISO_DATE.sub(_say_iso_date, text)
    text = _DECADE.sub(_say_decade, text)
    text = _CURRENCY_BEFORE.sub(_say_currency, text)
    text = _CURRENCY_AFTER.sub(_say_currency, text)
    text = _LEADING_DECIMAL.sub("0.", text)
    text = _FRACTION.sub(_say_fraction, text)
    text = _RANGE.sub(r"\g<a> to \g<b>", text)
    text = _LETTER_DIGIT_HYPHEN.sub(" ", text)
    text = _MINUS.sub("minus ", text)
    text = _TEMPERATURE.sub(_say_temperature, text)
    text = _PERCENT.sub(r"\g<n> percent", text)
    text = _NUMBER_UNIT.sub(_say_unit, text)
    text = _THOUSANDS_K.sub(r"\g<n> thousand", text)
    text = _DIMENSIONS.sub(r"\g<a> by \g<b>", text)
    text = _TIMES.sub(r"\g<n> times", text)
    text = _APPROXIMATELY.sub("about ", text)
    text = _HASH_NUMBER.sub("number ", text)
    text = _NUMBER_ABBREVIATION.sub("number ", text)
    return _SHARP.sub(r"\1 sharp", text)


def _is_one(number: str) -> bool:
    return number == "1"


def _say_iso_date(match: re.Match[str]) -> str:
    year, month, day = match.groups()
    return f"{int(day)} {_MONTHS[int(month) - 1]} {year}"


def _say_decade(match: re.Match[str]) -> str:
    century, tens = match.group("century"), match.group("tens")
    if tens == "0":
        if century is None:
            return match.group(0)
        return "two thousands" if century == "20" else f"{century} hundreds"
    return f"{century} {_DECADES[tens]}" if century else _DECADES[tens]


def _say_currency(match: re.Match[str]) -> str:
    one, many, one_cent, many_cents = _CURRENCIES[match.group("c")]
    number = match.group("n")
    scale = match.groupdict().get("s")
    if scale:
        return f"{number} {_SCALES[scale]} {many}"
    whole, _, cents = number.partition(".")
    unit = one if _is_one(whole) else many
    if len(cents) == 2 and one_cent is not None:
        cent_words = f"{int(cents)} {one_cent if cents == '01' else many_cents}"
        if cents == "00":
            return f"{whole} {unit}"
        return cent_words if whole == "0" else f"{whole} {unit} and {cent_words}"
    return f"{number} {one if _is_one(number) else many}"


def _say_fraction(match: re.Match[str]) -> str:
    whole = match.group(0)
    if whole in _FRACTIONS:
        return _FRACTIONS[whole]
    if match.group("b") in _OUT_OF and int(match.group("a")) <= int(match.group("b")):
        return f"{match.group('a')} out of {match.group('b')}"
    return whole


def _say_temperature(match: re.Match[str]) -> str:
    number = match.group("n")
    degrees = "degree" if _is_one(number) else "degrees"
    scale = {"C": " Celsius", "F": " Fahrenheit", None: ""}[match.group("scale")]
    return f"{number} {degrees}{scale}"


def _say_unit(match: re.Match[str]) -> str:
    one, many = _UNITS[match.group("u")]
    number = match.group("n")
    return f"{number} {one if _is_one(number) else many}"
