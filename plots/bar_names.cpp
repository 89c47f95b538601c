// Bar names shortened to fit (see bar_names.hpp).
#include "plots/bar_names.hpp"

#include <algorithm>
#include <vector>

#include "plots/collective_name.hpp"
#include "plots/layers_plot.hpp"

namespace ridge::plots {

namespace {

// `text` with its middle taken out for an ellipsis, as much as brings it within `max_in`,
// so that both ends stay readable ("tp all-ga...(scale-up)"); never cut inside a UTF-8 letter.
std::string middle_ellipsis(const PlotStyle& style, const std::string& text, double max_in) {
  const std::string ellipsis = "\u2026";
  auto letter_start = [&](size_t i) { return i >= text.size() || (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80; };
  for (size_t keep = text.size(); keep-- > 2;) {
    size_t head = (keep + 1) / 2, tail = text.size() - keep / 2;
    while (head > 0 && !letter_start(head)) --head;
    while (tail < text.size() && !letter_start(tail)) ++tail;
    const std::string s = text.substr(0, head) + ellipsis + text.substr(tail);
    if (style.text_width_in(s) <= max_in) return s;
  }
  return text.substr(0, 1) + ellipsis;
}

// `text`'s words (split at spaces) with whole words out of the middle for an ellipsis,
// the fewest that bring it within `max_in`, the first and last word kept ("pp P2P …
// (scale-out)", never "pp P2P fwd+b… (scale-out)"); empty when even the two ends do not fit.
std::string middle_words_ellipsis(const PlotStyle& style, const std::string& text, double max_in) {
  std::vector<std::string> words;
  for (size_t start = 0; start <= text.size();) {
    const size_t space = std::min(text.find(' ', start), text.size());
    words.push_back(text.substr(start, space - start));
    start = space + 1;
  }
  const size_t n = words.size();
  for (size_t keep = n - 1; keep >= 2 && keep < n; --keep)
    for (size_t head = keep - 1; head >= 1; --head) {  // more of the head first: the group and operation
      std::string s;
      for (size_t i = 0; i < head; ++i) s += words[i] + " ";
      s += "\u2026";
      for (size_t i = n - (keep - head); i < n; ++i) s += " " + words[i];
      if (style.text_width_in(s) <= max_in) return s;
    }
  return "";
}

}  // namespace

// A bar's name shortened to `max_in` where it is wider. A collective's: in short words
// ("tp all-gather bwd (scale-up)"), else with acronyms ("tp AG bwd (scale-up)"), else
// that with whole words out of its middle, else with letters out of it. A layer's: its
// block and last parts ("encoder.layer.11...output.dense"), else its last parts
// ("...output.dense"), else its middle left out. The .dat file keeps the full name.
std::string fitted_name(const PlotStyle& style, const std::string& name, double max_in) {
  if (style.text_width_in(name) <= max_in) return name;
  if (is_collective_name(name)) {
    for (bool acronyms : {false, true})
      if (const std::string s = short_collective_name(name, acronyms); style.text_width_in(s) <= max_in) return s;
    const std::string acronyms = short_collective_name(name, true);
    if (std::string s = middle_words_ellipsis(style, acronyms, max_in); !s.empty()) return s;
    return middle_ellipsis(style, acronyms, max_in);
  }
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    size_t dot = name.find('.', start);
    parts.push_back(name.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const std::string block = block_of(name), ellipsis = "\u2026";
  for (size_t k = parts.size() - 1; k >= 1; --k) {
    std::string tail;
    for (size_t i = parts.size() - k; i < parts.size(); ++i) tail += (tail.empty() ? "" : ".") + parts[i];
    if (block.size() + tail.size() < name.size() && style.text_width_in(block + ellipsis + tail) <= max_in) return block + ellipsis + tail;
    if (style.text_width_in(ellipsis + tail) <= max_in) return ellipsis + tail;
  }
  return middle_ellipsis(style, name, max_in);
}

}  // namespace ridge::plots
