// How many boxes a detection graph keeps of what its NonMaxSuppression selects: the end
// of the Slice that cuts the kept indices (torchvision's keep[:detections_per_img] after
// batched_nms, the RPN's keep[:post_nms_top_n]), found by following NMS's output through
// the nodes that only reshape or pick from it (Gather, Squeeze, Cast, ...) and out of the
// If branch it sits in; and the module an NMS works for (the RPN's, where torch's
// exporter gives the NMS itself no scope). non_max_suppression() (detection_ops.cpp) takes it as the number
// of boxes NMS keeps, the data-dependent size ridge has to assume.
#include "sim/workload/onnx/translator.hpp"

#include <cstring>

namespace ridge::onnx_import {

namespace {

// Every node of graph g and of the graphs nested in its nodes' attributes, in order.
void all_nodes(const onnx::GraphProto& g, std::vector<const onnx::NodeProto*>& out) {
  for (const onnx::NodeProto& n : g.node()) {
    out.push_back(&n);
    for (const onnx::AttributeProto& a : n.attribute())
      if (a.has_g()) all_nodes(a.g(), out);
  }
}

// The one int64 value of a tensor, if it holds exactly one.
std::optional<int64_t> one_int64(const onnx::TensorProto& t) {
  if (t.data_type() != onnx::TensorProto::INT64) return std::nullopt;
  if (t.int64_data_size() == 1) return t.int64_data(0);
  if (t.raw_data().size() != sizeof(int64_t)) return std::nullopt;
  int64_t v = 0;
  std::memcpy(&v, t.raw_data().data(), sizeof v);
  return v;
}

}  // namespace

std::optional<int64_t> Translator::kept_after_nms(const std::string& nms_output) const {
  std::vector<const onnx::NodeProto*> nodes;
  all_nodes(model_.graph(), nodes);
  // Single int64 constants by name: Constant nodes and initializers.
  auto constant = [&](const std::string& name) -> std::optional<int64_t> {
    for (const onnx::TensorProto& t : model_.graph().initializer())
      if (t.name() == name) return one_int64(t);
    for (const onnx::NodeProto* n : nodes)
      if (n->op_type() == "Constant" && n->output_size() == 1 && n->output(0) == name)
        for (const onnx::AttributeProto& a : n->attribute())
          if (a.name() == "value" && a.has_t()) return one_int64(a.t());
    return std::nullopt;
  };
  const std::set<std::string> passing = {"Gather", "Squeeze", "Unsqueeze", "Reshape", "Cast", "Identity", "Flatten"};
  std::set<std::string> kept = {nms_output};  // tensors holding (a view of) the kept indices
  for (bool grew = true; grew;) {
    grew = false;
    for (const onnx::NodeProto* n : nodes) {
      if (n->input_size() == 0) continue;
      if (n->op_type() == "Slice" && kept.count(n->input(0)) && n->input_size() >= 3) {
        std::optional<int64_t> start = constant(n->input(1)), end = constant(n->input(2));
        if (start == 0 && end && *end > 0) return end;
      }
      bool follows = passing.count(n->op_type()) && kept.count(n->input(0));
      if (n->op_type() == "If")  // a branch output that is the kept indices: the If's output
        for (const onnx::AttributeProto& a : n->attribute())
          if (a.has_g())
            for (int o = 0; o < a.g().output_size() && o < n->output_size(); ++o)
              if (kept.count(a.g().output(o).name()) && kept.insert(n->output(o)).second) grew = true;
      if (follows)
        for (const std::string& o : n->output()) grew |= kept.insert(o).second;
    }
  }
  return std::nullopt;
}

// The top-level module of the nearest scoped node ("/rpn/...": "rpn") among the nodes
// making node n's inputs, searched backwards breadth-first (bounded by the graph's
// nodes); n's own scope when it has one; "" when none is found.
std::string Translator::module_of(const onnx::NodeProto& n) const {
  auto top = [](const std::string& name) {
    const size_t end = name.find('/', 1);
    return name.size() > 1 && name[0] == '/' && end != std::string::npos ? name.substr(1, end - 1) : std::string();
  };
  if (!top(n.name()).empty()) return top(n.name());
  std::vector<const onnx::NodeProto*> nodes;
  all_nodes(model_.graph(), nodes);
  std::map<std::string, const onnx::NodeProto*> maker;
  for (const onnx::NodeProto* m : nodes)
    for (const std::string& o : m->output()) maker.emplace(o, m);
  std::vector<std::string> queue(n.input().begin(), n.input().end());
  std::set<std::string> seen(queue.begin(), queue.end());
  for (size_t i = 0; i < queue.size(); ++i) {
    auto it = maker.find(queue[i]);
    if (it == maker.end()) continue;
    if (std::string t = top(it->second->name()); !t.empty()) return t;
    for (const std::string& in : it->second->input())
      if (seen.insert(in).second) queue.push_back(in);
  }
  return "";
}

}  // namespace ridge::onnx_import
