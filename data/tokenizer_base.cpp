#include "data/tokenizer_base.h"

#include "data/bpe.h"
#include "data/tokenizer.h"
#include "tensor/error.h"

namespace attic {

std::unique_ptr<Tokenizer> make_tokenizer(const std::string& kind, const std::string& record) {
  if (kind == "char") return std::make_unique<CharTokenizer>(CharTokenizer::from_vocabulary(record));
  if (kind == "bpe") return std::make_unique<BpeTokenizer>(BpeTokenizer::deserialize(record));
  fail("tokenizer: kind must be char or bpe, got '", kind, "'");
}

}  // namespace attic
