// BpeTokenizer against its originals, through the fixtures of bench/peer/make_bpe_fixture.py:
// minbpe's merges, tiktoken's ids (torture text, bytes that are not UTF-8, the whole corpus),
// GPT-2's and tiktoken's file formats; then round trips, save and load, and every bad input.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "data/bpe.h"
#include "data/data.h"
#include "helpers.h"
#include "util/files.h"
#include "util/fnv1a.h"
#include "util/json.h"
#include "util/utf8.h"

using namespace attic;
using attic::testing::error_message;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string& name) {
  return std::string(ATTIC_SOURCE_DIR) + "/tests/data/fixtures/" + name;
}
std::string read(const std::string& path) { return util::read_text_file(path, "fixture"); }

const json::Value& expected() {
  static const json::Value v = json::parse(read(fixture("bpe_expected.json")));
  return v;
}
std::vector<int64_t> expected_ids(const std::string& key) {
  std::vector<int64_t> ids;
  for (const json::Value& id : expected().at(key).as_array()) ids.push_back(id.as_int());
  return ids;
}

// The fixture's tokenizer: 256 bytes and 256 merges that minbpe trained, <|endoftext|> = 512.
const BpeTokenizer& fixture_tokenizer() {
  static const BpeTokenizer tok = BpeTokenizer::from_tiktoken_file(fixture("bpe_ranks.tiktoken"));
  return tok;
}

std::string shakespeare() { return read(default_dataset_path()); }

// A fresh folder under the system temp dir, removed at the end of the test.
struct ScratchDir {
  fs::path dir =
      fs::temp_directory_path() / ("attic_test_bpe_" + std::to_string(std::random_device{}()));
  ScratchDir() { fs::create_directories(dir); }
  ~ScratchDir() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return (dir / name).string();
  }
};

