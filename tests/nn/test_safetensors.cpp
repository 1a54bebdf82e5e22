#include "tests/catch.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "nn/safetensors_helpers.h"

using namespace attic;
using namespace attic::testing::safetensors;

// ---------------------------------------------------------------- round trips

TEST_CASE("safetensors: F32, F64 and I64 tensors round trip bit for bit", "[safetensors]") {
  TempDir dir;
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  nn::StateDict in = {
      {"f32", randn({2, 3})},
      {"f64", randn({4}, kFloat64)},
      {"i64", exact_int64({lo, -1, 9007199254740993, hi}, {4, 1})},
      {"scalar", scalar_tensor(3.5)},
      {"empty", zeros({0, 3}, kFloat64)},
      {"empty_i64", zeros({2, 0}, kInt64)},
      {"odd", full({1, 1, 1}, -0.0)}};
  const std::string path = dir.file("t.safetensors");
  nn::save_safetensors(path, in, {{"k", "v"}});
  nn::SafetensorsFile out = nn::load_safetensors(path);
  REQUIRE(out.tensors.size() == in.size());
  for (const auto& [name, t] : in) {
    INFO(name);
    REQUIRE(out.tensors.count(name));
    check_same(out.tensors.at(name), t);
    CHECK(out.tensors.at(name).is_contiguous());
  }
  CHECK(out.tensors.at("i64").to_vector<int64_t>() ==
        std::vector<int64_t>{lo, -1, 9007199254740993, hi});
  CHECK(out.tensors.at("scalar").dim() == 0);
  CHECK(std::signbit(out.tensors.at("odd").item<float>()));
  CHECK(out.metadata == std::map<std::string, std::string>{{"k", "v"}});
}

TEST_CASE("safetensors: non-contiguous views are written as their values", "[safetensors]") {
  TempDir dir;
  Tensor base = arange(12.0, kFloat64).reshape({3, 4});
  nn::StateDict in = {
      {"transposed", base.t()},                         // strides [1, 4]
      {"stepped", base.slice(1, 0, 4, 2)},              // every other column
      {"row", base.select(0, 2)},                       // storage offset 8
      {"expanded", arange(3.0).reshape({3, 1}).expand({3, 2})},  // stride 0
      {"grad", randn({2, 2}).requires_grad_()}};
  REQUIRE_FALSE(in.at("transposed").is_contiguous());
  REQUIRE_FALSE(in.at("stepped").is_contiguous());
  const std::string path = dir.file("t.safetensors");
  nn::save_safetensors(path, in);
  nn::SafetensorsFile out = nn::load_safetensors(path);
  for (const auto& [name, t] : in) {
    INFO(name);
    check_same(out.tensors.at(name), t.detach());
  }
  CHECK(out.tensors.at("transposed").to_vector<double>() ==
        std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11});
  CHECK(out.tensors.at("expanded").to_vector<float>() == std::vector<float>{0, 0, 1, 1, 2, 2});
  CHECK_FALSE(out.tensors.at("grad").requires_grad());
  CHECK(out.metadata.empty());
}

TEST_CASE("safetensors: metadata with newlines, quotes and unicode round trips", "[safetensors]") {
  TempDir dir;
  const std::map<std::string, std::string> metadata = {
      {"lines", "one\ntwo\r\n\tthree"},
      {"quotes", "say \"hi\" \\ {\"json\": [1]}"},
      {"unicode \xE2\x98\x83", "h\xC3\xA9llo \xF0\x9F\x98\x80"},
      {"control", std::string("\x01\x1f\0end", 6)},
      {"", ""}};
  const std::string path = dir.file("m.safetensors");
  nn::save_safetensors(path, {{"x", ones({1})}}, metadata);
  CHECK(nn::load_safetensors(path).metadata == metadata);
}

