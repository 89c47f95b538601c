// ONNX sequences, as torch's exporter writes torch.tensor_split and lists it builds in a
// loop: SequenceEmpty, SequenceInsert, SequenceAt, SequenceLength. A sequence is a list of
// tensors ridge tracks by name (sequences_); its items are the tensors inserted, so
// SequenceAt passes one on and no layer is emitted (a sequence holds references, not
// copies). A Loop that carries a sequence is unrolled (loop_ops.cpp).
#include "sim/workload/onnx/translator.hpp"

namespace ridge::onnx_import {

const std::vector<Tensor>& Translator::sequence(const onnx::NodeProto& n, int i) {
  if (!has_input(n, i)) fail(n, "input " + std::to_string(i) + " (a sequence) is missing");
  auto it = sequences_.find(n.input(i));
  if (it == sequences_.end()) fail(n, "input '" + n.input(i) + "' is not a sequence made by an earlier node");
  return it->second;
}

// A position in a sequence of `length` items (negative: from the end); `past_end`
// admits the position just after the last (SequenceInsert appends there).
size_t Translator::sequence_position(const onnx::NodeProto& n, int i, size_t length, bool past_end) {
  const std::vector<int64_t> p = values(n, i);
  const auto len = static_cast<int64_t>(length);
  if (p.size() != 1) fail(n, "the position must be one value (got " + value_list(p) + ")");
  const int64_t at = p[0] < 0 ? p[0] + len : p[0];
  if (at < 0 || at > len || (at == len && !past_end))
    fail(n, "position " + std::to_string(p[0]) + " is outside a sequence of " + std::to_string(len) + " items");
  return static_cast<size_t>(at);
}

void Translator::sequence_empty(const onnx::NodeProto& n, int) { sequences_[n.output(0)] = {}; }

void Translator::sequence_insert(const onnx::NodeProto& n, int) {
  std::vector<Tensor> s = sequence(n, 0);
  const Tensor& item = tensor(n, 1);
  const size_t at = has_input(n, 2) ? sequence_position(n, 2, s.size(), true) : s.size();
  s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), item);
  sequences_[n.output(0)] = std::move(s);
}

void Translator::sequence_at(const onnx::NodeProto& n, int) {
  const std::vector<Tensor>& s = sequence(n, 0);
  pass_on(n, s[sequence_position(n, 1, s.size(), false)]);
}

void Translator::sequence_length(const onnx::NodeProto& n, int) {
  const auto length = static_cast<int64_t>(sequence(n, 0).size());
  folded(n, {}, std::vector<int64_t>{length});
}

}  // namespace ridge::onnx_import
