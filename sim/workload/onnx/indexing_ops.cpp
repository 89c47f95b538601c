// Nodes that select or join parts of tensors: Concat -> concat, Split and Slice -> slice,
// Gather of an initializer table -> embedding and of one index -> select, Expand of an
// initializer -> parameter, of an activation -> tile; on constants, folded.
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>
#include <limits>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

void Translator::concat(const onnx::NodeProto& n, int index) {
  bool all_constant = true;
  for (int i = 0; i < n.input_size(); ++i) all_constant &= !tensor(n, i).activation;
  if (all_constant) {  // shape vectors built from pieces, or weights (an LSTM's gates, reordered)
    std::vector<int64_t> v;
    std::vector<double> r;  // (floating-point pieces: their values as reals)
    bool known = true, real = true;
    int64_t count = 0;
    for (int i = 0; i < n.input_size(); ++i) {
      const Tensor& t = tensor(n, i);
      count += t.shape.empty() ? 1 : t.shape[0];
      if (!t.values) known = false;
      else v.insert(v.end(), t.values->begin(), t.values->end());
      if (!t.reals) real = false;
      else r.insert(r.end(), t.reals->begin(), t.reals->end());
    }
    // The joined shape, when the pieces have one rank and agree off the axis; else a vector
    // of as many elements as the pieces hold (counted from their shapes when their values
    // are not known).
    Shape shape = tensor(n, 0).shape;
    const int64_t rank = static_cast<int64_t>(shape.size());
    int64_t axis = attr_int(n, "axis", 0);
    if (axis < 0) axis += rank;
    bool joined = axis >= 0 && axis < rank;
    for (int i = 1; joined && i < n.input_size(); ++i) {
      const Shape& s = tensor(n, i).shape;
      joined = s.size() == shape.size();
      for (int64_t d = 0; joined && d < rank; ++d) joined = d == axis || s[d] == shape[d];
      if (joined) shape[axis] = checked_add(shape[axis], s[axis]);
    }
    if (!joined) shape = {known ? static_cast<int64_t>(v.size()) : count};
    folded(n, shape, known ? std::optional(v) : std::nullopt);
    if (!known && real && static_cast<int64_t>(r.size()) == count) tensors_.at(n.output(0)).reals = r;
    return;
  }
  std::vector<Tensor> ins;
  Tensor first;  // the first activation: the others and the output follow its placement
  for (int i = n.input_size(); i-- > 0;)
    if (tensor(n, i).activation) first = tensor(n, i);
  int64_t axis = attr_int(n, "axis", 0);
  if (axis < 0) axis += static_cast<int64_t>(full_shape(first).size());
  // In a graph of one image, pieces joined along an axis of 1 taken as the batch's own
  // (a Loop trip's box coordinates, each unsqueezed) are each wholly the image's: viewed
  // as such (the axis merged, its whole length the sample's), they join below.
  // A scalar (a broadcast of one) is viewed as [1] so. In a batched graph, activations
  // joined along their batch axes (RAFT's torch.cat([image1, image2]) to run the encoder
  // on both) make k items per sample, [k x N, ...] read as [k, ...] a sample: each piece
  // viewed as one item, the join's length the sample's part (the batch its inner factor
  // rather than the outer: the costs per sample are the same).
  std::map<int, Tensor> whole_views;
  auto own_axis = [&](const Tensor& t) {
    return (!t.at.merged && t.at.batch == axis) || (full_shape(t).empty() && axis == 0);
  };
  bool batches_joined = n.input_size() > 1;
  for (int i = 0; i < n.input_size(); ++i)
    batches_joined = batches_joined && tensor(n, i).activation && !tensor(n, i).at.merged && tensor(n, i).at.batch == axis;
  if ((unbatched_ || batches_joined) && own_axis(first) && n.input_size() > 1)
    for (int i = 0; i < n.input_size(); ++i) {
      const Tensor& t = tensor(n, i);
      if (!t.activation || !own_axis(t)) continue;
      const Shape full = full_shape(t).empty() ? Shape{1} : full_shape(t);
      view(n, index, t, placed(t, full, Placement{axis, true, full[static_cast<size_t>(axis)]}));
      whole_views[i] = tensors_.at(n.output(0));
    }
  if (!whole_views.empty()) first = whole_views.begin()->second;
  // Pieces joined along the axis their batch is merged into, each wholly one sample's
  // (the per-class top-k boxes of one image), are the sample's too, whatever their lengths.
  auto whole = [&](const Tensor& t) {
    return t.at.merged && t.at.batch == axis && static_cast<size_t>(axis) < t.shape.size() &&
           t.at.factor == t.shape[static_cast<size_t>(axis)];
  };
  auto same_place = [&](const Tensor& t) { return t.at == first.at || (whole(t) && whole(first)); };
  for (int i = 0; i < n.input_size(); ++i) {
    const Tensor& t = whole_views.count(i) ? whole_views.at(i) : tensor(n, i);
    if (t.activation && !same_place(t)) fail(n, "joins activations whose batch lies on different axes");
    if (!t.activation && element_count(t.shape) == 0) continue;  // an empty piece adds nothing
    ins.push_back(t.activation ? t : as_parameter(n, n.input(i), t, first));
  }
  if (ins.size() == 1 && !first.at.merged && axis == first.at.batch)
    return pass_on(n, first);  // a batch of one image stacked (torchvision's batch_images)
  toml::table a;
  a.insert("axis", sample_axis(n, axis, first));
  std::vector<const Tensor*> ptrs;
  for (const Tensor& t : ins) ptrs.push_back(&t);
  return layer(n, index, "concat", ptrs, std::move(a), first.at);  // (layer() gives the joined length as the factor)
}

