// An ONNX file read from disk (or bytes in memory) keeps its large raw data in place
// (sim/workload/onnx/weights_in_place.hpp): the counts, the tied-head check that
// compares weight values, and the truncated-data error must be those of a whole parse.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "onnx_text.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {
namespace {

namespace fs = std::filesystem;

// A float initializer [rows, cols] holding `values` (raw little-endian floats).
onnx::TensorProto matrix(const std::string& name, int64_t rows, int64_t cols, const std::vector<float>& values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  t.add_dims(rows);
  t.add_dims(cols);
  t.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  return t;
}

// ids [1, 4] -> the embedding E [40, 32] (5,120 bytes of raw data, above the 4 KB kept
// in place) -> two heads: `lm_head` by E's transpose as an eval export writes it
// (onnx::MatMul_9, tied: no parameters of its own), `other` by a matrix of other values
// (its own 1,280), as scripts/make-test-onnx's tied-head-eval.onnx but above 4 KB.
// Parameters by hand: 40 x 32 + 32 x 40 = 2,560; MACs 2 heads x 4 x 32 x 40 = 10,240.
onnx::ModelProto tied_heads(size_t embedding_bytes) {
  onnx::ModelProto m;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(
      onnx_test::onnx_text(onnx_test::node("/wte/Gather", "Gather", "E x", "h") +
                               onnx_test::node("/lm_head/MatMul", "MatMul", "h onnx::MatMul_9", "y") +
                               onnx_test::node("/other/MatMul", "MatMul", "h onnx::MatMul_10", "z"),
                           "1 4", 7),
      &m));
  std::vector<float> e(40 * 32), et(32 * 40), w(32 * 40);
  for (int r = 0; r < 40; ++r)
    for (int c = 0; c < 32; ++c) {
      e[r * 32 + c] = static_cast<float>(r * 32 + c);
      et[c * 40 + r] = e[r * 32 + c];
      w[c * 40 + r] = -e[r * 32 + c];
    }
  *m.mutable_graph()->add_initializer() = matrix("E", 40, 32, e);
  m.mutable_graph()->mutable_initializer(0)->mutable_raw_data()->resize(embedding_bytes);
  *m.mutable_graph()->add_initializer() = matrix("onnx::MatMul_9", 32, 40, et);
  *m.mutable_graph()->add_initializer() = matrix("onnx::MatMul_10", 32, 40, w);
  m.mutable_graph()->add_output()->set_name("z");
  return m;
}

std::string written(const onnx::ModelProto& m, const std::string& tag) {
  const std::string path = (fs::temp_directory_path() / ("ridge-in-place-" + tag + std::to_string(::getpid()) + ".onnx")).string();
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
  return path;
}

TEST(OnnxWeightsInPlace, ATiedHeadIsFoundInTheMappedFile) {
  const std::string path = written(tied_heads(40 * 32 * 4), "tied");
  const Model from_file = load_model(path);
  fs::remove(path);
  EXPECT_EQ(from_file.layers[from_file.find("lm_head")].counts.params, 0);
  const LayerCost t = analyze_costs(from_file, RunSettings{}).totals;
  EXPECT_EQ(t.params, 2560);
  EXPECT_EQ(t.macs, 10240);
  // From bytes in memory (the fuzz target's path): the same scan, the raw data left in the string.
  const std::string bytes = tied_heads(40 * 32 * 4).SerializeAsString();
  const Model from_bytes = read_model_table(onnx_model_table_from_bytes(bytes, "t.onnx", {}), "t.onnx");
  EXPECT_EQ(analyze_costs(from_bytes, RunSettings{}).totals.params, 2560);
}

// E's raw data cut to 4,800 bytes: 1,200 values for a shape of 1,280, an error as from a whole parse.
TEST(OnnxWeightsInPlace, RawDataShorterThanItsShapeIsStillAnError) {
  const std::string path = written(tied_heads(4800), "short");
  try {
    load_model(path);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("holds 1200 values, fewer than its shape's 1280"), std::string::npos) << e.what();
  }
  fs::remove(path);
}

// A file cut inside E's raw data: the scan finds a length past the end and falls back to
// a whole parse, whose error is the one reported.
TEST(OnnxWeightsInPlace, AFileCutInsideItsWeightsIsUnreadable) {
  std::string bytes = tied_heads(40 * 32 * 4).SerializeAsString();
  const size_t cut = bytes.find(std::string(reinterpret_cast<const char*>(std::vector<float>{100.0f}.data()), 4));
  ASSERT_NE(cut, std::string::npos);
  const std::string path = (fs::temp_directory_path() / ("ridge-in-place-cut" + std::to_string(::getpid()) + ".onnx")).string();
  std::ofstream(path, std::ios::binary) << bytes.substr(0, cut);
  try {
    load_model(path);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is not a readable ONNX model"), std::string::npos) << e.what();
  }
  fs::remove(path);
}

}  // namespace
}  // namespace ridge
