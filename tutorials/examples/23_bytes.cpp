// Chapter 23: characters and bytes. Chapter 7's tokenizer knows the characters of its text
// and no others; UTF-8's 256 byte values spell any text, in more tokens.
#include <cstdio>
#include <string>

#include "data/data.h"
#include "util/files.h"
#include "util/utf8.h"

using namespace attic;

// The number of code points (characters) in valid UTF-8 text.
size_t code_points(const std::string& s) {
  size_t n = 0;
  for (size_t pos = 0; pos < s.size(); pos += util::utf8_sequence_length(s, pos)) ++n;
  return n;
}

int main() {
  const std::string corpus_text = util::read_text_file(default_dataset_path(), "the corpus");
  const CharTokenizer chars = CharTokenizer::from_text(corpus_text);

  std::printf("%10s %5s  %-27s %-17s %s\n", "characters", "bytes", "UTF-8, in hex", "chapter 7's ids",
              "text");
  for (const std::string text : {"To be", "café", "naïve", "日本語", "🙂", "x²"}) {
    std::string hex;
    for (unsigned char b : text) {
      char h[4];
      std::snprintf(h, sizeof h, "%02x ", b);
      hex += h;
    }
    std::string known = "encodes";
    try {
      chars.encode(text);
    } catch (const Error&) {
      known = "no id for a byte";
    }
    std::printf("%10zu %5zu  %-27s %-17s %s\n", code_points(text), text.size(), hex.c_str(), known.c_str(),
                text.c_str());
  }

  // Bytes as ids: 256 of them spell any text, and decode puts it back exactly.
  const std::string text = "日本語 and café";
  std::vector<int64_t> ids(text.begin(), text.end());
  for (int64_t& id : ids) id = int64_t(static_cast<unsigned char>(id));
  std::printf("\"%s\" as byte ids (%zu of them):", text.c_str(), ids.size());
  for (int64_t id : ids) std::printf(" %lld", (long long)id);
  std::string back;
  for (int64_t id : ids) back += char(id);
  std::printf("\nback to text: \"%s\", the same: %s\n", back.c_str(), back == text ? "yes" : "no");
  return 0;
}
