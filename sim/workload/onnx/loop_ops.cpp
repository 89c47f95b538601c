// Loop: an ONNX loop whose trip count ridge can fold, e.g. one trip per detection kept
// (Mask R-CNN's paste_masks_in_image, Keypoint R-CNN's heatmaps_to_keypoints, whose
// count is the length of a tensor the graph bounds: detections_per_img). The body is
// translated once, at its first trip's shapes (iteration 0, the loop-carried values as
// they come in), each of its layers with `trips = M` (sim/workload/stacked_layer.hpp):
// counted once per trip. A carried value the body appends to (torch's exporter writes a
// list as an empty tensor joined with each trip's item) comes out as the trips' items
// joined: a `tile` of the first trip's along the axis it grows on.
//
// Sizes a trip computes from the data (the detection's box) cannot be folded; inside a
// Loop they are taken as if the box were the whole image (`trip_size_note`): a Resize to
// such a size gives the input image's spatial size, a Slice between such bounds keeps the
// whole axis, a ConstantOfShape of such a size (the margins around the pasted box) is
// empty. Outside a Loop they stay errors.
//
// A Loop that carries a sequence (sequence_ops.cpp) builds a list whose items differ by
// trip (torch.tensor_split's slices, one per index): it is unrolled, every trip translated
// with its own iteration number, no assumption made.
#include "sim/workload/onnx/translator.hpp"

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

namespace {

constexpr int64_t kMaxLoopTrips = int64_t{1} << 32;
constexpr int64_t kMaxUnrolledTrips = 4096;  // a loop that carries a sequence (unrolled_loop)

Tensor scalar_constant(int64_t v) {
  Tensor t;
  t.shape = {};
  t.values = std::vector<int64_t>{v};
  t.scalar = static_cast<double>(v);
  return t;
}

}  // namespace

void Translator::loop(const onnx::NodeProto& n, int) {
  if (!has_input(n, 0))
    fail(n, "has no trip count: it runs until its condition turns false, a number of trips ridge cannot bound");
  const Tensor& count = tensor(n, 0);
  if (count.activation || !count.values || count.values->size() != 1)
    fail(n, "its trip count is computed from the data's values, not from sizes ridge knows");
  const int64_t m = (*count.values)[0];
  if (m < 1 || m > kMaxLoopTrips)
    fail(n, "runs " + std::to_string(m) + " trips (ridge counts loops of 1 to 2^32 trips)");
  if (has_input(n, 1)) {
    const Tensor& cond = tensor(n, 1);
    if (!cond.activation && cond.values && cond.values->size() == 1 && (*cond.values)[0] == 0)
      fail(n, "its condition is false before the first trip: it runs no trip");
  }
  const onnx::AttributeProto* body_attr = attr(n, "body");
  if (!body_attr || !body_attr->has_g()) fail(n, "has no body graph");
  const onnx::GraphProto& body = body_attr->g();
  const int carried = n.input_size() - 2;
  if (carried < 0 || body.input_size() != 2 + carried || body.output_size() < 1 + carried)
    fail(n, "its body takes " + std::to_string(body.input_size()) + " inputs and gives " +
                std::to_string(body.output_size()) + " outputs for " + std::to_string(std::max(carried, 0)) +
                " loop-carried values (ONNX: 2 + carried inputs, 1 + carried outputs and its scan outputs)");
  if (n.output_size() != carried || body.output_size() != 1 + carried)
    fail(n, "has scan outputs, which ridge does not model");
  for (int k = 0; k < carried; ++k)
    if (sequences_.count(n.input(2 + k))) return unrolled_loop(n, body, m);

  // The first trip: iteration 0, the condition true, the carried values as given.
  tensors_[body.input(0).name()] = scalar_constant(0);
  tensors_[body.input(1).name()] = scalar_constant(1);
  for (int k = 0; k < carried; ++k) tensors_[body.input(2 + k).name()] = tensor(n, 2 + k);
  for (const onnx::TensorProto& t : body.initializer()) constants_from(t, true);
  const int64_t outer_trips = trips_;
  trips_ = checked_mul(trips_, m);
  ++loop_depth_;
  loops_.push_back(module_name(n.name()) + " " + std::to_string(m) + " trips");
  for (int i = 0; i < body.node_size(); ++i) {
    check_arity(body.node(i));
    translate_node(body.node(i), i);
  }
  --loop_depth_;
  trips_ = outer_trips;

  for (int k = 0; k < carried; ++k) {
    auto it = tensors_.find(body.output(1 + k).name());
    if (it == tensors_.end()) fail(n, "its body output '" + body.output(1 + k).name() + "' is made by no node");
    const Tensor first = it->second;  // after the first trip
    const Tensor& start = tensor(n, 2 + k);
    const Shape before = full_shape(start), after = full_shape(first);
    if (before == after) {  // the same shape every trip: the last trip's value
      tensors_[n.output(k)] = first;
      continue;
    }
    // Appended to: an empty start that the trip's item fills along one axis.
    size_t axis = before.size();
    for (size_t d = 0; d < before.size() && d < after.size(); ++d)
      if (before[d] != after[d]) axis = axis == before.size() ? d : before.size() + 1;
    if (start.activation || element_count(before) != 0 || before.size() != after.size() || axis >= before.size() ||
        !first.activation)
      fail(n, "its loop-carried value '" + body.input(2 + k).name() + "' changes from " + shape_list(before) +
                  " to " + shape_list(after) + " in a trip, other than an empty tensor appended to along one axis");
    const auto per_sample = static_cast<size_t>(sample_axis(n, static_cast<int64_t>(axis), first));
    std::vector<int64_t> repeats(first.shape.size(), 1);
    repeats[per_sample] = m;
    toml::table a;
    a.insert("repeats", to_array(repeats));
    Tensor item = first;
    onnx::NodeProto joined;  // the layer is named after the loop, its output the loop's
    joined.set_name(n.name().empty() ? "Loop" : n.name());
    joined.set_op_type("Loop");
    joined.add_output(n.output(k));
    layer(joined, k, "tile", {&item}, std::move(a));
  }
}