TEST_CASE("safetensors: a tiny file matches bytes worked out by hand", "[safetensors]") {
  TempDir dir;
  const std::string path = dir.file("tiny.safetensors");
  nn::save_safetensors(path,
                       {{"b", scalar_tensor(7, kInt64)}, {"a", from_vector<float>({1.0f, -2.0f})}},
                       {{"k", "v"}});
  // Header, 132 bytes: {"__metadata__":{"k":"v"},          26
  //   "a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}   52, then ","  1
  //   "b":{"dtype":"I64","shape":[],"data_offsets":[8,16]}   52, then "}"  1
  // padded with 4 spaces to 136 = 0x88, the next multiple of 8.
  const std::string header =
      R"({"__metadata__":{"k":"v"},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
      R"("b":{"dtype":"I64","shape":[],"data_offsets":[8,16]}}    )";
  REQUIRE(header.size() == 136);
  // 1.0f = 0x3F800000, -2.0f = 0xC0000000, 7 = 0x07; each little-endian.
  const std::string buffer("\x00\x00\x80\x3F\x00\x00\x00\xC0"
                           "\x07\x00\x00\x00\x00\x00\x00\x00", 16);
  const std::string expected = std::string("\x88\0\0\0\0\0\0\0", 8) + header + buffer;
  CHECK(read_bytes(path) == expected);
  CHECK(read_bytes(path).size() == 160);
}

TEST_CASE("safetensors: the header is padded with spaces to a multiple of 8", "[safetensors]") {
  TempDir dir;
  const std::string path = dir.file("p.safetensors");
  for (int n = 1; n <= 9; ++n) {
    nn::save_safetensors(path, {{std::string(size_t(n), 'x'), ones({1})}});
    const std::string bytes = read_bytes(path);
    uint64_t len = 0;
    for (int i = 7; i >= 0; --i) len = len << 8 | uint8_t(bytes[size_t(i)]);
    INFO("name length " << n);
    CHECK(len % 8 == 0);
    CHECK(bytes.size() == 8 + len + 4);
    const std::string header = bytes.substr(8, len);
    CHECK(header.find_last_not_of(' ') == header.find_last_of('}'));
  }
}

TEST_CASE("safetensors: a file laid out differently by another writer loads", "[safetensors]") {
  TempDir dir;
  // Keys out of order, "__metadata__" last, whitespace, and the buffer ordered b before a.
  const std::string header =
      R"({ "b" : {"shape": [1], "data_offsets": [0, 8], "dtype": "F64"},)"
      "\n"
      R"(  "a": {"data_offsets": [8, 12], "dtype": "F32", "shape": []},)"
      R"(  "__metadata__": {"format": "pt"}})";
  const std::string buffer("\x00\x00\x00\x00\x00\x00\xF0\x3F"  // 1.0 as float64
                           "\x00\x00\x40\x40", 12);             // 3.0f
  const std::string path = dir.file("other.safetensors");
  write_bytes(path, st_bytes(header, buffer));
  nn::SafetensorsFile f = nn::load_safetensors(path);
  CHECK(f.tensors.at("b").to_vector<double>() == std::vector<double>{1.0});
  CHECK(f.tensors.at("a").item<float>() == 3.0f);
  CHECK(f.tensors.at("a").dim() == 0);
  CHECK(f.metadata.at("format") == "pt");
}

TEST_CASE("safetensors: empty tensors may share an offset and an empty file is valid",
          "[safetensors]") {
  TempDir dir;
  const std::string path = dir.file("e.safetensors");
  write_bytes(path, st_bytes(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                             R"("e":{"dtype":"F32","shape":[0],"data_offsets":[8,8]},)"
                             R"("f":{"dtype":"I64","shape":[3,0],"data_offsets":[8,8]},)"
                             R"("b":{"dtype":"F32","shape":[1,2],"data_offsets":[8,16]}})",
                             std::string(16, '\0')));
  nn::SafetensorsFile f = nn::load_safetensors(path);
  CHECK(f.tensors.size() == 4);
  CHECK(f.tensors.at("f").shape() == Shape{3, 0});

  nn::save_safetensors(path, {});
  CHECK(read_bytes(path) == st_bytes("{}      ", ""));
  CHECK(nn::load_safetensors(path).tensors.empty());
}

// ---------------------------------------------------------------- atomic writes

TEST_CASE("safetensors: save leaves no temporary and replaces the old file", "[safetensors]") {
  TempDir dir;
  const std::string path = dir.file("ckpt.safetensors");
  nn::save_safetensors(path, {{"x", ones({3})}});
  nn::save_safetensors(path, {{"y", zeros({2}, kInt64)}});
  CHECK_FALSE(fs::exists(path + ".tmp"));
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
  nn::SafetensorsFile f = nn::load_safetensors(path);
  CHECK(f.tensors.size() == 1);
  CHECK(f.tensors.count("y") == 1);
}

