// The per-layer chart's bars (see layer_bars.hpp).
#include "plots/layer_bars.hpp"

#include <algorithm>

namespace ridge::plots {

namespace {

void add_layer(Bar& b, const IterationPart& l) {
  b.compute += l.compute_s;
  b.exposed += l.exposed_memory_s;
  b.link += l.link_s;
  b.launch += l.launch_s;
  b.idle += l.idle_s;
  b.time += l.time_s();
  b.time_by_bound[l.bound.kind] += l.time_s();
  b.bound = b.layers == 0 || b.bound == l.bound.label ? l.bound.label : "mixed";
  ++b.layers;
}

}  // namespace

// Column 7 of the bars block: the bound of the bar (see kLayersColumns).
int bound_code(Bound::Kind k) {
  switch (k) {
    case Bound::Kind::compute: return 0;
    case Bound::Kind::memory: return 1;
    case Bound::Kind::overhead: return 2;
    case Bound::Kind::link: return 3;
    case Bound::Kind::none: return -1;
  }
  return -1;
}

// What the bars are made of: the iteration's parts of a parallel plan, else the run's
// layers with their parts of the hardware model's time.
std::vector<IterationPart> rows_of(const LayersRequest& req) {
  if (!req.parts.empty()) return req.parts;
  const RunResult& t = req.run.timing;
  std::vector<IterationPart> rows;
  for (size_t i = 0; i < t.layers.size(); ++i) {
    const LayerResult& l = t.layers[i];
    // Widening weight-only quantised weights is work of the ALUs: compute.
    rows.push_back({req.model->layers[i].name, req.model->layers[i].op, l.timing.compute_s + l.timing.dequant_s,
                    l.exposed_memory_s, l.timing.link_s, l.timing.overhead_s, 0, l.bound});
  }
  return rows;
}

// The bars, heaviest first: the `top` heaviest, then "other" with the rest.
std::vector<Bar> bars_of(const LayersRequest& req) {
  const std::vector<IterationPart> rows = rows_of(req);
  std::vector<Bar> bars;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string& name = rows[i].name;
    std::string key = req.group == LayerGrouping::none ? name
                      : req.group == LayerGrouping::block ? block_of(name)
                                                          : rows[i].op;
    auto [it, fresh] = index.try_emplace(req.group == LayerGrouping::none ? std::to_string(i) : key, bars.size());
    if (fresh) {
      Bar b;
      b.name = key;
      bars.push_back(b);
    }
    add_layer(bars[it->second], rows[i]);
  }
  std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.time > b.time; });
  if (bars.size() > req.top) {
    Bar other;
    other.other = true;
    for (size_t i = req.top; i < bars.size(); ++i) {
      const Bar& b = bars[i];
      other.compute += b.compute;
      other.exposed += b.exposed;
      other.link += b.link;
      other.launch += b.launch;
      other.idle += b.idle;
      other.time += b.time;
      other.layers += b.layers;
    }
    bars.resize(req.top);
    other.name = "other (" + std::to_string(other.layers) + " layers)";
    other.bound = "mixed";
    bars.push_back(other);
  }
  // A parallel plan's collectives: bars of their own among the drawn ones, by time.
  const size_t drawn = bars.size() - (!bars.empty() && bars.back().other ? 1 : 0);
  std::vector<Bar> collectives;
  for (const CollectiveWork& c : req.collectives) {
    Bar b;
    b.name = c.name + " (" + c.link + ")";
    b.link = b.time = c.time_s;
    b.time_by_bound[Bound::Kind::link] = c.time_s;
    b.bound = "link:" + c.link;
    collectives.push_back(b);
  }
  bars.insert(bars.begin() + static_cast<std::ptrdiff_t>(drawn), collectives.begin(), collectives.end());
  std::stable_sort(bars.begin(), bars.begin() + static_cast<std::ptrdiff_t>(drawn + collectives.size()),
                   [](const Bar& a, const Bar& b) { return a.time > b.time; });
  return bars;
}

}  // namespace ridge::plots
