#include "data/dataset.h"

#include <cstdlib>
#include <filesystem>

#include "data/text_dataset.h"
#include "data/token_dataset.h"
#include "tensor/error.h"

namespace attic {

namespace fs = std::filesystem;

// The folders a bare name is looked for in, as default_dataset_candidates() orders them.
static std::vector<fs::path> data_roots() {
  std::vector<fs::path> roots;
  if (const char* dir = std::getenv("ATTIC_DATA_DIR"); dir != nullptr && *dir != '\0') roots.emplace_back(dir);
#ifdef ATTIC_SOURCE_DIR
  roots.push_back(fs::path(ATTIC_SOURCE_DIR) / "data");
#endif
  roots.push_back(fs::path(".") / "data");
  return roots;
}

std::unique_ptr<Dataset> open_dataset(const std::string& name, double train_fraction) {
  std::error_code ec;
  std::string path = name;
  const bool bare = !name.empty() && name.find('/') == std::string::npos && name.find(':') == std::string::npos;
  if (bare && !fs::exists(name, ec))
    for (const fs::path& root : data_roots())
      if (fs::is_directory(root / name, ec)) {
        path = (root / name).string();
        break;
      }
  if (fs::is_directory(path, ec)) {
    if (fs::exists(fs::path(path) / "train.bin", ec))
      return std::make_unique<TokenDataset>(TokenDataset::open(path));
    if (fs::is_regular_file(fs::path(path) / "input.txt", ec))
      return std::make_unique<TextDataset>(TextDataset::from_file((fs::path(path) / "input.txt").string(), train_fraction));
    fail("dataset '", name, "' is a folder with neither train.bin and val.bin (token ids: attic data bpe writes "
         "them) nor input.txt (a text)");
  }
  return std::make_unique<TextDataset>(TextDataset::from_name(name, train_fraction));
}

}  // namespace attic
