#!/usr/bin/env python3
"""Writes engine/text/unicode/bert_unicode_data.cpp: the Unicode data that BERT's basic tokenizer needs.

Hugging Face's BasicTokenizer asks Python's `unicodedata` and `str` about every character; the C++
port answers from these tables, generated from the same Python so that both agree on every code
point of the Unicode version that Python ships (Debian 12: Python 3.11, Unicode 14.0.0):

  properties        control (category C*, not tab/newline/return), whitespace (what str.split()
                    splits on), punctuation (ASCII symbols and category P*), nonspacing mark (Mn)
  combining classes canonical combining class, for the canonical ordering step of NFD
  lowercase         str.lower() of each single character, as runs of equal offset
  decompositions    full canonical decomposition (NFD) of each character; Hangul syllables are
                    left to the algorithm in the C++ code

Usage: scripts/generate_unicode_tables.py [OUTPUT]   (default: engine/text/unicode/bert_unicode_data.cpp)
"""

import os
import sys
import unicodedata

MAX_CODE_POINT = 0x10FFFF
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3

CONTROL, WHITESPACE, PUNCTUATION, NONSPACING_MARK = 1, 2, 4, 8


def properties(cp):
    char = chr(cp)
    category = unicodedata.category(char)
    bits = 0
    if category.startswith("C") and char not in "\t\n\r":
        bits |= CONTROL
    # The tokenizer maps Zs to a space and then splits with str.split(), which also splits on the
    # line and paragraph separators (and on control characters when cleaning is off).
    if char.isspace() or category == "Zs":
        bits |= WHITESPACE
    # BERT counts every non-alphanumeric printable ASCII character as punctuation.
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        bits |= PUNCTUATION
    if category.startswith("P"):
        bits |= PUNCTUATION
    if category == "Mn":
        bits |= NONSPACING_MARK
    return bits


def property_ranges():
    ranges = []
    previous = None
    for cp in range(MAX_CODE_POINT + 1):
        bits = properties(cp)
        if bits != previous:
            ranges.append((cp << 4) | bits)
            previous = bits
    return ranges


def combining_class_ranges():
    ranges = []
    for cp in range(MAX_CODE_POINT + 1):
        ccc = unicodedata.combining(chr(cp))
        if ccc == 0:
            continue
        if ranges and ranges[-1][1] == cp - 1 and ranges[-1][2] == ccc:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp, ccc])
    return ranges


def lowercase_tables():
    """Single-character mappings as runs (first, count, stride, delta), and the longer ones."""
    singles = []
    expansions = []
    for cp in range(MAX_CODE_POINT + 1):
        lower = chr(cp).lower()
        if lower == chr(cp):
            continue
        if len(lower) == 1:
            singles.append((cp, ord(lower) - cp))
        else:
            assert len(lower) <= 3, hex(cp)
            expansions.append((cp, [ord(c) for c in lower]))
    runs = []  # [first, count, stride, delta]
    for cp, delta in singles:
        if runs:
            first, count, stride, run_delta = runs[-1]
            last = first + (count - 1) * stride
            if run_delta == delta:
                if count == 1 and cp - last in (1, 2):
                    runs[-1] = [first, 2, cp - last, delta]
                    continue
                if count > 1 and cp - last == stride:
                    runs[-1][1] += 1
                    continue
        runs.append([cp, 1, 1, delta])
    return runs, expansions


def decompositions():
    entries = []
    code_points = []
    for cp in range(MAX_CODE_POINT + 1):
        if HANGUL_FIRST <= cp <= HANGUL_LAST:
            continue
        nfd = unicodedata.normalize("NFD", chr(cp))
        if nfd == chr(cp):
            continue
        assert len(nfd) <= 4, hex(cp)
        entries.append((cp, len(code_points), len(nfd)))
        code_points.extend(ord(c) for c in nfd)
    assert len(code_points) < 65536
    return entries, code_points


def hex_lines(values, per_line, width):
    lines = []
    for i in range(0, len(values), per_line):
        chunk = values[i:i + per_line]
        lines.append("    " + " ".join(f"0x{v:0{width}X}," for v in chunk))
    return "\n".join(lines)


def struct_lines(rows, per_line):
    lines = []
    for i in range(0, len(rows), per_line):
        lines.append("    " + " ".join(rows[i:i + per_line]))
    return "\n".join(lines)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    output = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        root, "engine", "text", "bert_unicode_data.cpp")

    ranges = property_ranges()
    ascii = [properties(cp) for cp in range(128)]
    ccc = combining_class_ranges()
    runs, expansions = lowercase_tables()
    entries, code_points = decompositions()
    python = f"{sys.version_info.major}.{sys.version_info.minor}"

    ccc_rows = [f"{{0x{a:05X}, 0x{b:05X}, {c}}}," for a, b, c in ccc]
    run_rows = [f"{{0x{a:05X}, {n}, {s}, {d}}}," for a, n, s, d in runs]
    expansion_rows = []
    for cp, lower in expansions:
        padded = lower + [0] * (3 - len(lower))
        expansion_rows.append(
            f"{{0x{cp:05X}, {{{', '.join(f'0x{c:05X}' for c in padded)}}}, {len(lower)}}},")
    entry_rows = [f"{{0x{cp:05X}, {offset}, {length}}}," for cp, offset, length in entries]

    text = f"""\
// Generated by scripts/generate_unicode_tables.py from Python {python}'s unicodedata (Unicode
// {unicodedata.unidata_version}). Do not edit: change the script and run it again.
#include "engine/text/unicode/bert_unicode_data.h"

namespace ascope::bert_unicode_data {{

const char kUnicodeVersion[] = "{unicodedata.unidata_version}";

// clang-format off
const std::uint8_t kAsciiProperties[128] = {{
{hex_lines(ascii, 16, 1)}
}};

const std::uint32_t kPropertyRanges[] = {{
{hex_lines(ranges, 8, 7)}
}};
const std::size_t kPropertyRangeCount = sizeof(kPropertyRanges) / sizeof(kPropertyRanges[0]);

const CombiningClassRange kCombiningClassRanges[] = {{
{struct_lines(ccc_rows, 4)}
}};
const std::size_t kCombiningClassRangeCount =
    sizeof(kCombiningClassRanges) / sizeof(kCombiningClassRanges[0]);

const LowercaseRun kLowercaseRuns[] = {{
{struct_lines(run_rows, 4)}
}};
const std::size_t kLowercaseRunCount = sizeof(kLowercaseRuns) / sizeof(kLowercaseRuns[0]);

const LowercaseExpansion kLowercaseExpansions[] = {{
{struct_lines(expansion_rows, 1)}
}};
const std::size_t kLowercaseExpansionCount =
    sizeof(kLowercaseExpansions) / sizeof(kLowercaseExpansions[0]);

const Decomposition kDecompositions[] = {{
{struct_lines(entry_rows, 4)}
}};
const std::size_t kDecompositionCount = sizeof(kDecompositions) / sizeof(kDecompositions[0]);

const char32_t kDecompositionCodePoints[] = {{
{hex_lines(code_points, 8, 5)}
}};
// clang-format on

}}  // namespace ascope::bert_unicode_data
"""
    with open(output, "w", encoding="utf-8") as out:
        out.write(text)
    print(f"{output}: {len(ranges)} property ranges, {len(ccc)} combining class ranges, "
          f"{len(runs)} lowercase runs, {len(expansions)} lowercase expansions, "
          f"{len(entries)} decompositions ({len(code_points)} code points)")


if __name__ == "__main__":
    main()