// The lengths of a Split's pieces along an axis of `length`: the 'split' attribute or
// input 1, else one per output, equal but for a shorter last one (opset 18's num_outputs).
std::vector<int64_t> Translator::split_sizes(const onnx::NodeProto& n, int64_t length) {
  std::vector<int64_t> sizes = attr_ints(n, "split").value_or(std::vector<int64_t>{});
  if (sizes.empty() && has_input(n, 1)) sizes = values(n, 1);
  if (sizes.empty() && n.output_size() > 0) {
    const int64_t each = (length + n.output_size() - 1) / n.output_size();
    for (int64_t left = length; static_cast<int>(sizes.size()) < n.output_size(); left -= sizes.back())
      sizes.push_back(std::clamp<int64_t>(left, 0, each));
  }
  if (sizes.size() != static_cast<size_t>(n.output_size()))
    fail(n, "'split' gives " + std::to_string(sizes.size()) + " sizes for " + std::to_string(n.output_size()) + " outputs");
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0) fail(n, "'split' sizes " + value_list(sizes) + " must not be negative");
    total = checked_add(total, s);
  }
  if (total != length)
    fail(n, "'split' sizes " + value_list(sizes) + " add up to " + std::to_string(total) + ", not the axis's " +
                std::to_string(length));
  return sizes;
}

// A Split of a constant (torch's repeat_interleave splits its repeat counts and the
// rows of the table it repeats): each piece a constant, its values where they are known.
void Translator::split_constant(const onnx::NodeProto& n) {
  const Tensor& x = tensor(n, 0);
  const auto rank = static_cast<int64_t>(x.shape.size());
  int64_t axis = attr_int(n, "axis", 0);
  if (axis < -rank || axis >= rank)
    fail(n, "splits along axis " + std::to_string(axis) + ", which a constant of shape " + shape_list(x.shape) +
                " does not have");
  if (axis < 0) axis += rank;
  const std::vector<int64_t> sizes = split_sizes(n, x.shape[static_cast<size_t>(axis)]);
  int64_t start = 0;
  for (int o = 0; o < n.output_size(); ++o) {
    Shape piece = x.shape;
    piece[static_cast<size_t>(axis)] = sizes[o];
    std::optional<std::vector<int64_t>> v = rearranged(x, piece, [&](std::vector<int64_t>& idx) { idx[axis] += start; });
    onnx::NodeProto one = n;  // folded() writes output 0
    one.clear_output();
    one.add_output(n.output(o));
    folded(one, piece, std::move(v));
    start += sizes[o];
  }
}