TEST_CASE("safetensors: saving into a missing directory throws and leaves nothing",
          "[safetensors]") {
  TempDir dir;
  const std::string path = dir.file("missing/ckpt.safetensors");
  CHECK(error_message([&] { nn::save_safetensors(path, {{"x", ones({3})}}); }) ==
        "save_safetensors: cannot open '" + path + ".tmp' for writing");
  CHECK_FALSE(fs::exists(dir.path / "missing"));
  CHECK(fs::is_empty(dir.path));
}

TEST_CASE("safetensors: save rejects undefined tensors and the reserved name", "[safetensors]") {
  TempDir dir;
  const std::string path = dir.file("x.safetensors");
  CHECK(error_message([&] { nn::save_safetensors(path, {{"w", Tensor()}}); }) ==
        "save_safetensors: '" + path + "': tensor 'w' is undefined");
  CHECK_THROWS_AS(nn::save_safetensors(path, {{"__metadata__", ones({1})}}), Error);
  // A failed save leaves an existing checkpoint as it was.
  nn::save_safetensors(path, {{"keep", ones({2})}});
  const std::string before = read_bytes(path);
  CHECK_THROWS_AS(nn::save_safetensors(path, {{"w", Tensor()}}), Error);
  CHECK(read_bytes(path) == before);
  CHECK_FALSE(fs::exists(path + ".tmp"));
}

TEST_CASE("safetensors: a BOOL tensor round-trips beside the other dtypes", "[safetensors]") {
  TempDir dir;
  const std::string path = dir.file("mask.safetensors");
  const nn::StateDict in = {
      {"causal", tril(ones({3, 3}, kBool))},
      {"keep", tensor({{1, 0, 1, 1}, {0, 0, 0, 1}}, kBool).t()},  // not contiguous
      {"none", zeros({0, 2}, kBool)},
      {"one", scalar_tensor(1, kBool)},
      {"w", tensor({1.5, -2.0})}};
  nn::save_safetensors(path, in);
  const std::string bytes = read_bytes(path);
  CHECK(bytes.find(R"("causal":{"dtype":"BOOL","shape":[3,3],"data_offsets":[0,9]})") !=
        std::string::npos);
  const nn::SafetensorsFile f = nn::load_safetensors(path);
  REQUIRE(f.tensors.size() == in.size());
  for (const auto& [name, t] : in) {
    INFO(name);
    check_same(f.tensors.at(name), t);
  }
  CHECK(f.tensors.at("causal").to_vector<bool>() ==
        std::vector<bool>{true, false, false, true, true, false, true, true, true});
}

TEST_CASE("safetensors: a hand-made file with a BOOL tensor", "[safetensors]") {
  // What safetensors.numpy.save_file({"m": np.array([[True, False, True], [False, False,
  // True]])}) writes: one byte per element, 0 or 1, row-major.
  TempDir dir;
  const std::string path = dir.file("hand.safetensors");
  const std::string header = R"({"m":{"dtype":"BOOL","shape":[2,3],"data_offsets":[0,6]}})";
  write_bytes(path, st_bytes(header, std::string("\1\0\1\0\0\1", 6)));
  const nn::SafetensorsFile f = nn::load_safetensors(path);
  const Tensor m = f.tensors.at("m");
  CHECK(m.dtype() == kBool);
  CHECK(m.shape() == Shape{2, 3});
  CHECK(m.to_vector<bool>() == std::vector<bool>{true, false, true, false, false, true});
  CHECK(sum(m).item<int64_t>() == 3);
  // a byte that is neither 0 nor 1 is no bool: refused, naming the element
  const std::string p = "load_safetensors: '" + dir.file("bad.safetensors") + "': ";
  CHECK(load_error(dir, header, std::string("\1\0\2\0\0\1", 6)) ==
        p + "tensor 'm' of dtype BOOL holds the byte 2 at element 2; a BOOL byte must be 0 or 1");
  // the byte count follows the element size of one byte
  CHECK_THAT(load_error(dir, R"({"m":{"dtype":"BOOL","shape":[2,3],"data_offsets":[0,24]}})",
                        std::string(24, '\0')),
             Catch::Matchers::ContainsSubstring("needs 6"));
}

// ---------------------------------------------------------------- modules

