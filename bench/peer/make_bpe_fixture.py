"""Writes tests/data/fixtures/bpe_*: a byte-level BPE that Karpathy's minbpe trains on the start
of the Shakespeare corpus, and what tiktoken encodes with it, for attic's BpeTokenizer tests
(tests/data/test_bpe.cpp), which never run Python. Then it times tiktoken encoding the corpus.

    git clone https://github.com/karpathy/minbpe /tmp/minbpe    # not a package: any checkout
    build/peer-venv/bin/python bench/peer/make_bpe_fixture.py --minbpe /tmp/minbpe
    build/peer-venv/bin/python bench/peer/make_bpe_fixture.py --bench-ranks FILE  # timing only

It needs tiktoken and regex in the venv (pip install tiktoken regex) and downloads nothing:
the encodings are built from the ranks trained here. It writes
  bpe_ranks.tiktoken      the ranks, in tiktoken's rank-file format (base64 token, rank)
  bpe_encoder.json,       the same tokenizer in GPT-2's own files (data-gym format, which numbers
  bpe_vocab.bpe           the 256 bytes in bytes_to_unicode's order), read back by tiktoken here
  bpe_torture.bin         a text of whitespace runs, contractions, numbers, punctuation, emoji,
                          CJK, Arabic, Devanagari, combining marks and <|endoftext|>s, in UTF-8
  bpe_invalid_utf8.bin    bytes that are not valid UTF-8, and random bytes
  bpe_expected.json       minbpe's merges in order; tiktoken's ids for the torture text with
                          encode(text, allowed_special="all") and encode_ordinary; the reference
                          ids of the invalid bytes (below); the ids under the GPT-2 files' ranks;
                          the number of tokens of the whole corpus and their FNV-1a checksum
tiktoken's encode takes a str, so for bytes that are not UTF-8 the reference decodes them with
errors="surrogateescape" (each invalid byte a lone surrogate), splits the string with the regex
module and GPT-2's pattern, and encodes each piece's bytes with Encoding._encode_single_piece;
on valid text that reference must equal encode_ordinary, which is asserted.

The timing is single-threaded tiktoken encode_ordinary of all of data/shakespeare_char/input.txt,
best of ROUNDS, with the ranks trained here or, with --bench-ranks, a rank file (a .tiktoken
file, or one that attic's BpeTokenizer::save wrote).
"""
import argparse
import base64
import json
import os
import random
import struct
import sys
import time
import unicodedata

os.environ["TIKTOKEN_CACHE_DIR"] = ""  # tiktoken.load caches files by path; these change
import regex  # noqa: E402
import tiktoken  # noqa: E402
import tiktoken.load  # noqa: E402
from tiktoken_ext.openai_public import r50k_pat_str  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CORPUS = os.path.join(ROOT, "data", "shakespeare_char", "input.txt")
OUT = os.path.join(ROOT, "tests", "data", "fixtures")
# OpenAI's gpt-2, src/encoder.py; tiktoken's r50k_pat_str is the same split, written with
# possessive quantifiers.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
TRAIN_BYTES = 100_000
MINBPE_VOCAB = 512  # minbpe counts the 256 bytes and the merges; attic adds <|endoftext|>: 513
ENDOFTEXT = "<|endoftext|>"
# Unicode's White_Space property: \s in Rust's regex crate (tiktoken) and in the regex module
WHITE_SPACE = [*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029,
               0x202F, 0x205F, 0x3000]
ROUNDS = 5