void Translator::split(const onnx::NodeProto& n, int index) {
  if (!tensor(n, 0).activation) return split_constant(n);
  Tensor x = activation(n, 0);
  int64_t onnx_axis = attr_int(n, "axis", 0);
  if (onnx_axis < 0) onnx_axis += static_cast<int64_t>(full_shape(x).size());
  if (n.output_size() == 1 && !x.at.merged && onnx_axis == x.at.batch)
    return pass_on(n, x);  // a batch split into its images, of which there is one (torchvision's per-image boxes)
  int64_t axis = sample_axis(n, onnx_axis, x);
  const std::vector<int64_t> sizes = split_sizes(n, x.shape[axis]);
  int64_t start = 0;
  for (int o = 0; o < n.output_size(); ++o) {
    toml::table a;
    a.insert("axes", to_array({axis}));
    a.insert("starts", to_array({start}));
    a.insert("ends", to_array({checked_add(start, sizes[o])}));
    start = checked_add(start, sizes[o]);
    std::string name = unique_name(n, index);
    Tensor out;
    out.activation = true;
    out.layer = name;
    out.at = x.at;
    if (x.at.merged && onnx_axis == x.at.batch && x.at.factor == x.shape[axis])
      out.at.factor = sizes[o];  // a sample's k items split (RAFT's two frames): each piece its items
    out.shape = emit(n, name, "slice", {x.layer}, {x.shape}, std::move(a));
    tensors_[n.output(o)] = std::move(out);
  }
  return;
}

void Translator::slice(const onnx::NodeProto& n, int index) {
  const Tensor& x = tensor(n, 0);
  const bool from_data = trip_size_from_data(n, 1) | trip_size_from_data(n, 2);  // (both noted)
  if (from_data && (!x.activation || !has_input(n, 3)))
    fail(n, "slices between bounds computed from the data without naming its axes");
  // A Loop trip's bounds from the data (its box): the whole axis (loop_ops.cpp).
  std::vector<int64_t> starts = from_data ? std::vector<int64_t>(values(n, 3).size(), 0) : values(n, 1);
  std::vector<int64_t> ends = from_data ? std::vector<int64_t>(starts.size(), int64_t{1} << 62) : values(n, 2);
  std::vector<int64_t> axes;
  if (has_input(n, 3)) axes = values(n, 3);
  else for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  std::vector<int64_t> steps = has_input(n, 4) ? values(n, 4) : std::vector<int64_t>(axes.size(), 1);
  if (!x.activation) {  // a piece of a shape vector (F.pad reverses its pads with step -1)
    const int64_t rank = static_cast<int64_t>(x.shape.size());
    Shape out = x.shape;
    std::vector<int64_t> first(rank, 0), step(rank, 1);
    for (size_t k = 0; k < axes.size() && k < starts.size() && k < ends.size() && k < steps.size(); ++k) {
      int64_t ax = axes[k] < 0 ? axes[k] + rank : axes[k];
      if (ax < 0 || ax >= rank || steps[k] == 0) fail(n, "slices a constant along no axis it has");
      int64_t dim = x.shape[ax], st = starts[k], en = ends[k], sp = steps[k];
      if (st < 0) st += dim;
      if (en < 0) en += dim;
      if (sp > 0) {  // (counted so that no step, however large, overflows)
        st = std::clamp<int64_t>(st, 0, dim);
        en = std::clamp<int64_t>(en, 0, dim);
        out[ax] = en > st ? (en - st - 1) / sp + 1 : 0;
      } else {
        sp = std::max(sp, -std::numeric_limits<int64_t>::max());  // -sp fits; the count is the same
        st = std::clamp<int64_t>(st, 0, dim - 1);
        en = std::clamp<int64_t>(en, -1, dim - 1);
        out[ax] = st > en ? (st - en - 1) / -sp + 1 : 0;
      }
      first[ax] = st;
      step[ax] = sp;
    }
    return folded(n, out, rearranged(x, out, [&](std::vector<int64_t>& idx) {
                    for (int64_t i = 0; i < rank; ++i) idx[i] = first[i] + idx[i] * step[i];
                  }));
  }
  toml::table a;
  toml::array per_sample;
  for (int64_t ax : axes) per_sample.push_back(sample_axis(n, ax, x));
  a.insert("axes", std::move(per_sample));
  for (int64_t& e : ends) e = std::min<int64_t>(e, int64_t{1} << 62);
  a.insert("starts", to_array(starts));
  a.insert("ends", to_array(ends));
  a.insert("steps", to_array(steps));
  Tensor xin = x;
  layer(n, index, "slice", {&xin}, std::move(a));
  // Rows of probabilities stay rows (fewer, or shorter: a slice along the row's axis).
  if (x.prob_row <= 0) return;
  Tensor& out = tensors_[n.output(0)];
  const auto last = static_cast<int64_t>(full_shape(x).size()) - 1;
  const bool along_row = std::any_of(axes.begin(), axes.end(), [&](int64_t ax) { return ax == last || ax == -1; });
  if (!along_row) out.prob_row = x.prob_row;
  else if (!x.shape.empty() && x.shape.back() == x.prob_row && !out.shape.empty()) out.prob_row = out.shape.back();
}

