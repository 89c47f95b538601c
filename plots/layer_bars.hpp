// The per-layer chart's bars (plot layers): the rows a request draws (a parallel plan's
// iteration parts, else the run's layers), grouped into bars, heaviest first, the tail
// summed into "other" and a plan's collectives as bars of their own; and each bar's
// bound, as the .dat file codes it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "plots/layers_plot.hpp"

namespace ridge::plots {

struct Bar {
  std::string name;
  size_t layers = 0;
  double compute = 0, exposed = 0, link = 0, launch = 0, idle = 0, time = 0;
  std::map<Bound::Kind, double> time_by_bound;  // of its layers, by their bound (the Result's)
  std::string bound;  // the layer's bound label; a group's: "mixed" unless all agree
  bool other = false;
  // The bound of most of its time; none for "other" and for bars that take no time.
  Bound::Kind kind() const {
    Bound::Kind k = Bound::Kind::none;
    double most = 0;
    for (const auto& [kind, time] : time_by_bound)
      if (kind != Bound::Kind::none && time > most) {
        most = time;
        k = kind;
      }
    return other ? Bound::Kind::none : k;
  }
};

// Column 7 of the bars block: the bound of the bar (see kLayersColumns).
int bound_code(Bound::Kind k);

// What the bars are made of: the iteration's parts of a parallel plan, else the run's
// layers with their parts of the hardware model's time.
std::vector<IterationPart> rows_of(const LayersRequest& req);

// The bars, heaviest first: the `top` heaviest, then "other" with the rest.
std::vector<Bar> bars_of(const LayersRequest& req);

}  // namespace ridge::plots
