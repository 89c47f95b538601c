// Reading an ONNX file without copying its weights: the file is mapped, and a scan of
// its wire format copies everything but the large raw_data payloads of the main graph's
// initializers into the bytes protobuf parses; those stay in the mapping, found by the
// initializer's name. A 100 MB resnet50 export with weights then parses in the time its
// 100 KB of graph takes, where a whole parse first copies (and page-faults in) every
// weight. Anything unexpected in the scan (a malformed file, a group field) falls back
// to parsing the whole file, whose errors are then the ones reported.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <onnx/onnx_pb.h>

namespace ridge::onnx_import {

struct OnnxFile {
  onnx::ModelProto model;
  // The raw_data left in the mapping, by initializer name (empty when the whole file was parsed).
  std::map<std::string, std::string_view> raw;
  std::shared_ptr<const void> mapping;  // keeps `raw` readable
};

// Reads the ONNX file at `path` (throws an InputError when it cannot be read or parsed).
OnnxFile read_onnx_in_place(const std::string& path);

// Parses `bytes` into `f` (model and raw, which points into `bytes`); false, with `f`
// empty, when the scan or the parse fails.
bool parse_in_place(std::string_view bytes, OnnxFile& f);

}  // namespace ridge::onnx_import