void Translator::gather(const onnx::NodeProto& n, int index) {
  const Tensor& data = tensor(n, 0);
  const Tensor& idx = tensor(n, 1);
  if (!data.activation && !idx.activation) {
    std::optional<std::vector<int64_t>> v;
    if (data.values && idx.values && attr_int(n, "axis", 0) == 0) {
      v.emplace();
      const auto len = static_cast<int64_t>(data.values->size());
      for (int64_t i : *idx.values) {
        if (i < -len || i >= len)
          fail(n, "index " + std::to_string(i) + " is out of range for " + std::to_string(len) + " values");
        v->push_back((*data.values)[static_cast<size_t>(i < 0 ? i + len : i)]);
      }
    }
    int64_t axis = attr_int(n, "axis", 0);  // data[:axis] + indices + data[axis + 1:]
    if (axis < 0) axis += static_cast<int64_t>(data.shape.size());
    if (axis < 0 || axis >= static_cast<int64_t>(data.shape.size())) fail(n, "gathers along no axis the data has");
    Shape s(data.shape.begin(), data.shape.begin() + axis);
    s.insert(s.end(), idx.shape.begin(), idx.shape.end());
    s.insert(s.end(), data.shape.begin() + axis + 1, data.shape.end());
    return folded(n, s, v);
  }
  // An embedding table (an initializer, or one reshaped) looked up by ids; a computed
  // constant (the R-CNN box head's class labels, expanded over its boxes) is gathered
  // by its computed indices below.
  if (!data.activation && (data.learned || !data.source.empty())) {
    if (data.shape.size() != 2) fail(n, "a lookup table must be 2-D");
    toml::table a;
    a.insert("num_embeddings", data.shape[0]);
    a.insert("embedding_dim", data.shape[1]);
    return weight_layer(n, index, "embedding", idx, std::move(a), 0, data.shape[0], data.shape[1], false);
  }
  if (!idx.activation && idx.values && idx.values->size() == 1 && idx.shape.empty()) {
    toml::table a;
    int64_t axis = attr_int(n, "axis", 0);
    Shape full = full_shape(data);
    if (axis < 0) axis += static_cast<int64_t>(full.size());
    const int64_t at_index = (*idx.values)[0];
    if (!data.at.merged && axis == data.at.batch && (at_index == 0 || at_index == -1)) {
      // The one image of a batch of one (torchvision's transform: images[0]): a view
      // without the batch's axis, the whole of it one sample.
      full.erase(full.begin() + axis);
      return view_as(n, index, data, full);
    }
    a.insert("axis", sample_axis(n, axis, data));
    a.insert("index", (*idx.values)[0]);
    Placement at = data.at;  // an axis before the batch's goes
    if (axis < at.batch) --at.batch;
    // One item of an axis wholly one sample's (a detection of one image's [R, 4] boxes):
    // the item is wholly the sample's, its first axis the merged one.
    const bool whole = data.at.merged && axis == data.at.batch && data.at.factor == full[static_cast<size_t>(axis)];
    if (whole) at = Placement{0, true, full.size() > 1 ? full[axis == 0 ? 1 : 0] : 1};
    Tensor d = data;
    return layer(n, index, "select", {&d}, std::move(a), at);
  }
  return gather_computed(n, index, "gather");  // by computed indices, or several constant ones
}