def torture_text(corpus):
    """Shakespeare from far past the training slice, then every corner of the pattern."""
    excerpt = corpus[500_000:501_500]
    return excerpt + "".join([
        # white space: runs before words, at line ends, tabs, CR LF, blank lines, NBSP, U+3000
        "a  b   c\t\td \t e\n\n\nf   \n  g\r\n h \u00a0i\u3000j\u2003k  \u00a0 l\u2028m\u0085n\n",
        "\x0b\x0c vertical \x1c\x1d\x1e\x1f separators\u200bzero-width\n",
        "    indented\n\t\ttabbed\n \n  \n   \n",
        # contractions, and the capitals and doubles the pattern does not catch
        "it's don't they're we've I'm you'll he'd IT'S DON'T WE'VE 'S 'T 'Re ''s '''ll 's' ",
        "rock'n'roll o'clock 'tis 'twas ma'am y'all' 'd'd 'lll 'ree\n",
        # numbers
        "0 1 12 123 1234 3.14159 1,000,000 2024-01-01 12345678901234567890 007 x1y2 a1 1a ",
        "\u00bd \u00b2 \u216b \u0663\u0664\u0665 \u0967\u0968\u0969 \uff11\uff12 $100.00 +1e-9\n",
        # punctuation runs
        "!!! ??? ... --- ,,, ;;: @#$%^&*() [] {} <> \\ / | ~ `` \"\" \u00ab\u00bb \u2014 \u2013 ",
        "e.g. U.S.A. ...and... (parenthesis) \"quoted,\" he said; -- dash --\n",
        # emoji, with modifiers, variation selectors and ZWJ sequences
        "\U0001F600 \U0001F44D\U0001F3FD \U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466 ",
        "\U0001F3F3\ufe0f\u200d\U0001F308 \u2764\ufe0f hi\U0001F600there \U0001F600\U0001F600\n",
        # CJK, Hangul, Arabic, Devanagari, Greek, Cyrillic
        "\u6f22\u5b57\u304b\u306a\u30ab\u30ca\ud55c\uad6d\uc5b4 \u4e2d\u6587\u6d4b\u8bd5\u3002",
        "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645 ",
        "\u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e ",
        "\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac \u0420\u0443\u0441\u0441\u043a\u0438\u0439\n",
        # combining marks, precomposed and not
        "e\u0301 cafe\u0301 caf\u00e9 n\u0303 a\u0308\u0304 \u0301alone\n",
        # the special token inside text, twice in a row, at the edges of words, half written
        "foo<|endoftext|>bar <|endoftext|> <|endoftext|><|endoftext|>\n<|endoftext|",
        " <|endoftext> <|endoftext|>'s 12<|endoftext|>34",
        # long pieces (tiktoken merges those of 100 bytes or more with a heap)
        "\n" + "a" * 1000 + " " + "ab" * 500 + " " * 300 + "x" + "1" * 400 + " " + "!" * 256,
        # the end: trailing spaces
        "\nthe end   ",
    ])


def invalid_bytes():
    """Bytes that are not UTF-8 next to letters, numbers, spaces and contractions, and random
    bytes."""
    crafted = (b"abc\xff def \xc3( \xe2\x82 end \xed\xa0\x80 surrogate \xf4\x90\x80\x80 big "
               b"\xc0\xaf overlong \x80\x80 cont \xf0\x9f\x98 cut \xf0\x9f\x98\x80 ok "
               b"don\xff't \xff's \xff\xfe  \xff a\xffb 1\xff2 \xff\n\n \xe9t\xe9 \xe9\xe9 "
               b"'\xff <|endoftext|>\xff \xe2")
    rng = random.Random(0)
    return crafted + bytes(rng.randrange(256) for _ in range(3000))


def reference_pieces(data):
    """data [bytes] -> the GPT-2 pieces as bytes: a lone surrogate for each invalid byte."""
    text = data.decode("utf-8", "surrogateescape")
    return [p.encode("utf-8", "surrogateescape") for p in regex.findall(GPT2_PATTERN, text)]


def reference_ordinary(enc, data):
    return [t for piece in reference_pieces(data) for t in enc._encode_single_piece(piece)]