// The fixture's rank file with line `line` (0-based) replaced by `text`.
std::string ranks_with_line(size_t line, const std::string& text) {
  std::string all = read(fixture("bpe_ranks.tiktoken")), out;
  size_t pos = 0;
  for (size_t i = 0; pos < all.size(); ++i) {
    const size_t eol = all.find('\n', pos);
    out += (i == line ? text : all.substr(pos, eol - pos)) + "\n";
    pos = eol + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("bpe: training gives minbpe's merges, in order", "[data][bpe]") {
  const std::string text = shakespeare().substr(0, size_t(expected().at("train_bytes").as_int()));
  const BpeTokenizer tok = BpeTokenizer::train(text, expected().at("vocab_size").as_int());
  const json::Value::Array& merges = expected().at("minbpe_merges").as_array();
  REQUIRE(tok.vocab_size() == int64_t(256 + merges.size() + 1));
  for (size_t i = 0; i < merges.size(); ++i) {
    const int64_t a = merges[i].as_array()[0].as_int(), b = merges[i].as_array()[1].as_int();
    INFO("merge " << i << ": (" << a << ", " << b << ")");
    const int64_t id = int64_t(256 + i);
    CHECK(tok.token_bytes(id) == std::string(tok.token_bytes(a)) + std::string(tok.token_bytes(b)));
    CHECK(tok.token_bytes(id) == fixture_tokenizer().token_bytes(id));
  }
  CHECK(tok.eot_id() == 512);
  CHECK(tok.token_bytes(tok.eot_id()) == "<|endoftext|>");
}

TEST_CASE("bpe: tiktoken's ids on the torture text", "[data][bpe]") {
  const BpeTokenizer& tok = fixture_tokenizer();
  const std::string text = read(fixture("bpe_torture.bin"));
  const std::vector<int64_t> special = tok.encode(text), ordinary = tok.encode_ordinary(text);
  CHECK(special == expected_ids("torture_special"));
  CHECK(ordinary == expected_ids("torture_ordinary"));
  CHECK(std::count(special.begin(), special.end(), tok.eot_id()) == 6);
  CHECK(std::count(ordinary.begin(), ordinary.end(), tok.eot_id()) == 0);
  CHECK(tok.decode(special) == text);
  CHECK(tok.decode(ordinary) == text);
}

TEST_CASE("bpe: bytes that are not UTF-8 encode as the surrogateescape reference", "[data][bpe]") {
  const BpeTokenizer& tok = fixture_tokenizer();
  const std::string bytes = read(fixture("bpe_invalid_utf8.bin"));
  REQUIRE(util::first_invalid_utf8(bytes) != std::string::npos);
  CHECK(tok.encode_ordinary(bytes) == expected_ids("invalid_ordinary"));
  CHECK(tok.decode(tok.encode(bytes)) == bytes);
}

TEST_CASE("bpe: the whole corpus encodes as tiktoken does and decodes back", "[data][bpe]") {
  const BpeTokenizer& tok = fixture_tokenizer();
  const std::string text = shakespeare();
  const std::vector<int64_t> ids = tok.encode(text);
  CHECK(int64_t(ids.size()) == expected().at("shakespeare_tokens").as_int());
  util::Fnv1a h;
  for (int64_t id : ids)
    for (int byte = 0; byte < 8; ++byte) {  // little-endian, as the fixture writes them
      const unsigned char b = static_cast<unsigned char>(uint64_t(id) >> (8 * byte));
      h.update(&b, 1);
    }
  CHECK(util::hex16(h.value()) == expected().at("shakespeare_fnv1a").as_string());
  CHECK(tok.decode(ids) == text);
}

TEST_CASE("bpe: any bytes decode back exactly", "[data][bpe]") {
  const BpeTokenizer& tok = fixture_tokenizer();
  std::mt19937 rng(3);
  std::vector<std::string> texts = {"", " ", "\n\n", "<|endoftext|>", "<|endoftext|",
                                    "a<|endoftext|>"};
  std::string all;
  for (int b = 0; b < 256; ++b) all += char(b);
  texts.push_back(all);
  for (int n : {1, 2, 5, 64, 4096}) {
    std::string bytes;
    for (int i = 0; i < n; ++i) bytes += char(rng() & 0xFF);
    texts.push_back(bytes);
  }
  texts.push_back(std::string(20000, ' ') + std::string(20000, 'e'));  // two long pieces
  for (const std::string& text : texts) {
    CHECK(tok.decode(tok.encode(text)) == text);
    CHECK(tok.decode(tok.encode_ordinary(text)) == text);
  }
  CHECK(tok.encode("") == std::vector<int64_t>{});
  CHECK(tok.encode("<|endoftext|>") == std::vector<int64_t>{tok.eot_id()});
  CHECK(tok.encode("<|endoftext|><|endoftext|>") == std::vector<int64_t>{512, 512});
  // No piece spans the special token: "the" and " end" encode as they would alone.
  std::vector<int64_t> parts = tok.encode("the");
  parts.push_back(tok.eot_id());
  for (int64_t id : tok.encode(" end")) parts.push_back(id);
  CHECK(tok.encode("the<|endoftext|> end") == parts);
}

TEST_CASE("bpe: GPT-2's encoder.json and vocab.bpe", "[data][bpe]") {
  const BpeTokenizer tok =
      BpeTokenizer::from_gpt2_files(fixture("bpe_encoder.json"), fixture("bpe_vocab.bpe"));
  REQUIRE(tok.vocab_size() == 513);
  // data-gym's order of the bytes: the 188 printable ones first ('!' is 0), then the rest
  // from 0x00, so the space is 188 + 32 = 220, as in GPT-2.
  CHECK(tok.token_bytes(0) == "!");
  CHECK(tok.token_bytes(187) == "\xff");
  CHECK(tok.token_bytes(188) == std::string(1, '\0'));
  CHECK(tok.token_bytes(220) == " ");
  for (int64_t r = 256; r < 512; ++r)
    CHECK(tok.token_bytes(r) == fixture_tokenizer().token_bytes(r));
  const std::string text = read(fixture("bpe_torture.bin"));
  CHECK(tok.encode_ordinary(text) == expected_ids("gpt2_files_torture_ordinary"));
  CHECK(tok.decode(tok.encode(text)) == text);
}

TEST_CASE("bpe: bytes_to_unicode", "[data][bpe]") {
  CHECK(gpt2_byte_char('A') == U'A');
  CHECK(gpt2_byte_char('!') == U'!');
  CHECK(gpt2_byte_char(0xE9) == U'\u00e9');
  CHECK(gpt2_byte_char(0) == U'\u0100');
  CHECK(gpt2_byte_char(' ') == U'\u0120');  // 'Ġ'
  CHECK(gpt2_byte_char('\n') == U'\u010a');  // 'Ċ'
  CHECK(gpt2_byte_char(0x7F) == U'\u0121');
  CHECK(gpt2_byte_char(0xAD) == U'\u0143');  // the soft hyphen, the last of the 68
}

TEST_CASE("bpe: serialize, save and load", "[data][bpe]") {
  const BpeTokenizer tok = BpeTokenizer::train(shakespeare().substr(0, 20000), 300);
  const std::string text = tok.serialize();
  CHECK(util::first_invalid_utf8(text) == std::string::npos);
  CHECK(text.substr(0, text.find('\n')) == "attic-bpe 1 pattern=gpt2 special=<|endoftext|>:299");
  CHECK(text.substr(text.find('\n') + 1, 7) == "AA== 0\n");

  const std::string sample = read(fixture("bpe_torture.bin"));
  const BpeTokenizer back = BpeTokenizer::deserialize(text);
  CHECK(back.serialize() == text);
  CHECK(back.encode(sample) == tok.encode(sample));

  ScratchDir scratch;
  const std::string path = (scratch.dir / "tok.bpe").string();
  tok.save(path);
  CHECK(read(path) == text);
  CHECK(BpeTokenizer::load(path).encode(sample) == tok.encode(sample));
  // load also reads a plain tiktoken rank file.
  CHECK(BpeTokenizer::load(fixture("bpe_ranks.tiktoken")).encode(sample) ==
        expected_ids("torture_special"));
  CHECK(error_message([&] { tok.save(scratch.dir.string()); }) != "");
}

TEST_CASE("bpe: ids out of range and bad training sizes throw, naming them", "[data][bpe]") {
  const BpeTokenizer& tok = fixture_tokenizer();
  CHECK_THAT(error_message([&] { tok.decode({5, 513}); }),
             ContainsSubstring("id 513 at position 1 is out of range for vocab size 513"));
  CHECK_THAT(error_message([&] { tok.decode({-1}); }), ContainsSubstring("id -1 at position 0"));
  CHECK_THAT(error_message([&] { tok.token_bytes(1000); }), ContainsSubstring("id 1000"));
  CHECK_THAT(error_message([] { BpeTokenizer::train("abc", 256); }),
             ContainsSubstring("vocab_size 256"));
  CHECK_THAT(error_message([] { BpeTokenizer::train("ab ab", 260); }),
             ContainsSubstring("at most 259, not 260"));
  CHECK(BpeTokenizer::train("", 257).vocab_size() == 257);
}

TEST_CASE("bpe: every malformed rank file throws, naming the file and the line", "[data][bpe]") {
  ScratchDir scratch;
  auto load_error = [&](const std::string& bytes) {
    const std::string path = scratch.write("bad.tiktoken", bytes);
    const std::string e1 = error_message([&] { BpeTokenizer::from_tiktoken_file(path); });
    const std::string e2 = error_message([&] { BpeTokenizer::load(path); });
    CHECK_THAT(e1, ContainsSubstring("bad.tiktoken"));
    CHECK_THAT(e2, ContainsSubstring("bad.tiktoken"));
    return e1;
  };
  // Line 4 is "Aw== 3", the byte 0x03.
  auto line4_error = [&](const std::string& line) { return load_error(ranks_with_line(3, line)); };
  CHECK_THAT(line4_error("Aw=="), ContainsSubstring("line 4: expected 'BASE64 RANK'"));
  CHECK_THAT(line4_error("Aw==  3"), ContainsSubstring("line 4: expected"));
  CHECK_THAT(line4_error("A@== 3"), ContainsSubstring("line 4: 'A@==' is not the base64"));
  CHECK_THAT(line4_error("Aw= 3"), ContainsSubstring("is not the base64"));
  CHECK_THAT(line4_error(" 3"), ContainsSubstring("is not the base64"));
  CHECK_THAT(line4_error("Aw== -3"), ContainsSubstring("line 4: the rank '-3' is not a whole"));
  CHECK_THAT(line4_error("Aw== 3x"), ContainsSubstring("is not a whole number"));
  CHECK_THAT(line4_error("Aw== 2"), ContainsSubstring("line 4: rank 2 again"));
  CHECK_THAT(line4_error("Aw== 4"), ContainsSubstring("line 4: rank 4 where rank 3 comes next"));
  CHECK_THAT(line4_error("Ag== 3"), ContainsSubstring("ranks 2 and 3 are the same token"));
  CHECK_THAT(line4_error(""), ContainsSubstring("line 5: rank 4 where rank 3"));
  CHECK_THAT(load_error("AA== 0\n"), ContainsSubstring("is no token"));
  CHECK_THAT(load_error(""), ContainsSubstring("is no token"));
  const std::string none = (scratch.dir / "none").string();
  CHECK_THAT(error_message([&] { BpeTokenizer::from_tiktoken_file(none); }),
             ContainsSubstring("no such file"));
  CHECK_THAT(error_message([&] { BpeTokenizer::load(scratch.dir.string()); }),
             ContainsSubstring("folder"));

  // A file cut anywhere loads (cut after a whole line, with all 256 bytes) or throws.
  const std::string whole = read(fixture("bpe_ranks.tiktoken"));
  for (size_t n = 0; n < whole.size(); n += 37) {
    const std::string path = scratch.write("cut.tiktoken", whole.substr(0, n));
    int64_t vocab_size = 0;
    const std::string e =
        error_message([&] { vocab_size = BpeTokenizer::from_tiktoken_file(path).vocab_size(); });
    CHECK((e.empty() ? vocab_size >= 257 : e.find("cut.tiktoken") != std::string::npos));
  }
}

TEST_CASE("bpe: a malformed saved form throws, naming the line", "[data][bpe]") {
  const std::string good = fixture_tokenizer().serialize();
  const std::string ranks = good.substr(good.find('\n'));
  auto error = [](const std::string& text) {
    return error_message([&] { BpeTokenizer::deserialize(text); });
  };
  CHECK_THAT(error("attic-bpe 2 pattern=gpt2 special=<|endoftext|>:512" + ranks),
             ContainsSubstring("line 1: expected"));
  CHECK_THAT(error("attic-bpe 1 pattern=cl100k special=<|endoftext|>:512" + ranks),
             ContainsSubstring("line 1"));
  CHECK_THAT(error("attic-bpe 1 pattern=gpt2 special=<|endoftext|>:" + ranks),
             ContainsSubstring("line 1"));
  CHECK_THAT(error("attic-bpe 1 pattern=gpt2 special=<|endoftext|>:511" + ranks),
             ContainsSubstring("line 1: <|endoftext|> is id 511, but it must follow the last "
                               "rank: the file holds 512 ranks"));
  CHECK_THAT(error(good.substr(0, good.size() - 3)), ContainsSubstring("line 513"));
  CHECK_THAT(error(good + "QUJD 511\n"), ContainsSubstring("line 514: rank 511 again"));
  CHECK_THAT(error(""), ContainsSubstring("line 1"));
  CHECK_THAT(error("attic-bpe"), ContainsSubstring("line 1"));
  // Cut anywhere: a tokenizer or an Error, never a crash.
  for (size_t n = 0; n < good.size(); n += 41) {
    const std::string e = error_message([&] { BpeTokenizer::deserialize(good.substr(0, n)); });
    CHECK((e.empty() || e.find("BpeTokenizer::deserialize") != std::string::npos));
  }
}

TEST_CASE("bpe: malformed GPT-2 files throw, naming the file", "[data][bpe]") {
  ScratchDir scratch;
  const std::string encoder = read(fixture("bpe_encoder.json"));
  const std::string merges = read(fixture("bpe_vocab.bpe"));
  auto error = [&](const std::string& enc, const std::string& bpe) {
    const std::string e = scratch.write("encoder.json", enc), v = scratch.write("vocab.bpe", bpe);
    return error_message([&] { BpeTokenizer::from_gpt2_files(e, v); });
  };
  CHECK(error(encoder, merges) == "");
  // encoder.json: not UTF-8, not JSON, cut short, not an object, an id that disagrees.
  std::string bad_utf8 = encoder;
  bad_utf8.replace(bad_utf8.find("\"!\""), 3, "\"\xff\"");
  CHECK_THAT(error(bad_utf8, merges), ContainsSubstring("encoder.json"));
  CHECK_THAT(error(bad_utf8, merges), ContainsSubstring("invalid UTF-8"));
  CHECK_THAT(error(encoder.substr(0, encoder.size() / 2), merges),
             ContainsSubstring("encoder.json"));
  CHECK_THAT(error("[1, 2]", merges), ContainsSubstring("expected an object"));
  std::string swapped = encoder;
  swapped.replace(swapped.find("\"!\": 0"), 6, "\"!\": 1");
  swapped.replace(swapped.find("\"\\\"\": 1"), 7, "\"\\\"\": 0");
  CHECK_THAT(error(swapped, merges), ContainsSubstring("has id 1, but"));
  std::string eot = encoder;
  eot.replace(eot.find("\"<|endoftext|>\": 512"), 20, "\"<|endoftext|>\": 600");
  CHECK_THAT(error(eot, merges), ContainsSubstring("<|endoftext|> has id 600"));
  CHECK_THAT(error("{\"!\": 0}", merges), ContainsSubstring("holds 1 tokens"));
  CHECK_THAT(error("{\"!\": \"zero\"}", merges), ContainsSubstring("is not a whole number"));
  CHECK_THAT(error("{\"\xd0\x80\": 0}", merges),  // U+0400
             ContainsSubstring("none of bytes_to_unicode's 256 characters"));
  // vocab.bpe: a line without its pair, a character no byte stands for, a merge made twice,
  // cut short (encoder.json then holds tokens that vocab.bpe does not make).
  const size_t line3 = merges.find('\n', merges.find('\n') + 1) + 1;
  std::string one = merges;
  one.insert(line3, "abc\n");
  CHECK_THAT(error(encoder, one), ContainsSubstring("vocab.bpe"));
  CHECK_THAT(error(encoder, one), ContainsSubstring("line 3: expected a merge 'A B'"));
  std::string bad_char = merges;
  bad_char.insert(line3, "a \r\n");
  CHECK_THAT(error(encoder, bad_char), ContainsSubstring("line 3"));
  std::string twice = merges;
  const size_t line2 = merges.find('\n') + 1;
  const std::string first_merge = merges.substr(line2, line3 - line2);
  twice.insert(line3, first_merge);
  CHECK_THAT(error(encoder, twice), ContainsSubstring("line 3: the merge"));
  CHECK_THAT(error(encoder, merges.substr(0, merges.find('\n', merges.size() / 2) + 1)),
             ContainsSubstring("is not made by"));
  CHECK_THAT(error(encoder, "\xff\xfe\n"), ContainsSubstring("line 1"));
  const std::string none = (scratch.dir / "none.json").string();
  CHECK_THAT(error_message([&] { BpeTokenizer::from_gpt2_files(none, fixture("bpe_vocab.bpe")); }),
             ContainsSubstring("no such file"));
}