void Translator::expand(const onnx::NodeProto& n, int index) {
  const Tensor& x = tensor(n, 0);
  std::vector<int64_t> target = values(n, 1);
  if (x.activation) {
    Shape full = full_shape(x);
    std::optional<Shape> s = broadcast_shape(full, target);
    if (s && *s == full) return pass_on(n, x);
    // Axes of 1 put in front, the elements the same (a mask [H, W] to [1, 1, H, W]): a view.
    if (s && s->size() > full.size() && element_count(*s) == element_count(full)) return view_as(n, index, x, *s);
    if (!s || s->size() != full.size())
      fail(n, "expands " + shape_list(full) + " to " + shape_list(target) + ", which ridge models only as a broadcast of "
              "axes of size 1 at the input's rank");
    // Axes of size 1 broadcast (SSD's L2 norm of each position, expanded over its
    // channels before the division): the copies are written, as a Tile's.
    Tensor xin = x;
    // (A batch merged into an axis that keeps its size, as the indices of the RoIs a
    // level of MultiScaleRoIAlign takes, [R, 1, 1, 1] expanded over [R, C, 7, 7], is
    // copied with its sample's part.)
    if ((*s)[x.at.batch] != full[x.at.batch])
      fail(n, "expands the batch axis, which ridge does not model", "--batch sets the samples");
    toml::table a;
    std::vector<int64_t> repeats;
    for (size_t i = 0; i < full.size(); ++i)
      if (x.at.merged || static_cast<int64_t>(i) != x.at.batch) repeats.push_back((*s)[i] / full[i]);
    a.insert("repeats", to_array(repeats));
    return layer(n, index, "tile", {&xin}, std::move(a));
  }
  std::optional<Shape> s = broadcast_shape(x.shape, target);
  if (!s) fail(n, "cannot expand " + shape_list(x.shape) + " to " + shape_list(target));
  // A computed constant, or an initializer repeated along its own axes (MViT's spatial
  // table over its frames, where an eval-mode export wrote the table unsqueezed as an
  // initializer), is folded: its values broadcast, an axis of 1 repeating its one element,
  // its learned elements its initializer's (counted once where a layer reads it).
  if (!x.learned || element_count(*s) != element_count(x.shape)) {
    const size_t lead = s->size() - x.shape.size();
    return folded(n, *s, rearranged(x, *s, [&](std::vector<int64_t>& idx) {
                    idx.erase(idx.begin(), idx.begin() + static_cast<int64_t>(lead));
                    for (size_t i = 0; i < idx.size(); ++i)
                      if (x.shape[i] == 1) idx[i] = 0;
                  }));
  }
  Tensor like;  // an activation of the target's rank, its batch first
  like.activation = true;
  if (!s->empty()) like.shape.assign(s->begin() + 1, s->end());  // (a scalar target has no batch axis)
  const Tensor p = as_parameter(n, n.input(0), x, like);
  return pass_on(n, p);
}

}  // namespace ridge::onnx_import
