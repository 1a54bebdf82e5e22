// Checkpoints in the safetensors format (https://github.com/huggingface/safetensors), so
// attic's files open in Python (safetensors.numpy.load_file) and Python's open here:
//
//   [8 bytes]  N, little-endian uint64: the header length
//   [N bytes]  UTF-8 JSON: {"__metadata__": {"k": "v"},
//                           "fc.weight": {"dtype": "F32", "shape": [2, 4], "data_offsets": [0, 32]}, ...}
//              padded with spaces to a multiple of 8 bytes
//   [rest]     the byte buffer: each tensor row-major and little-endian at
//              [begin, end) of data_offsets, counted from the start of the buffer
//
//   nn::save(model, "ckpt.safetensors", {{"step", "1000"}});
//   auto metadata = nn::load(model, "ckpt.safetensors");
//
// attic reads and writes F32, F64, I64 and BOOL. Loading checks every field, offset and length
// and throws attic::Error naming the file and the problem; no input can make it read out
// of bounds.
#pragma once

#include <map>
#include <string>

#include "nn/module.h"

namespace attic::nn {

struct SafetensorsFile {
  StateDict tensors;                            // all on the CPU, contiguous
  std::map<std::string, std::string> metadata;  // "__metadata__", empty if absent
};

// Writes the tensors (sorted by name, moved to the CPU, made contiguous) and metadata.
// Atomic and durable: writes path + ".tmp", fsyncs and closes it, renames it over path and
// fsyncs the folder. On failure the temporary is removed and attic::Error is thrown, so
// path is never left half written.
// checksum: adds the metadata "fnv1a64", FNV-1a 64 (util/fnv1a.h) of the whole file as
// written with 16 '0's in place of those digits, so any later change to the header, the
// metadata or the data is caught on load. Other readers see one more metadata string.
// Returns those 16 hex digits ("" without checksum).
std::string save_safetensors(const std::string& path, const StateDict& tensors,
                             const std::map<std::string, std::string>& metadata = {},
                             bool checksum = false);

// Reads and checks the file. If its metadata holds "fnv1a64", the file must hash to it
// (files without one, from older attic or other writers, load unchecked). The key stays
// in the returned metadata.
SafetensorsFile load_safetensors(const std::string& path);

// save_safetensors(path, m.state_dict(), metadata).
void save(const Module& m, const std::string& path,
          const std::map<std::string, std::string>& metadata = {});

// m.load_state_dict(tensors of path, strict); returns the file's metadata.
std::map<std::string, std::string> load(Module& m, const std::string& path, bool strict = true);

}  // namespace attic::nn
