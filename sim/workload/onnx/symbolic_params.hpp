// The model table `ridge import` writes (symbolic_params.cpp): onnx_model_table's, with
// the input's symbolic dimensions that options.dims sizes kept as a [params] table (the
// sizes given are its defaults) and every size that follows them written as an
// expression over them, so that --set model.NAME works on the file as on the ONNX graph.
// Where the graph's sizes do not follow the dimensions, the sizes given stay fixed and a
// note says so. Also the reader's entry points it translates the graph through.
#pragma once

#include <string>
#include <string_view>

#include <onnx/onnx_pb.h>
#include <toml++/toml.h>

#include "sim/workload/onnx/onnx_reader.hpp"
#include "sim/workload/onnx/weights_in_place.hpp"

namespace ridge {

toml::table onnx_import_table(const std::string& path, const OnnxOptions& options);

namespace onnx_import {

// The note that says which sizes --set model.NAME gave the input's symbolic dimensions
// (reader.cpp); an imported file with [params] says so its own way.
constexpr std::string_view kSymbolicSizesNote = "sizes set for the input's symbolic dimensions: ";

[[noreturn]] void throw_unreadable(const std::string& file);
// The model table of a parsed graph (onnx_model_table's), its large initializers' raw
// data in place (weights_in_place.hpp).
toml::table translate_model(const OnnxFile& onnx, const std::string& file, const OnnxOptions& options);

}  // namespace onnx_import

}  // namespace ridge
