#include "nn/safetensors.h"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <system_error>
#include <vector>

#include "util/atomic_file.h"
#include "util/fnv1a.h"
#include "util/json.h"

namespace attic::nn {

namespace fs = std::filesystem;

// The reference reader's cap (100 MB): a header can never make us allocate more than this
// before its tensors are checked against the real size of the file.
static constexpr uint64_t kMaxHeaderBytes = 100'000'000;

static const char* safetensors_dtype(DType d) {
  switch (d) {
    case DType::Float32: return "F32";
    case DType::Float64: return "F64";
    case DType::Int64: return "I64";
    case DType::Bool: return "BOOL";
    case DType::BFloat16: return "BF16";
    case DType::Float16: return "F16";
  }
  return "?";
}

static bool parse_dtype(const std::string& s, DType& out) {
  for (DType d : {DType::Float32, DType::Float64, DType::Int64, DType::Bool, DType::BFloat16,
                  DType::Float16}) {
    if (s == safetensors_dtype(d)) {
      out = d;
      return true;
    }
  }
  return false;
}

// The file is little-endian. On a big-endian host each element's bytes are reversed, which
// converts in both directions; on a little-endian host this does nothing.
static void swap_if_big_endian(char* data, int64_t numel, size_t elem_size) {
  if constexpr (std::endian::native == std::endian::big) {
    for (int64_t i = 0; i < numel; ++i) std::reverse(data + i * elem_size, data + (i + 1) * elem_size);
  }
}

// ---------------------------------------------------------------- writing

// The header JSON, key order as the reference writer: "__metadata__" first, then each tensor
// as {"dtype", "shape", "data_offsets"}, tensors by name with their bytes back to back.
// Padded with spaces to a multiple of 8 bytes, so the buffer that follows is aligned.
static std::string make_header(const std::string& path, const StateDict& tensors,
                               const std::map<std::string, std::string>& metadata) {
  std::string header = "{";
  if (!metadata.empty()) {
    json::Value::Object m(metadata.begin(), metadata.end());
    header += "\"__metadata__\":" + json::dump(m);
  }
  int64_t offset = 0;
  for (const auto& [name, t] : tensors) {
    ATTIC_CHECK(name != "__metadata__", "save_safetensors: '", path,
                "': a tensor cannot be named __metadata__");
    ATTIC_CHECK(t.defined(), "save_safetensors: '", path, "': tensor '", name, "' is undefined");
    const int64_t nbytes = t.numel() * int64_t(dtype_size(t.dtype()));
    json::Value::Array shape(t.shape().begin(), t.shape().end());
    if (header.size() > 1) header += ',';
    header += json::quote(name) + ":{\"dtype\":\"" + safetensors_dtype(t.dtype()) +
              "\",\"shape\":" + json::dump(shape) + ",\"data_offsets\":[" +
              std::to_string(offset) + "," + std::to_string(offset + nbytes) + "]}";
    offset += nbytes;
  }
  header += '}';
  header.append((8 - header.size() % 8) % 8, ' ');
  return header;
}

// The metadata entry that holds the file's checksum, as the writer spells it in the header:
// "fnv1a64":"<16 hex digits>". The digits are FNV-1a 64 (util/fnv1a.h) of the whole file
// (length, header, buffer) as it reads with 16 '0's in their place, so the checksum covers
// every byte but its own.
static constexpr const char* kChecksumKey = "fnv1a64";
static std::string checksum_entry(const std::string& digits) {
  return std::string("\"") + kChecksumKey + "\":\"" + digits + "\"";
}

// Writes the file; with digits_at != npos, the 16 '0's at header[digits_at] are replaced by
// the checksum of everything written, once it is all written.
static std::string write_file(int fd, const std::string& tmp, const std::string& header,
                              const StateDict& tensors, size_t digits_at) {
  util::Fnv1a hash;
  auto put = [&](const char* p, size_t n) {
    hash.update(p, n);
    util::write_all(fd, p, n, tmp);
  };
  char len[8];
  for (int i = 0; i < 8; ++i) len[i] = char((uint64_t(header.size()) >> (8 * i)) & 0xFF);
  put(len, 8);
  put(header.data(), header.size());
  for (const auto& [name, t] : tensors) {
    if (t.numel() == 0) continue;
    const Tensor c = t.detach().to(Device::CPU).contiguous();
    const size_t elem = dtype_size(c.dtype());
    const char* p = static_cast<const char*>(c.raw_data());
    const int64_t nbytes = c.numel() * int64_t(elem);
    if constexpr (std::endian::native == std::endian::little) {
      put(p, size_t(nbytes));
    } else {
      std::vector<char> bytes(p, p + nbytes);
      swap_if_big_endian(bytes.data(), c.numel(), elem);
      put(bytes.data(), size_t(nbytes));
    }
  }
  std::string digits;
  if (digits_at != std::string::npos) {
    digits = util::hex16(hash.value());
    ATTIC_CHECK(::pwrite(fd, digits.data(), 16, off_t(8 + digits_at)) == 16,
                "save_safetensors: writing '", tmp, "' failed: ", std::strerror(errno));
  }
  return digits;
}

std::string save_safetensors(const std::string& path, const StateDict& tensors,
                             const std::map<std::string, std::string>& metadata, bool checksum) {
  // A checksum carried over from a loaded file describes that file, not this one: it is
  // replaced, or dropped when this file is written without one.
  std::map<std::string, std::string> meta = metadata;
  meta.erase(kChecksumKey);
  if (checksum) meta[kChecksumKey] = std::string(16, '0');
  const std::string header = make_header(path, tensors, meta);
  // The digits are the 16 characters before the entry's closing quote.
  const std::string zeros = checksum_entry(std::string(16, '0'));
  const size_t digits_at = checksum ? header.find(zeros) + zeros.size() - 17 : std::string::npos;
  // rename() replaces path in one step, so a crash leaves either the old file or the new
  // one, never a torn mix. The file's bytes reach the disk (fsync) before the rename, and
  // the rename itself (fsync of the folder) before we return: after a power loss too, path
  // is the old file or the whole new one.
  const std::string tmp = path + ".tmp";
  // Never through a link planted at tmp.
  const int fd = util::create_new_file(tmp, "save_safetensors: cannot open '" + tmp + "' for writing");
  try {
    std::string digits;
    try {
      digits = write_file(fd, tmp, header, tensors, digits_at);
    } catch (...) {
      ::close(fd);
      throw;
    }
    ATTIC_CHECK(::close(fd) == 0, "save_safetensors: closing '", tmp, "' failed: ",
                std::strerror(errno));
    util::sync_file(tmp);
    std::error_code ec;
    fs::rename(tmp, path, ec);
    ATTIC_CHECK(!ec, "save_safetensors: cannot rename '", tmp, "' to '", path, "': ", ec.message());
    util::sync_directory_of(path);
    return digits;
  } catch (...) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw;
  }
}

