#!/usr/bin/env python3
"""Writes tests/fixtures/hf/bert_tokenizer_cases.json: inputs and what Hugging Face's own Python
BertTokenizer makes of them with the bert-base-uncased vocabulary, for the C++ tokenizer's parity
test (tests/data/text/bert_tokenizer_cases_test.cpp).

Needs the transformers sources (4.26) and no network:

  PYTHONPATH=/path/to/hf/site HF_HUB_OFFLINE=1 python3 scripts/generate_bert_tokenizer_cases.py

The tokenizer is built from tests/fixtures/hf/bert-base-uncased.vocab.txt as from_pretrained
builds it (the special tokens registered as never split), without the fast `tokenizers` package.
"""

import json
import os
import sys

import transformers
from transformers import BertTokenizer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "hf")

LONG_REVIEW = (
    "I rented I AM CURIOUS-YELLOW from my video store because of all the controversy that "
    "surrounded it when it was first released in 1967. I also heard that at first it was seized "
    "by U.S. customs if it ever tried to enter this country, therefore being a fan of films "
    "considered \"controversial\" I really had to see this for myself.<br /><br />The plot is "
    "centered around a young Swedish drama student named Lena who wants to learn everything she "
    "can about life. In particular she wants to focus her attentions to making some sort of "
    "documentary on what the average Swede thought about certain political issues such as the "
    "Vietnam War and race issues in the United States. 10/10 wouldn't watch again... :-)"
)

SINGLE_TEXTS = [
    "",
    "   ",
    "Hello, world!",
    "The quick brown fox jumps over the lazy dog.",
    "unaffable playing jumped quickly",
    "I can't believe it's not butter! You're, we've, I'm; they'll",
    "Numbers: 3.14159, 1,000,000 and 42nd / 7th; 2024-01-31 12:30",
    "e-mail foo.bar@example.com, url https://example.com/a?b=1&c=2#d",
    "$100 £5 €3 ¥7 ^caret `tick` |pipe| ~tilde \\back {brace} <angle> _under_",
    "Hello!!! ... ---- ¿Qué? ¡Sí! «quotes» “curly” ‘single’ — em dash … ellipsis",
    # Accents: stripped after NFD (precomposed and combining forms alike)
    "Café naïve résumé Ångström façade jalapeño Führer",
    "Cafe\u0301 nai\u0308ve e\u0301\u0301\u0301",
    "Zażółć gęślą jaźń; Ελληνικά; Tiếng Việt; Türkçe; Čeština",
    "İstanbul DİYARBAKIR ısparta",
    "ΟΔΥΣΣΕΥΣ ΟΔΟΣ. Σ σ ς",
    "ǅemal ǆ Ⅻ ⅻ K Å ﬁ ﬀ ẞ ß",
    "ＡＢＣ１２３ full-width ｶﾀｶﾅ",
    "a\u1fefb a\u037eb \u0340x",
    "\U0001d15e\U0001d16d\U0001d165 x\u0345\u0301y",
    # CJK ideographs become single words, other Asian scripts do not
    "我想在apple工作1314151天～",
    "中文字符 漢字 𠀀𪜀 豈 丽",
    "ひらがな カタカナ 日本語の文章です。",
    "한국어 텍스트 안녕하세요",
    "。、「」『』【】〜・",
    # Other scripts
    "ПРИВЕТ МИР привет мир",
    "مرحبا بالعالم עברית हिन्दी ภาษาไทย",
    "ქართული Հայերեն ᏣᎳᎩ",
    # Emoji and symbols
    "😀🎉 👍🏽 ❤️ 👨‍👩‍👧 🇮🇹 ✅ ☃ ★ ♥",
    "🚀 (normal) 😶\u200d🌫️ (multiple emojis concatenated)",
    "x² H₂O ½ ¼ ™ © ® ° µ",
    # Control, format and whitespace characters
    "a\x00b c\x07d tab\tnew\nline\r\nend",
    "zero\u200bwidth soft\u00adhyphen joiner\u200dx bom\ufeffy",
    "replacement \ufffd char\ufffd",
    "line\u2028sep para\u2029sep nb\u00a0sp ideo\u3000sp thin\u2009sp",
    "vt\x0bff\x0cfs\x1cgs\x1dnel\x85end",
    "private\ue000use unassigned\U000e0080x \U0010fffd",
    "\x01\x02\x03 \t\n ",
    # Long words: more than 100 characters become [UNK] as a whole
    "a" * 100,
    "a" * 101,
    "é" * 101,
    "e\u0301" * 60,
    "supercalifragilisticexpialidocious" * 3,
    "short " + "x" * 150 + " tail",
    # Special tokens in the raw text
    "Test sentence with [MASK].",
    "a[MASK]b [mask] [CLS] x [SEP] [UNK] [PAD][PAD]",
    "[MASK [MASK]] ][ [[SEP]]",
    LONG_REVIEW,
]