TEST_CASE("safetensors: a module saves and loads its parameters and buffers", "[safetensors]") {
  TempDir dir;
  const std::string path = dir.file("tiny.safetensors");
  Tiny a({2, 3});
  {
    NoGradGuard no_grad;
    a.steps.copy_(from_vector<int64_t>({5, 9}));
  }
  nn::save(a, path, {{"step", "100"}});
  nn::SafetensorsFile f = nn::load_safetensors(path);
  CHECK(f.tensors.size() == 2);
  CHECK(f.tensors.count("w") == 1);
  CHECK(f.tensors.count("steps") == 1);

  Tiny b({2, 3});
  const Tensor w_before = b.w;
  const std::map<std::string, std::string> metadata = nn::load(b, path);
  CHECK(metadata.at("step") == "100");
  CHECK(b.w.to_vector<float>() == a.w.to_vector<float>());
  CHECK(b.steps.to_vector<int64_t>() == std::vector<int64_t>{5, 9});
  CHECK(b.w.is_same(w_before));  // loaded in place, so optimizers keep their handles
  CHECK(b.w.requires_grad());
}

TEST_CASE("safetensors: loading into a mismatched module gives the load_state_dict error",
          "[safetensors]") {
  TempDir dir;
  const std::string path = dir.file("tiny.safetensors");
  Tiny a({2, 3});
  nn::save(a, path);
  Tiny wrong({3, 2});
  CHECK(error_message([&] { nn::load(wrong, path); }) ==
        "load_state_dict: 'w' has shape [2, 3] in the dict but [3, 2] in the module");

  nn::save_safetensors(path, {{"w", randn({2, 3})}});
  Tiny b({2, 3});
  CHECK(error_message([&] { nn::load(b, path); }) == "load_state_dict: missing key 'steps'");
  nn::load(b, path, /*strict=*/false);  // loads w, leaves steps as it was
  CHECK(b.steps.to_vector<int64_t>() == std::vector<int64_t>{0, 0});
}

TEST_CASE("safetensors: a file written with a checksum is checked on load, byte by byte",
          "[safetensors]") {
  TempDir dir;
  const std::string path = (dir.path / "c.safetensors").string();
  const nn::StateDict tensors = {{"a", from_vector(std::vector<float>{1, 2, 3})},
                                 {"b", from_vector(std::vector<float>{4, 5})}};
  const std::string sum = nn::save_safetensors(path, tensors, {{"k", "v"}}, /*checksum=*/true);
  REQUIRE(sum.size() == 16);
  nn::SafetensorsFile f = nn::load_safetensors(path);
  CHECK(f.metadata.at("fnv1a64") == sum);
  CHECK(f.metadata.at("k") == "v");

  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto write = [&](const std::string& b) { std::ofstream(path, std::ios::binary | std::ios::trunc) << b; };
  const std::string where = "load_safetensors: '" + path + "': ";
  // Every byte of the file but the digits themselves is covered: the length, the header's
  // metadata and the buffer's first and last byte.
  for (size_t at : {size_t(0), bytes.find("\"k\":\"v\"") + 5, bytes.size() - 20, bytes.size() - 1}) {
    std::string b = bytes;
    b[at] = char(b[at] ^ 1);
    write(b);
    CHECK_THROWS_AS(nn::load_safetensors(path), Error);
  }
  std::string b = bytes;
  b[b.size() - 1] = char(b[b.size() - 1] ^ 1);
  write(b);
  CHECK(error_message([&] { nn::load_safetensors(path); }).rfind(where + "checksum mismatch: metadata fnv1a64 is " + sum, 0) == 0);
  // A file without a checksum (another writer's, an older attic's) loads unchecked.
  nn::save_safetensors(path, tensors, {{"k", "v"}});
  CHECK(nn::load_safetensors(path).metadata.count("fnv1a64") == 0);
  // Metadata loaded from a checksummed file and saved again without a checksum leaves the
  // old one behind, so the new file still loads.
  nn::save_safetensors(path, tensors, {{"k", "v"}}, /*checksum=*/true);
  const nn::SafetensorsFile loaded = nn::load_safetensors(path);
  nn::save_safetensors(path, loaded.tensors, loaded.metadata);
  CHECK(nn::load_safetensors(path).metadata.count("fnv1a64") == 0);
}