def bytes_to_unicode():
    """GPT-2's encoder.py: a printable character for each byte."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


def write_gpt2_files(vocab, merges, encoder_path, vocab_bpe_path):
    """encoder.json and vocab.bpe of minbpe's tokenizer, as data-gym wrote GPT-2's: the single
    bytes ranked in bytes_to_unicode's order, then the merges. Returns those ranks."""
    b2u = bytes_to_unicode()
    chars = lambda token: "".join(b2u[b] for b in token)  # noqa: E731
    ranks = {bytes([b]): r for r, b in enumerate(b2u)}
    for (a, b), idx in sorted(merges.items(), key=lambda kv: kv[1]):
        ranks[vocab[idx]] = len(ranks)
    encoder = {chars(t): r for t, r in ranks.items()}
    encoder[ENDOFTEXT] = len(ranks)
    with open(encoder_path, "w", encoding="utf-8") as f:
        json.dump(encoder, f, ensure_ascii=False)
    with open(vocab_bpe_path, "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n")
        for (a, b), idx in sorted(merges.items(), key=lambda kv: kv[1]):
            f.write(chars(vocab[a]) + " " + chars(vocab[b]) + "\n")
    back = tiktoken.load.data_gym_to_mergeable_bpe_ranks(vocab_bpe_path, encoder_path)
    assert back == ranks, "tiktoken reads the GPT-2 files back to other ranks"
    return ranks


def write_tiktoken_file(ranks, path):
    """tiktoken.load.dump_tiktoken_bpe's format (it needs blobfile, so written here)."""
    with open(path, "wb") as f:
        for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
            f.write(base64.b64encode(token) + b" " + str(rank).encode() + b"\n")
    assert tiktoken.load.load_tiktoken_bpe(path) == ranks


def encoding(ranks, pattern=GPT2_PATTERN):
    return tiktoken.Encoding(name="attic_bpe_fixture", pat_str=pattern, mergeable_ranks=ranks,
                             special_tokens={ENDOFTEXT: len(ranks)})


def check_unicode_classes(text):
    """Every character of text is a letter, number or space alike for unicodedata (attic's
    tables) and the regex module (the reference's splitter); prints where they differ at all."""
    cat = lambda c: unicodedata.category(c)[0]  # noqa: E731
    for c in set(text):
        assert (cat(c) == "L") == bool(regex.match(r"\p{L}", c)), f"U+{ord(c):04X}"
        assert (cat(c) == "N") == bool(regex.match(r"\p{N}", c)), f"U+{ord(c):04X}"
    differ = {cls: [c for c in range(sys.maxunicode + 1)
                    if (unicodedata.category(chr(c))[0] == cls) != bool(regex.match(rf"\p{{{cls}}}", chr(c)))]
              for cls in "LN"}
    print(f"unicodedata (Unicode {unicodedata.unidata_version}) and regex {regex.__version__} differ "
          f"on {len(differ['L'])} letters and {len(differ['N'])} numbers (code points assigned since)")
    spaces = [c for c in range(sys.maxunicode + 1) if regex.match(r"\s", chr(c))]
    assert spaces == WHITE_SPACE, "regex's \\s is not Unicode's White_Space"


def fnv1a(ids):
    """FNV-1a, 64 bits (util/fnv1a.h), of the ids as 8-byte little-endian integers."""
    h = 0xCBF29CE484222325
    for byte in struct.pack(f"<{len(ids)}q", *ids):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def bench(ranks, corpus):
    enc = encoding(ranks)
    best = float("inf")
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        ids = enc.encode_ordinary(corpus)
        best = min(best, time.perf_counter() - t0)
    print(f"tiktoken {tiktoken.__version__} encode_ordinary, {len(ranks) + 1} ids, "
          f"{len(corpus.encode())} bytes -> {len(ids)} tokens: best of {ROUNDS} {best * 1e3:.1f} ms, "
          f"{len(ids) / best / 1e6:.2f} M tokens/s (one thread)")


