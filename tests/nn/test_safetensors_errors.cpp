#include "tests/catch.h"

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "nn/safetensors_helpers.h"

using namespace attic;
using namespace attic::testing::safetensors;

// ---------------------------------------------------------------- hostile files

TEST_CASE("safetensors: every truncation of a file throws attic::Error", "[safetensors]") {
  TempDir dir;
  const std::string full_path = dir.file("full.safetensors");
  nn::save_safetensors(full_path,
                       {{"a", randn({2, 3})}, {"b", arange(4.0, kInt64)}, {"c", scalar_tensor(1.0)}},
                       {{"note", "truncate me"}});
  const std::string bytes = read_bytes(full_path);
  const std::string path = dir.file("cut.safetensors");
  for (size_t n = 0; n < bytes.size(); ++n) {
    INFO("first " << n << " of " << bytes.size() << " bytes");
    write_bytes(path, bytes.substr(0, n));
    CHECK_THROWS_AS(nn::load_safetensors(path), Error);
  }
  write_bytes(path, bytes);
  CHECK(nn::load_safetensors(path).tensors.size() == 3);
}

TEST_CASE("safetensors: every single bit flip loads or throws attic::Error", "[safetensors]") {
  TempDir dir;
  const std::string good = dir.file("good.safetensors");
  nn::save_safetensors(good, {{"a", from_vector<float>({1, 2})}, {"b", scalar_tensor(3, kInt64)}},
                       {{"m", "x"}});
  const std::string bytes = read_bytes(good);
  const std::string path = dir.file("flipped.safetensors");
  int loaded = 0, rejected = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = bytes;
      flipped[i] = char(flipped[i] ^ (1 << bit));
      write_bytes(path, flipped);
      try {
        nn::load_safetensors(path);
        ++loaded;
      } catch (const Error&) {
        ++rejected;
      }
    }
  }
  // Flips in the data or in a metadata value still load; most header flips are rejected.
  CHECK(loaded + rejected == int(bytes.size()) * 8);
  CHECK(loaded >= 16 * 8);
  CHECK(rejected > 0);
}

TEST_CASE("safetensors: missing, short and oversized files are rejected", "[safetensors]") {
  TempDir dir;
  const std::string missing = dir.file("nope.safetensors");
  CHECK_THAT(error_message([&] { nn::load_safetensors(missing); }),
             Catch::Matchers::StartsWith("load_safetensors: cannot open '" + missing + "': "));
  CHECK_THROWS_AS(nn::load_safetensors(dir.path.string()), Error);  // a directory

  const std::string path = dir.file("bad.safetensors");
  write_bytes(path, std::string("\x08\0\0\0\0", 5));
  CHECK(error_message([&] { nn::load_safetensors(path); }) ==
        "load_safetensors: '" + path + "': the file is 5 bytes, too short for the 8-byte "
        "header length");

  write_bytes(path, std::string("\x10\0\0\0\0\0\0\0", 8) + "{}      ");
  CHECK(error_message([&] { nn::load_safetensors(path); }) ==
        "load_safetensors: '" + path + "': header length 16 runs past the end of the file "
        "(16 bytes)");

  // 100,000,008 = 0x05F5E108: over the 100 MB cap, rejected before anything is allocated.
  write_bytes(path, std::string("\x08\xE1\xF5\x05\0\0\0\0", 8) + "{}      ");
  CHECK(error_message([&] { nn::load_safetensors(path); }) ==
        "load_safetensors: '" + path + "': header length 100000008 is over the limit of "
        "100000000 bytes");
  write_bytes(path, std::string(8, '\xFF') + "{}      ");
  CHECK_THROWS_AS(nn::load_safetensors(path), Error);
}

TEST_CASE("safetensors: a header that is not a JSON object is rejected", "[safetensors]") {
  TempDir dir;
  const std::string p = "load_safetensors: '" + dir.file("bad.safetensors") + "': ";
  CHECK(load_error(dir, "{       ", "") ==
        p + "the header is not valid JSON: json: unexpected end of input at byte 8");
  CHECK(load_error(dir, "[]      ", "") == p + "the header is a JSON array, not an object");
  CHECK(load_error(dir, "", "").find("not valid JSON") != std::string::npos);
  CHECK(load_error(dir, std::string("{\"\xFF\":1}", 7), "").find("invalid UTF-8") !=
        std::string::npos);
  CHECK(load_error(dir, std::string(8, '\0'), "").find("not valid JSON") != std::string::npos);
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[],"data_offsets":[0,4]},"a":{}})",
                   std::string(4, '\0'))
            .find("duplicate key") != std::string::npos);
}

TEST_CASE("safetensors: malformed tensor entries are rejected", "[safetensors]") {
  TempDir dir;
  const std::string p = "load_safetensors: '" + dir.file("bad.safetensors") + "': ";
  const std::string four(4, '\0');
  CHECK(load_error(dir, R"({"a":[1]})", "") == p + "tensor 'a' is a JSON array, not an object");
  CHECK(load_error(dir, R"({"a":{"shape":[1],"data_offsets":[0,4]}})", four) ==
        p + "tensor 'a' lacks the field 'dtype'");
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","data_offsets":[0,4]}})", four) ==
        p + "tensor 'a' lacks the field 'shape'");
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[1]}})", four) ==
        p + "tensor 'a' lacks the field 'data_offsets'");
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":0}})", four) ==
        p + "tensor 'a' has an unknown field 'x'");
  CHECK(load_error(dir, R"({"a":{"dtype":32,"shape":[1],"data_offsets":[0,4]}})", four) ==
        p + "tensor 'a' has dtype 32, not a string");
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":"1","data_offsets":[0,4]}})", four)
            .find("not an array of non-negative integers") != std::string::npos);
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[1.0],"data_offsets":[0,4]}})", four)
            .find("not an array of non-negative integers") != std::string::npos);
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4,4]}})", four)
            .find("not two integers") != std::string::npos);
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[1],"data_offsets":["0","4"]}})", four)
            .find("not two integers") != std::string::npos);
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[1],"data_offsets":null}})", four)
            .find("not two integers") != std::string::npos);
}

