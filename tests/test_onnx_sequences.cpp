// ONNX constructs torchvision's MViT exports (issue #28), each in a small graph written in
// protobuf text with its counts worked out by hand: a Split and an Expand of constants
// folded with their values (torch.repeat_interleave of the position table), a parameter
// computed from several initializers counting each once, and torch.tensor_split's
// sequence built by a Loop, unrolled trip by trip (sim/workload/onnx/sequence_ops.cpp).
#include <gtest/gtest.h>

#include "onnx_text.hpp"

namespace ridge {
namespace {

using namespace onnx_test;

std::string ints(const std::string& name, const std::string& dims, const std::string& values) {
  std::string d, v;
  std::istringstream ds(dims), vs(values);
  for (std::string x; ds >> x;) d += "dims: " + x + " ";
  for (std::string x; vs >> x;) v += "int64_data: " + x + " ";
  return "initializer { name: \"" + name + "\" data_type: 7 " + d + v + "} ";
}

const Layer& layer(const Model& m, const std::string& name) { return m.layers.at(static_cast<size_t>(m.find(name))); }
int64_t total_params(const Model& m) {
  int64_t params = 0;
  for (const Layer& l : m.layers) params += l.counts.params;
  return params;
}

// MViT's position embedding in small, x [1, 5, 4]: a class row and 2 frames x 2 positions.
// The repeat counts: Expand(2, [2]) = [2, 2] (a Constant node's 2, as torch writes it), Split into [2] and [2] (values folded, or
// the Expands below could not read their shapes); each frame's row of `temporal` [2, 4]
// (a Split of the initializer) expanded to [2, 4]; joined, [4, 4]; plus `spatial` [2, 4]
// joined twice, [4, 4]; under the class row `cls` [4]: [5, 4], added to x. Its learned
// elements are temporal's 8 + spatial's 8 + cls's 4 = 20 parameters, each table once.
TEST(OnnxSequences, APositionTableRepeatedFromThreeInitializersCountsEachOnce) {
  const std::string body =
      node("count", "Constant", "", "two", "attribute { name: \"value\" type: TENSOR t { data_type: 7 int64_data: 2 } } ") +
      node("rep", "Expand", "two two_len", "rep") +
      node("split_rep", "Split", "rep ones", "r0 r1", int_attr("axis", 0)) +
      node("split_t", "Split", "temporal ones", "t0 t1", int_attr("axis", 0)) +
      node("s0", "Concat", "r0 four", "shape0", int_attr("axis", 0)) +
      node("s1", "Concat", "r1 four", "shape1", int_attr("axis", 0)) +
      node("e0", "Expand", "t0 shape0", "e0") + node("e1", "Expand", "t1 shape1", "e1") +
      node("frames", "Concat", "e0 e1", "te", int_attr("axis", 0)) +
      node("positions", "Concat", "spatial spatial", "sp", int_attr("axis", 0)) +
      node("sum", "Add", "te sp", "pos") + node("row", "Unsqueeze", "cls zero", "cls_row") +
      node("table", "Concat", "cls_row pos", "table", int_attr("axis", 0)) + node("add", "Add", "x table", "y") +
      ints("two_len", "1", "2") + ints("ones", "2", "1 1") + ints("four", "1", "4") +
      ints("zero", "1", "0") + init("temporal", "2 4") + init("spatial", "2 4") + init("cls", "4");
  const Model m = onnx_model(onnx_text(body, "1 5 4"));
  EXPECT_EQ(total_params(m), 20);
  const Layer& add = layer(m, "add");
  EXPECT_EQ(add.output, (Shape{5, 4}));
  EXPECT_EQ(add.counts.flops, 20);  // one add per element
}

// The eval-mode export of the same: the spatial table written unsqueezed, an initializer
// [1, 2, 2], expanded over 3 frames to [3, 2, 2] and viewed as [6, 2] rows, added to x
// [1, 6, 2]: a constant (not the table read once as a per-sample parameter, whose [2, 2]
// could not be viewed as [6, 2]) of the table's 4 learned elements; 12 adds.
TEST(OnnxSequences, AnInitializerExpandedOverItsOwnAxesIsAConstantOfItsElements) {
  const std::string body = node("frames", "Expand", "table shape", "e") + node("rows", "Reshape", "e flat", "r") +
                           node("add", "Add", "x r", "y") + init("table", "1 2 2") + ints("shape", "3", "3 2 2") +
                           ints("flat", "2", "6 2");
  const Model m = onnx_model(onnx_text(body, "1 6 2"));
  EXPECT_EQ(total_params(m), 4);
  const Layer& add = layer(m, "add");
  EXPECT_EQ(add.output, (Shape{6, 2}));
  EXPECT_EQ(add.counts.flops, 12);
}

// torch.tensor_split(x, (1, 3), dim=1) of x [1, 5, 4]: a Loop of 2 trips appends
// x[:, b[i]:b[i+1]] for the bounds b = [0, 1, 3] to an empty sequence, then the last
// piece x[:, 3:] is inserted after it. Item 1, the second trip's [2, 4] (at the first
// trip's shapes it would be [1, 4]), through a MatMul by [4, 3]: 2 x 4 x 3 = 24 MACs.
// SequenceLength folds to 3, and Gather(b, 3 - 1) = 3 slices item 2 again: x[:, 3:5].
TEST(OnnxSequences, ALoopBuildingASequenceIsUnrolledTripByTrip) {
  const std::string loop_body =
      "attribute { name: \"body\" type: GRAPH g { name: \"b\" " + node("lo", "Gather", "bounds i", "lo", int_attr("axis", 0)) +
      node("next", "Add", "i one", "i1") + node("hi", "Gather", "bounds i1", "hi", int_attr("axis", 0)) +
      node("piece", "Slice", "x lo hi axis", "piece") + node("append", "SequenceInsert", "seq_in piece", "seq_out") +
      node("keep", "Identity", "cond", "cond_out") +
      "input { name: \"i\" } input { name: \"cond\" } input { name: \"seq_in\" } "
      "output { name: \"cond_out\" } output { name: \"seq_out\" } } } ";
  const std::string body =
      node("empty", "SequenceEmpty", "", "seq0") + node("split", "Loop", "trips true seq0", "seq1", loop_body) +
      node("last", "Slice", "x three five axis", "tail") + node("insert", "SequenceInsert", "seq1 tail", "seq") +
      node("at", "SequenceAt", "seq one", "mid") + node("fc", "MatMul", "mid w", "out") +
      node("len", "SequenceLength", "seq", "n") + node("minus", "Sub", "n one", "last_i") +
      node("lo2", "Gather", "bounds last_i", "lo2", int_attr("axis", 0)) +
      node("again", "Slice", "x lo2 five axis", "y") +
      ints("trips", "", "2") + "initializer { name: \"true\" data_type: 9 int32_data: 1 } " +
      ints("bounds", "3 1", "0 1 3") + ints("one", "", "1") + ints("axis", "1", "1") + ints("three", "1", "3") +
      ints("five", "1", "5") + init("w", "4 3");
  const Model m = onnx_model(onnx_text(body, "1 5 4"));
  const Layer& fc = layer(m, "fc");
  EXPECT_EQ(fc.output, (Shape{2, 3}));
  EXPECT_EQ(fc.counts.macs, 24);
  EXPECT_EQ(layer(m, "piece").output, (Shape{1, 4}));    // trip 0: x[:, 0:1]
  EXPECT_EQ(layer(m, "piece.Slice").output, (Shape{2, 4}));  // trip 1: x[:, 1:3]
  EXPECT_EQ(layer(m, "again").output, (Shape{2, 4}));
  EXPECT_TRUE(m.notes.empty());  // unrolled: no assumption about the trips
}

TEST(OnnxSequences, BadSplitsAndPositionsAreLocatedErrors) {
  expect_refused(onnx_text(node("n", "Split", "table sizes", "a b", int_attr("axis", 0)) + node("r", "Relu", "x", "y") +
                           init("table", "4 2") + ints("sizes", "2", "1 2")),
                 "node 'n' (Split): 'split' sizes [1, 2] add up to 3, not the axis's 4");
  expect_refused(onnx_text(node("n", "Split", "table", "a b", int_attr("axis", 2)) + node("r", "Relu", "x", "y") +
                           init("table", "4 2")),
                 "node 'n' (Split): splits along axis 2, which a constant of shape [4x2] does not have");
  expect_refused(onnx_text(node("e", "SequenceEmpty", "", "s") + node("n", "SequenceAt", "s zero", "y") + ints("zero", "", "0")),
                 "node 'n' (SequenceAt): position 0 is outside a sequence of 0 items");
  expect_refused(onnx_text(node("n", "SequenceAt", "x zero", "y") + ints("zero", "", "0")),
                 "node 'n' (SequenceAt): input 'x' is not a sequence made by an earlier node");
}

}  // namespace
}  // namespace ridge