PAIRS = [
    ("How old are you?", "I am 6 years old"),
    ("The cat sat on the mat.", "Le chat était assis sur le tapis."),
    ("", "only the second"),
    ("only the first", ""),
    ("我想在apple工作", "😀 naïve"),
]

# (text, text_pair, options): truncation, padding and special tokens.
OPTION_CASES = [
    (LONG_REVIEW, None, {"max_length": 16, "truncation": True}),
    (LONG_REVIEW, None, {"max_length": 16, "truncation": True, "padding": "max_length"}),
    ("Hello, world!", None, {"max_length": 12, "truncation": True, "padding": "max_length"}),
    ("Hello, world!", None, {"max_length": 3, "truncation": True}),
    ("Hello, world!", None, {"add_special_tokens": False}),
    ("Hello, world!", None, {"add_special_tokens": False, "max_length": 2, "truncation": True}),
    ("How old are you?", "I am 6 years old", {"max_length": 10, "truncation": True}),
    ("How old are you?", "I am 6 years old", {"max_length": 8, "truncation": True}),
    ("How old are you?", "I am 6 years old", {"max_length": 5, "truncation": True}),
    ("How old are you?", "I am 6 years old", {"max_length": 3, "truncation": True}),
    ("a b c d e f g h", "i j", {"max_length": 9, "truncation": True}),
    ("a b", "c d e f g h i j", {"max_length": 9, "truncation": True}),
    ("a b c d", "e f g h", {"max_length": 8, "truncation": True}),
    ("How old are you?", "I am 6 years old",
     {"max_length": 20, "truncation": True, "padding": "max_length"}),
    (LONG_REVIEW, "Was it good? " * 20,
     {"max_length": 32, "truncation": True, "padding": "max_length"}),
    ("How old are you?", "I am 6 years old", {"add_special_tokens": False}),
    ("How old are you?", "I am 6 years old",
     {"add_special_tokens": False, "max_length": 6, "truncation": True,
      "padding": "max_length"}),
]


def make_tokenizer():
    tokenizer = BertTokenizer(
        vocab_file=os.path.join(FIXTURES, "bert-base-uncased.vocab.txt"))
    # from_pretrained's last step: the special tokens become tokens that are never split.
    tokenizer.sanitize_special_tokens()
    return tokenizer


def run_case(tokenizer, text, text_pair, options):
    encoded = tokenizer(text, text_pair, **options)
    ids = encoded["input_ids"]
    return {
        "text": text,
        "text_pair": text_pair,
        "options": options,
        "ids": ids,
        "tokens": tokenizer.convert_ids_to_tokens(ids),
        "token_type_ids": encoded["token_type_ids"],
        "attention_mask": encoded["attention_mask"],
        "decoded": tokenizer.decode(ids),
        "decoded_skipping_special": tokenizer.decode(ids, skip_special_tokens=True),
    }


def main():
    tokenizer = make_tokenizer()
    cases = []
    for text in SINGLE_TEXTS:
        cases.append(run_case(tokenizer, text, None, {}))
    for text, pair in PAIRS:
        cases.append(run_case(tokenizer, text, pair, {}))
    for text, pair, options in OPTION_CASES:
        cases.append(run_case(tokenizer, text, pair, options))

    output = os.path.join(FIXTURES, "bert_tokenizer_cases.json")
    document = {
        "generator": "scripts/generate_bert_tokenizer_cases.py",
        "transformers": transformers.__version__,
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
        "vocab": "bert-base-uncased.vocab.txt",
        "cases": cases,
    }
    with open(output, "w", encoding="ascii") as out:
        json.dump(document, out, indent=1, ensure_ascii=True)
        out.write("\n")
    print(f"{output}: {len(cases)} cases (transformers {transformers.__version__})")


if __name__ == "__main__":
    main()