def read_rank_file(path):
    """A .tiktoken file, or attic's saved form (its header line, then the same lines)."""
    lines = open(path, "rb").read().splitlines()
    if lines and lines[0].startswith(b"attic-bpe"):
        lines = lines[1:]
    return {base64.b64decode(t): int(r) for t, r in (line.split() for line in lines if line)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minbpe", help="a checkout of github.com/karpathy/minbpe")
    parser.add_argument("--bench-ranks", help="only time tiktoken with this rank file")
    args = parser.parse_args()
    corpus = open(CORPUS, encoding="utf-8").read()
    if args.bench_ranks:
        bench(read_rank_file(args.bench_ranks), corpus)
        return
    if not args.minbpe:
        parser.error("--minbpe FOLDER is needed to write the fixtures")
    sys.path.insert(0, args.minbpe)
    from minbpe import RegexTokenizer

    tok = RegexTokenizer(GPT2_PATTERN)
    t0 = time.perf_counter()
    tok.train(corpus[:TRAIN_BYTES], MINBPE_VOCAB)
    print(f"minbpe trained vocab {MINBPE_VOCAB} on {TRAIN_BYTES} bytes in {time.perf_counter() - t0:.1f} s")
    ranks = {t: i for i, t in tok.vocab.items()}
    assert len(ranks) == len(tok.vocab), "minbpe made one token twice"
    merges = [list(p) for p, _ in sorted(tok.merges.items(), key=lambda kv: kv[1])]

    os.makedirs(OUT, exist_ok=True)
    write_tiktoken_file(ranks, os.path.join(OUT, "bpe_ranks.tiktoken"))
    gpt2_ranks = write_gpt2_files(tok.vocab, tok.merges, os.path.join(OUT, "bpe_encoder.json"),
                                  os.path.join(OUT, "bpe_vocab.bpe"))

    enc = encoding(ranks)
    text = torture_text(corpus)
    check_unicode_classes(text)
    special = enc.encode(text, allowed_special="all")
    ordinary = enc.encode_ordinary(text)
    assert encoding(ranks, r50k_pat_str).encode(text, allowed_special="all") == special
    assert encoding(ranks, r50k_pat_str).encode_ordinary(text) == ordinary
    assert reference_ordinary(enc, text.encode()) == ordinary, "the reference is not tiktoken's"
    assert special.count(len(ranks)) == text.count(ENDOFTEXT)
    invalid = invalid_bytes()
    assert enc.decode_bytes(reference_ordinary(enc, invalid)) == invalid
    gpt2_ordinary = encoding(gpt2_ranks).encode_ordinary(text)
    shakespeare = enc.encode_ordinary(corpus)
    assert len(gpt2_ordinary) == len(ordinary)

    with open(os.path.join(OUT, "bpe_torture.bin"), "wb") as f:
        f.write(text.encode())
    with open(os.path.join(OUT, "bpe_invalid_utf8.bin"), "wb") as f:
        f.write(invalid)
    expected = {
        "made_by": (f"bench/peer/make_bpe_fixture.py: minbpe RegexTokenizer, tiktoken "
                    f"{tiktoken.__version__}, regex {regex.__version__}, Unicode "
                    f"{unicodedata.unidata_version}"),
        "train_bytes": TRAIN_BYTES,
        "vocab_size": MINBPE_VOCAB + 1,
        "minbpe_merges": merges,
        "torture_special": special,
        "torture_ordinary": ordinary,
        "invalid_ordinary": reference_ordinary(enc, invalid),
        "gpt2_files_torture_ordinary": gpt2_ordinary,
        "shakespeare_tokens": len(shakespeare),
        "shakespeare_fnv1a": fnv1a(shakespeare),
    }
    with open(os.path.join(OUT, "bpe_expected.json"), "w", encoding="ascii") as f:
        json.dump(expected, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {os.path.normpath(OUT)}/bpe_*: {len(merges)} merges, torture text "
          f"{len(text.encode())} bytes -> {len(special)} tokens, {len(invalid)} invalid bytes")
    bench(ranks, corpus)


if __name__ == "__main__":
    main()