// ---------------------------------------------------------------- reading

namespace {

struct Entry {
  std::string name;
  DType dtype;
  Shape shape;
  int64_t begin, end;  // within the buffer
};

// One tensor's header entry, checked field by field against a buffer of buffer_size bytes.
Entry parse_entry(const std::string& where, const std::string& name, const json::Value& v,
                  int64_t buffer_size) {
  const std::string what = where + "tensor '" + name + "' ";
  ATTIC_CHECK(v.is_object(), what, "is a JSON ", json::type_name(v.type()), ", not an object");
  for (const auto& [key, field] : v.as_object())
    ATTIC_CHECK(key == "dtype" || key == "shape" || key == "data_offsets", what,
                "has an unknown field '", key, "'");
  for (const char* key : {"dtype", "shape", "data_offsets"})
    ATTIC_CHECK(v.find(key) != nullptr, what, "lacks the field '", key, "'");

  Entry e{name, DType::Float32, {}, 0, 0};
  const json::Value& dtype = v.at("dtype");
  ATTIC_CHECK(dtype.is_string(), what, "has dtype ", json::dump(dtype), ", not a string");
  ATTIC_CHECK(parse_dtype(dtype.as_string(), e.dtype), what, "has dtype '", dtype.as_string(),
              "', which attic cannot read (it reads F32, F64, BF16, F16, I64 and BOOL)");

  const json::Value& shape = v.at("shape");
  const bool shape_ok = shape.is_array() && std::all_of(
      shape.as_array().begin(), shape.as_array().end(),
      [](const json::Value& d) { return d.is_int() && d.as_int() >= 0; });
  ATTIC_CHECK(shape_ok, what, "has shape ", json::dump(shape),
              ", not an array of non-negative integers");
  for (const json::Value& d : shape.as_array()) e.shape.push_back(d.as_int());

  // Bytes the shape needs. The product of the non-zero sizes must fit in int64 even when a
  // zero makes the tensor empty, or the row-major strides would overflow.
  const int64_t elem = int64_t(dtype_size(e.dtype));
  int64_t product = elem;
  bool empty = false;
  for (int64_t d : e.shape) {
    if (d == 0) {
      empty = true;
      continue;
    }
    ATTIC_CHECK(product <= std::numeric_limits<int64_t>::max() / d, what, "has shape ",
                str(e.shape), ", too many elements");
    product *= d;
  }
  const int64_t nbytes = empty ? 0 : product;

  const json::Value& offsets = v.at("data_offsets");
  const bool offsets_ok = offsets.is_array() && offsets.as_array().size() == 2 &&
                          offsets.as_array()[0].is_int() && offsets.as_array()[1].is_int() &&
                          0 <= offsets.as_array()[0].as_int() &&
                          offsets.as_array()[0].as_int() <= offsets.as_array()[1].as_int();
  ATTIC_CHECK(offsets_ok, what, "has data_offsets ", json::dump(offsets),
              ", not two integers 0 <= begin <= end");
  e.begin = offsets.as_array()[0].as_int();
  e.end = offsets.as_array()[1].as_int();
  ATTIC_CHECK(e.end - e.begin == nbytes, what, "has data_offsets [", e.begin, ", ", e.end,
              "], ", e.end - e.begin, " bytes, but shape ", str(e.shape), " of ",
              dtype.as_string(), " needs ", nbytes);
  ATTIC_CHECK(e.end <= buffer_size, what, "has data_offsets [", e.begin, ", ", e.end,
              "], past the end of the ", buffer_size, "-byte buffer");
  return e;
}

// A BOOL element is one byte, 0 or 1 (NumPy's and PyTorch's bool). Any other byte would be
// a C++ bool holding neither false nor true, which no kernel is written for: refused.
void check_bool_bytes(const std::string& where, const std::string& name, const Tensor& t) {
  const auto* bytes = static_cast<const unsigned char*>(t.raw_data());
  for (int64_t i = 0; i < t.numel(); ++i)
    ATTIC_CHECK(bytes[i] <= 1, where, "tensor '", name, "' of dtype BOOL holds the byte ",
                int(bytes[i]), " at element ", i, "; a BOOL byte must be 0 or 1");
}

}  // namespace

