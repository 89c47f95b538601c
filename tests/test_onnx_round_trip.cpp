// `ridge import` always reads back (issue #28): every ONNX file the suite ships that the
// analyser accepts is translated, folded into repeat blocks, written as TOML text, read
// back and analysed, and must give the ONNX graph's own totals; a graph of symbolic
// sequence length keeps it as a [params] entry that --set model.seq changes; and a graph whose two
// folded runs share a parent's name (squeezenet1_1's features.3-4 and features.6-7
// around a pool) writes a file whose layer names are unique.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include <google/protobuf/text_format.h>
#include <onnx/onnx_pb.h>

#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/workload/model_reader.hpp"
#include "sim/workload/onnx/symbolic_params.hpp"
#include "sim/workload/repeat_blocks.hpp"

namespace ridge {
namespace {

namespace fs = std::filesystem;

// The model file `ridge import` writes for this table, as text.
std::string imported_text(toml::table table) {
  table.insert_or_assign("layer", fold_repeats(*table.get_as<toml::array>("layer")));
  std::ostringstream os;
  os << toml::toml_formatter(table);
  return os.str();
}

void expect_same_totals(const Model& a, const Model& b, const std::string& what) {
  CostAnalysis x = analyze_costs(a, RunSettings{}), y = analyze_costs(b, RunSettings{});
  EXPECT_EQ(x.totals.macs, y.totals.macs) << what;
  EXPECT_EQ(x.totals.flops, y.totals.flops) << what;
  EXPECT_EQ(x.totals.params, y.totals.params) << what;
  EXPECT_EQ(a.layers.size(), b.layers.size()) << what;
}

TEST(OnnxRoundTrip, EveryShippedFileTheAnalyserAcceptsReadsBackToTheSameTotals) {
  // Refused on purpose (tests/test_onnx_import.cpp checks their messages): a broadcast
  // that fails, an opset ridge does not read, and a dynamic H x W without --input.
  const std::set<std::string> refused = {"no-broadcast.onnx", "opset-99.onnx", "dynamic-hw.onnx"};
  OnnxOptions options;
  options.allow_unknown = true;  // unknown-op.onnx: its stand-in layer must read back too
  int checked = 0;
  for (const auto& e : fs::directory_iterator("tests/data/onnx")) {
    const std::string name = e.path().filename().string();
    if (refused.count(name)) continue;
    SCOPED_TRACE(name);
    // resize-computed.onnx: its symbolic height and width, as --set model.height=4 would
    // give them; gpt-tiny.onnx its sequence.
    options.dims.clear();
    if (name == "resize-computed.onnx") options.dims = {{"height", "4"}, {"width", "6"}};
    if (name == "gpt-tiny.onnx") options.dims = {{"seq", "16"}};
    Model from_onnx = read_model_table(onnx_model_table(e.path().string(), options), e.path().string());
    Model read_back = read_model_string(imported_text(onnx_import_table(e.path().string(), options)), name + ".toml");
    expect_same_totals(read_back, from_onnx, name);
    ++checked;
  }
  EXPECT_EQ(checked, 25);  // the 28 files of tests/data/onnx less the 3 refused
}

// gpt-tiny.onnx (scripts/onnx-zoo --test-files): torch's export of a two-layer decoder
// (vocabulary 100, 64 positions, width 32, 4 heads, FFN 128, no mask, untied head) whose
// ids are [batch, seq], both symbolic. By hand, for a sequence of T tokens:
//   parameters 3,200 + 2,048 (wte, wpe) + 2 x 12,704 (in_proj 3,168, out_proj 1,056,
//     linear1 4,224, linear2 4,128, two norms of 64) + 64 (ln) + 3,200 (head) = 33,920;
//   MACs 2 x (T*32*96 + 2 * 4*T*T*8 + T*32*32 + 2 * T*32*128) + T*32*100 = 27,776 T + 128 T^2:
//     477,184 at T = 16, 1,019,904 at T = 32.
// Imported at --set model.seq=16, the file keeps seq as its [params] and gives both.
TEST(OnnxRoundTrip, AnImportedFileKeepsTheSymbolicSequenceAsAParameter) {
  const std::string path = "tests/data/onnx/gpt-tiny.onnx";
  OnnxOptions options;
  options.dims = {{"seq", "16"}};
  const std::string file = imported_text(onnx_import_table(path, options));
  EXPECT_NE(file.find("[params]\nseq = 16"), std::string::npos) << file;
  const Model at16 = read_model_string(file, "gpt-tiny.toml");
  const Model at32 = read_model_string(file, "gpt-tiny.toml", {{"seq", "32", {}}});
  EXPECT_EQ(analyze_costs(at16, RunSettings{}).totals.macs, 477184);
  EXPECT_EQ(analyze_costs(at32, RunSettings{}).totals.macs, 1019904);
  EXPECT_EQ(analyze_costs(at32, RunSettings{}).totals.params, 33920);
  options.dims = {{"seq", "32"}};
  expect_same_totals(at32, read_model_table(onnx_model_table(path, options), path), "seq 32");
}

// torch's Sequential(Conv, Blk, Blk, MaxPool, Blk, Blk) with Blk = Conv 1x1 + ReLU, its
// node names scoped as torch.onnx.export writes them, on a 3 x 8 x 8 input:
//   features.0    conv 3 -> 4, 1x1:  8 * 8 * 4 * 3 =   768 MACs, 12 weights
//   features.1-2  conv 4 -> 4, 1x1:  8 * 8 * 4 * 4 = 1,024 MACs, 16 weights each
//   features.3    max pool 2x2 stride 2 -> 4 x 4 x 4
//   features.4-5  conv 4 -> 4, 1x1:  4 * 4 * 4 * 4 =   256 MACs, 16 weights each
// MACs 768 + 2 * 1,024 + 2 * 256 = 3,328; parameters 12 + 4 * 16 = 76.
std::string conv_node(const std::string& name, const std::string& in, const std::string& w, const std::string& out) {
  return "node { name: \"" + name + "\" input: \"" + in + "\" input: \"" + w + "\" output: \"" + out +
         "\" op_type: \"Conv\" attribute { name: \"kernel_shape\" type: INTS ints: 1 ints: 1 } } ";
}
std::string block(int i, const std::string& in) {
  const std::string s = std::to_string(i), scope = "/features/features." + s;
  return conv_node(scope + "/conv/Conv", in, "w" + s, "c" + s) + "node { name: \"" + scope + "/relu/Relu\" input: \"c" + s +
         "\" output: \"a" + s + "\" op_type: \"Relu\" } ";
}
std::string weight(int i, int in_channels) {
  return "initializer { name: \"w" + std::to_string(i) + "\" data_type: 1 dims: 4 dims: " + std::to_string(in_channels) +
         " dims: 1 dims: 1 } ";
}

TEST(OnnxRoundTrip, TwoFoldedRunsUnderOneParentKeepUniqueNames) {
  const std::string text =
      "ir_version: 8 opset_import { version: 17 } graph { " + conv_node("/features/features.0/Conv", "x", "w0", "a0") +
      block(1, "a0") + block(2, "a1") +
      "node { name: \"/features/features.3/MaxPool\" input: \"a2\" output: \"a3\" op_type: \"MaxPool\" "
      "attribute { name: \"kernel_shape\" type: INTS ints: 2 ints: 2 } attribute { name: \"strides\" type: INTS ints: 2 ints: 2 } } " +
      block(4, "a3") + block(5, "a4") +
      "input { name: \"x\" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 3 } "
      "dim { dim_value: 8 } dim { dim_value: 8 } } } } } output { name: \"a5\" } " +
      weight(0, 3) + weight(1, 4) + weight(2, 4) + weight(4, 4) + weight(5, 4) + " }";
  onnx::ModelProto proto;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &proto));
  toml::table table = onnx_model_table_from_bytes(proto.SerializeAsString(), "seq.onnx", {});
  Model from_onnx = read_model_table(table, "seq.onnx");
  CostAnalysis c = analyze_costs(from_onnx, RunSettings{});
  EXPECT_EQ(c.totals.macs, 3328);
  EXPECT_EQ(c.totals.params, 76);
  const std::string file = imported_text(table);
  Model read_back = read_model_string(file, "seq.toml");  // was: "two layers are called 'features'"
  expect_same_totals(read_back, from_onnx, "seq");
  // The first run folds into the block `features`; the second, whose name that now is,
  // stays flat with the names the analysis shows.
  size_t blocks = 0;
  for (size_t at = 0; (at = file.find("\nrepeat = ", at)) != std::string::npos; ++at) ++blocks;
  EXPECT_EQ(blocks, 1u) << file;
  // The names are the analysis's, but for a layer named after its instance (the bare
  // Conv features.0, the pool features.3), which import names "<instance>.<op>" as it
  // always has (resnet's residual add layer2.3 is layer2.3.add).
  EXPECT_EQ(read_back.layer_names(),
            (std::vector<std::string>{"features.0.conv2d", "features.1.conv", "features.1.relu", "features.2.conv",
                                      "features.2.relu", "features.3.max_pool2d", "features.4.conv", "features.4.relu",
                                      "features.5.conv", "features.5.relu"}));
}