TEST_CASE("safetensors: unknown dtypes are rejected", "[safetensors]") {
  TempDir dir;
  const std::string p = "load_safetensors: '" + dir.file("bad.safetensors") + "': ";
  CHECK(load_error(dir, R"({"h":{"dtype":"I32","shape":[1],"data_offsets":[0,4]}})",
                   std::string(4, '\0')) ==
        p + "tensor 'h' has dtype 'I32', which attic cannot read (it reads F32, F64, BF16, F16, I64 "
            "and BOOL)");
  for (const char* dtype : {"F8_E4M3", "I16", "U8", "bool", "f32", "float32", ""}) {
    INFO(dtype);
    CHECK_THAT(load_error(dir, std::string(R"({"h":{"dtype":")") + dtype +
                                   R"(","shape":[],"data_offsets":[0,4]}})",
                          std::string(4, '\0')),
               Catch::Matchers::ContainsSubstring("which attic cannot read"));
  }
}

TEST_CASE("safetensors: negative and overflowing shapes are rejected", "[safetensors]") {
  TempDir dir;
  const std::string p = "load_safetensors: '" + dir.file("bad.safetensors") + "': ";
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[2,-1],"data_offsets":[0,0]}})", "") ==
        p + "tensor 'a' has shape [2,-1], not an array of non-negative integers");
  // 2^62 * 2^62 elements overflow int64; so do they next to a 0 (the strides would).
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[4611686018427387904,4611686018427387904],)"
                        R"("data_offsets":[0,0]}})", "") ==
        p + "tensor 'a' has shape [4611686018427387904, 4611686018427387904], too many elements");
  CHECK(load_error(dir, R"({"a":{"dtype":"I64","shape":[0,4611686018427387904,4],)"
                        R"("data_offsets":[0,0]}})", "")
            .find("too many elements") != std::string::npos);
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[9223372036854775808],"data_offsets":[0,0]}})",
                   "")
            .find("not an array of non-negative integers") != std::string::npos);
}

TEST_CASE("safetensors: data_offsets must fit the shape and the buffer", "[safetensors]") {
  TempDir dir;
  const std::string p = "load_safetensors: '" + dir.file("bad.safetensors") + "': ";
  const std::string eight(8, '\0');
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}})", eight) ==
        p + "tensor 'a' has data_offsets [8,0], not two integers 0 <= begin <= end");
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[-8,0]}})", eight)
            .find("not two integers") != std::string::npos);
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,8]}})", eight) ==
        p + "tensor 'a' has data_offsets [0, 8], 8 bytes, but shape [2, 2] of F32 needs 16");
  CHECK(load_error(dir, R"({"a":{"dtype":"F64","shape":[2],"data_offsets":[0,16]}})", eight) ==
        p + "tensor 'a' has data_offsets [0, 16], past the end of the 8-byte buffer");
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[2],"data_offsets":)"
                        R"([9223372036854775800,9223372036854775808]}})", eight)
            .find("not two integers") != std::string::npos);
}

TEST_CASE("safetensors: overlapping tensors are rejected", "[safetensors]") {
  TempDir dir;
  const std::string p = "load_safetensors: '" + dir.file("bad.safetensors") + "': ";
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                        R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                   std::string(12, '\0')) ==
        p + "tensors 'a' [0, 8) and 'b' [4, 12) overlap");
  // The same bytes claimed twice.
  CHECK(load_error(dir, R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                        R"("b":{"dtype":"I64","shape":[],"data_offsets":[0,8]}})",
                   std::string(8, '\0'))
            .find("overlap") != std::string::npos);
}

TEST_CASE("safetensors: bytes that belong to no tensor are rejected", "[safetensors]") {
  TempDir dir;
  const std::string p = "load_safetensors: '" + dir.file("bad.safetensors") + "': ";
  const std::string a = R"("a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]})";
  CHECK(load_error(dir, "{" + a + "}", std::string(8, '\0')) ==
        p + "bytes [4, 8) of the buffer belong to no tensor");
  CHECK(load_error(dir, "{" + a + R"(,"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
                   std::string(12, '\0')) ==
        p + "bytes [4, 8) of the buffer belong to no tensor");
  CHECK(load_error(dir, R"({"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                   std::string(8, '\0')) ==
        p + "bytes [0, 4) of the buffer belong to no tensor");
  CHECK(load_error(dir, "{}", "x") == p + "bytes [0, 1) of the buffer belong to no tensor");
}

TEST_CASE("safetensors: metadata must be an object of strings", "[safetensors]") {
  TempDir dir;
  const std::string p = "load_safetensors: '" + dir.file("bad.safetensors") + "': ";
  CHECK(load_error(dir, R"({"__metadata__":{"epoch":3}})", "") ==
        p + "metadata 'epoch' is a JSON number, not a string");
  CHECK(load_error(dir, R"({"__metadata__":["a"]})", "") ==
        p + "__metadata__ is a JSON array, not an object");
  CHECK(load_error(dir, R"({"__metadata__":{"a":null}})", "").find("not a string") !=
        std::string::npos);
  CHECK(load_error(dir, R"({"__metadata__":{"a":{"b":"c"}}})", "").find("not a string") !=
        std::string::npos);
}