SafetensorsFile load_safetensors(const std::string& path) {
  std::error_code ec;
  ATTIC_CHECK(!fs::is_directory(path, ec), "load_safetensors: '", path, "' is a folder, not a file");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  ATTIC_CHECK(in.is_open(), "load_safetensors: cannot open '", path, "': ",
              errno != 0 ? std::strerror(errno) : "unknown error");
  // The size of the file this stream opened: a writer may rename a new file over `path`
  // at any moment (a training saving while `attic eval` reads), and asking the path for
  // its size could then measure the new file while the stream reads the old one.
  in.seekg(0, std::ios::end);
  const std::streamoff end = in.tellg();
  in.seekg(0, std::ios::beg);
  ATTIC_CHECK(end >= 0 && in.good(), "load_safetensors: cannot read '", path, "'");
  const uintmax_t file_size = uintmax_t(end);
  const std::string where = "load_safetensors: '" + path + "': ";
  auto read = [&](char* dst, int64_t n) {
    in.read(dst, std::streamsize(n));
    ATTIC_CHECK(in.gcount() == n, where, "the file ended early (did it change while read?)");
  };

  ATTIC_CHECK(file_size >= 8, where, "the file is ", file_size,
              " bytes, too short for the 8-byte header length");
  unsigned char len[8];
  read(reinterpret_cast<char*>(len), 8);
  uint64_t header_size = 0;
  for (int i = 7; i >= 0; --i) header_size = header_size << 8 | len[i];
  ATTIC_CHECK(header_size <= kMaxHeaderBytes, where, "header length ", header_size,
              " is over the limit of ", kMaxHeaderBytes, " bytes");
  ATTIC_CHECK(header_size <= file_size - 8, where, "header length ", header_size,
              " runs past the end of the file (", file_size, " bytes)");
  std::string header(header_size, '\0');
  read(header.data(), int64_t(header_size));
  const int64_t buffer_size = int64_t(file_size - 8 - header_size);

  json::Value root;
  try {
    root = json::parse(header);
  } catch (const Error& e) {
    fail(where, "the header is not valid JSON: ", e.what());
  }
  ATTIC_CHECK(root.is_object(), where, "the header is a JSON ", json::type_name(root.type()),
              ", not an object");

  SafetensorsFile out;
  std::vector<Entry> entries;
  for (const auto& [name, v] : root.as_object()) {
    if (name != "__metadata__") {
      entries.push_back(parse_entry(where, name, v, buffer_size));
      continue;
    }
    ATTIC_CHECK(v.is_object(), where, "__metadata__ is a JSON ", json::type_name(v.type()),
                ", not an object");
    for (const auto& [key, value] : v.as_object()) {
      ATTIC_CHECK(value.is_string(), where, "metadata '", key, "' is a JSON ",
                  json::type_name(value.type()), ", not a string");
      out.metadata.emplace(key, value.as_string());
    }
  }

  // Sorted by offset, the tensors must tile the buffer exactly: each starts where the one
  // before it ends (the safetensors format, huggingface/safetensors, forbids overlaps and holes).
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  int64_t covered = 0;
  const Entry* prev = nullptr;
  for (const Entry& e : entries) {
    ATTIC_CHECK(e.begin >= covered, where, "tensors '", prev->name, "' [", prev->begin, ", ",
                prev->end, ") and '", e.name, "' [", e.begin, ", ", e.end, ") overlap");
    ATTIC_CHECK(e.begin == covered, where, "bytes [", covered, ", ", e.begin,
                ") of the buffer belong to no tensor");
    covered = e.end;
    prev = &e;
  }
  ATTIC_CHECK(covered == buffer_size, where, "bytes [", covered, ", ", buffer_size,
              ") of the buffer belong to no tensor");

  // A file that carries a checksum is hashed as it is read: the length, the header with
  // 16 '0's in place of the digits, then the buffer.
  const auto stored = out.metadata.find(kChecksumKey);
  const bool checked = stored != out.metadata.end();
  util::Fnv1a hash;
  if (checked) {
    const std::string& digits = stored->second;
    ATTIC_CHECK(digits.size() == 16 && digits.find_first_not_of("0123456789abcdef") == std::string::npos,
                where, "metadata '", kChecksumKey, "' must be 16 hex digits, got '", digits.substr(0, 40),
                digits.size() > 40 ? "...'" : "'");
    const std::string entry = checksum_entry(digits);
    const size_t at = header.find(entry);
    ATTIC_CHECK(at != std::string::npos && header.find(entry, at + 1) == std::string::npos, where,
                "the header was rewritten in another layout, so its checksum cannot be checked "
                "(remove the metadata '", kChecksumKey, "' to load it unchecked)");
    std::string zeroed = header;
    zeroed.replace(at + entry.size() - 17, 16, std::string(16, '0'));
    hash.update(len, 8);
    hash.update(zeroed.data(), zeroed.size());
  }

  // In offset order the reads are one sequential pass over the buffer.
  for (const Entry& e : entries) {
    Tensor t = empty(e.shape, e.dtype);
    if (e.end > e.begin) {
      read(static_cast<char*>(t.raw_data()), e.end - e.begin);
      if (checked) hash.update(t.raw_data(), size_t(e.end - e.begin));
      swap_if_big_endian(static_cast<char*>(t.raw_data()), t.numel(), dtype_size(e.dtype));
    }
    out.tensors.emplace(e.name, t);
  }
  ATTIC_CHECK(!checked || util::hex16(hash.value()) == stored->second, where,
              "checksum mismatch: metadata ", kChecksumKey, " is ", stored->second,
              " but the file hashes to ", util::hex16(hash.value()),
              "; it was changed after it was written");
  // After the checksum, which explains a bad byte better than the byte does.
  for (const Entry& e : entries)
    if (e.dtype == DType::Bool) check_bool_bytes(where, e.name, out.tensors.at(e.name));
  return out;
}

// ---------------------------------------------------------------- modules

void save(const Module& m, const std::string& path,
          const std::map<std::string, std::string>& metadata) {
  save_safetensors(path, m.state_dict(), metadata);
}

std::map<std::string, std::string> load(Module& m, const std::string& path, bool strict) {
  SafetensorsFile f = load_safetensors(path);
  m.load_state_dict(f.tensors, strict);
  return f.metadata;
}

}  // namespace attic::nn