// A layer named after its instance ("enc.0", written "enc.0.conv2d") whose weights a
// later one shares (RAFT's update block, unrolled 12 times, every conv `tied_to` the
// first iteration's): the later layer's tied_to follows the new name, and the file reads
// back with the weights once: 4 x 3 + 4 biases = 16 parameters, 2 x 4 x 3 x 16 = 384 MACs.
TEST(OnnxRoundTrip, ALayerTiedToARenamedOneFollowsItsName) {
  toml::table table = toml::parse(
      "name = \"m\"\n[input]\nshape = [3, 4, 4]\n"
      "[[layer]]\nname = \"enc.0\"\nop = \"conv2d\"\nout_channels = 4\nkernel = 1\n"
      "[[layer]]\nname = \"enc.0_1\"\nop = \"conv2d\"\ninputs = [\"@input\"]\nout_channels = 4\nkernel = 1\n"
      "tied_to = \"enc.0\"\n");
  Model flat = read_model_table(table, "m.toml");
  Model read_back = read_model_string(imported_text(table), "m.toml");  // was: tied_to 'enc.0' names no layer
  expect_same_totals(read_back, flat, "tied");
  CostAnalysis c = analyze_costs(read_back, RunSettings{});
  EXPECT_EQ(c.totals.params, 16);
  EXPECT_EQ(c.totals.macs, 384);
}

}  // namespace
}  // namespace ridge
