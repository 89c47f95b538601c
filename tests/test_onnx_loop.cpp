// ONNX Loop (issue #28), on tests/data/onnx/loop-paste.onnx (scripts/make-test-onnx says
// what it holds: Mask R-CNN's paste_masks_in_image in small): a Loop over the detections
// NMS keeps, its trip count the length of a tensor that depends on the data, its body
// counted once per trip at the first trip's shapes, the box its sizes come from taken as
// the whole image (sim/workload/onnx/loop_ops.cpp); and the `trips` and `pad` layers the
// import writes for it, in a model file; counts worked out by hand.
#include <gtest/gtest.h>

#include "sim/workload/model_catalog.hpp"
#include "sim/workload/model_reader.hpp"
#include "sim/workload/onnx/onnx_reader.hpp"

namespace ridge {
namespace {

const std::string kFile = "tests/data/onnx/loop-paste.onnx";

Model loop_paste(const OnnxOptions& options) { return read_model_table(onnx_model_table(kFile, options), kFile); }

// The layer called `name` (an exception, failing the test, where there is none).
const Layer& layer(const Model& m, const std::string& name) { return m.layers.at(static_cast<size_t>(m.find(name))); }

// NMS keeps at most 3 of the 32 boxes (max_output_boxes_per_class = 3, no cut after it),
// so the detections, and the trips, are 3. Each trip resizes its mask [1, 2, 4, 4] to its
// box, taken as the image, 8 x 8: bilinear, 4 multiplies + 3 adds for each of 2 x 8 x 8
// = 128 outputs, 896 FLOPs; 3 trips, 2,688. The widths, x1 - x0, 1 FLOP a trip: 3. The
// crop by the box keeps the whole 8 x 8 (64 elements a trip); the zeros above it are
// empty, so the paste is a copy of the crop. The list the trips append to comes out as the
// 3 trips' [1, 8, 8] joined: [3, 8, 8], 192 elements written.
TEST(OnnxLoop, ATripCountedOncePerDetectionWithTheBoxTakenAsTheImage) {
  const Model m = loop_paste({});
  const Layer& resize = layer(m, "Resize");
  EXPECT_EQ(resize.output, (Shape{2, 8, 8}));  // (per sample: the batch of one is the first axis)
  EXPECT_EQ(resize.counts.flops, 3 * 128 * 7);
  EXPECT_EQ(resize.counts.output_elems, 3 * 128);
  EXPECT_EQ(layer(m, "Sub_w").counts.flops, 3);
  const Layer& crop = layer(m, "Slice_crop");
  EXPECT_EQ(crop.output, (Shape{8, 8}));
  const Layer& paste = layer(m, "Concat_paste");
  EXPECT_EQ(paste.output, (Shape{8, 8}));
  EXPECT_EQ(paste.counts.output_elems, 3 * 64);
  const Layer& joined = layer(m, "paste");
  EXPECT_EQ(joined.output, (Shape{3, 8, 8}));
  EXPECT_EQ(joined.counts.output_elems, 192);
  bool said = false;
  for (const std::string& note : m.notes)
    if (note.find("paste 3 trips") != std::string::npos && note.find("as if the box were the whole image") != std::string::npos)
      said = true;
  EXPECT_TRUE(said) << "no note on the loop's assumption";
}

// The two layer forms the import writes for it, in a model file by hand: `trips = 3` on
// a bilinear resize of [2, 4, 4] to 8 x 8 counts 3 x 128 outputs x 7 FLOPs = 2,688, the
// output one trip's [2, 8, 8]; a `pad` of 1 around [2, 8, 8] copies 128 elements into
// [2, 10, 10], 200 written, no FLOPs.
TEST(OnnxLoop, TripsAndPadLayersInAModelFile) {
  const Model m = read_model_string(
      "name = \"t\"\n[input]\nshape = [2, 4, 4]\n"
      "[[layer]]\nname = \"r\"\nop = \"resize\"\nsize = [8, 8]\nmode = \"linear\"\ntrips = 3\n"
      "[[layer]]\nname = \"p\"\nop = \"pad\"\npads = [1, 1]\n",
      "m.toml");
  EXPECT_EQ(layer(m, "r").output, (Shape{2, 8, 8}));
  EXPECT_EQ(layer(m, "r").counts.flops, 2688);
  EXPECT_EQ(layer(m, "r").counts.output_elems, 384);
  EXPECT_EQ(layer(m, "p").output, (Shape{2, 10, 10}));
  EXPECT_EQ(layer(m, "p").counts.input_elems, 128);
  EXPECT_EQ(layer(m, "p").counts.output_elems, 200);
  EXPECT_EQ(layer(m, "p").counts.flops, 0);
}

// --set onnx.max_detections=2: NMS keeps 2, the loop runs 2 trips: 1,792 FLOPs of resize,
// [2, 8, 8] out.
TEST(OnnxLoop, MaxDetectionsSetsTheTripsOfALoopOverTheDetections) {
  OnnxOptions two;
  two.max_detections = 2;
  const Model m = loop_paste(two);
  EXPECT_EQ(layer(m, "Resize").counts.flops, 2 * 128 * 7);
  EXPECT_EQ(layer(m, "paste").output, (Shape{2, 8, 8}));
}

}  // namespace
}  // namespace ridge