// A Loop carrying a sequence (torch.tensor_split: one slice appended per index) runs
// each trip with its own iteration number, since the items differ: up to
// kMaxUnrolledTrips trips, each translated as written, the carried values passed on.
void Translator::unrolled_loop(const onnx::NodeProto& n, const onnx::GraphProto& body, int64_t trips) {
  if (trips > kMaxUnrolledTrips)
    fail(n, "carries a sequence through " + std::to_string(trips) + " trips; ridge unrolls such a loop, up to " +
                std::to_string(kMaxUnrolledTrips) + " trips");
  const int carried = n.input_size() - 2;
  auto carry = [&](const std::string& from, const std::string& to) {
    if (auto s = sequences_.find(from); s != sequences_.end()) {
      std::vector<Tensor> items = s->second;  // (a copy: `to` may be a key of the same map)
      sequences_[to] = std::move(items);
    } else if (auto t = tensors_.find(from); t != tensors_.end()) {
      Tensor value = t->second;
      tensors_[to] = std::move(value);
    } else {
      fail(n, "its loop-carried value '" + from + "' is made by no node");
    }
  };
  for (int k = 0; k < carried; ++k) carry(n.input(2 + k), body.input(2 + k).name());
  for (const onnx::TensorProto& t : body.initializer()) constants_from(t, true);
  for (int64_t trip = 0; trip < trips; ++trip) {
    tensors_[body.input(0).name()] = scalar_constant(trip);
    tensors_[body.input(1).name()] = scalar_constant(1);
    for (int i = 0; i < body.node_size(); ++i) {
      check_arity(body.node(i));
      translate_node(body.node(i), i);
    }
    for (int k = 0; k < carried; ++k) carry(body.output(1 + k).name(), body.input(2 + k).name());
  }
  for (int k = 0; k < carried; ++k) carry(body.input(2 + k).name(), n.output(k));
}

// What a Loop trip's data-dependent sizes were taken as (notes()).
std::string Translator::loop_note() const {
  std::string loops;
  for (const std::string& l : loops_) loops += (loops.empty() ? "" : ", ") + l;
  std::string note = "assumption: each Loop runs the trips its count folds to, a length taken at its bound where the "
                     "data sets it (" + loops + "), every trip counted at the first trip's shapes";
  if (trip_sizes_assumed_)
    note += "; sizes a trip computes from the data (a detection's box) are taken as if the box were the whole "
            "image: a Resize to it gives the image's size, a Slice by it keeps the whole axis, the zeros around it "
            "are empty";
  return note;
}

// A size input `i` of node `n` that a Loop trip computes from the data: the assumption
// above is taken (true, said in the note); false outside a Loop or for a folded size.
bool Translator::trip_size_from_data(const onnx::NodeProto& n, int i) {
  // (computed: an activation, or a constant whose values ridge does not know, as the
  // reduction of one image's values to one)
  if (loop_depth_ == 0 || !has_input(n, i) || (!tensor(n, i).activation && tensor(n, i).values)) return false;
  trip_sizes_assumed_ = true;
  return true;
}

}  // namespace ridge::onnx_import
