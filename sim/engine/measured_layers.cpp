// Reading a measured-layers CSV (see measured_layers.hpp).
#include "sim/engine/measured_layers.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <utility>
#include <sstream>

#include "sim/base/close_names.hpp"
#include "sim/base/control_chars.hpp"
#include "sim/base/input_file.hpp"
#include "sim/base/toml_fields.hpp"

namespace ridge {

namespace {

struct Field {
  std::string text;
  int64_t column = 1;
};

std::vector<Field> split_csv_line(const std::string& line) {
  std::vector<Field> out;
  size_t start = 0;
  while (true) {
    size_t comma = line.find(',', start);
    std::string cell = line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t b = cell.find_first_not_of(" \t"), e = cell.find_last_not_of(" \t\r");
    out.push_back({b == std::string::npos ? std::string() : cell.substr(b, e - b + 1),
                   static_cast<int64_t>(start + (b == std::string::npos ? 0 : b) + 1)});
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

constexpr const char* kRequired[] = {"model", "layer", "op_class", "dtype", "flops"};
constexpr const char* kStreams[] = {"input_bytes", "output_bytes", "weight_bytes"};

double parse_number(const Field& f, const SourceLoc& at, const std::string& column) {
  double v = 0;
  const char* end = f.text.data() + f.text.size();
  auto [ptr, ec] = std::from_chars(f.text.data(), end, v);
  if (f.text.empty() || ec != std::errc() || ptr != end)
    throw InputError(at, "column '" + column + "' must be a number (got '" + f.text + "')");
  if (std::string problem = finite_number_problem(v); !problem.empty())
    throw InputError(at, "column '" + column + "' " + problem);
  return v;
}

// A model or layer name: shown in the report and the predictions CSV, so held to the
// rules of a name in a model file.
const std::string& checked_name(const Field& f, const SourceLoc& at, const std::string& column) {
  if (auto code = first_control_char(f.text))
    throw InputError(at, "column '" + column + "' must not contain control characters (got character " + *code + ")",
                     "names appear in tables and on terminals; use printable characters");
  if (f.text.size() > kMaxNameBytes)
    throw InputError(at, "column '" + column + "' is " + std::to_string(f.text.size()) + " bytes long, longer than the " +
                             std::to_string(kMaxNameBytes) + " a name may be");
  return f.text;
}

}  // namespace

std::vector<MeasuredLayer> parse_measured_layers(const std::string& text, const std::string& file,
                                                 const std::string& time_column) {
  std::istringstream in(text);
  std::vector<std::string> header;
  std::map<std::string, size_t> index;
  SourceLoc header_loc{file, 0, 1};
  std::vector<MeasuredLayer> rows;
  std::string line;
  for (int64_t n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos || line[line.find_first_not_of(" \t")] == '#') continue;
    std::vector<Field> fields = split_csv_line(line);
    if (header.empty()) {
      header_loc.line = n;
      for (const Field& f : fields) {
        if (!index.emplace(f.text, header.size()).second)
          throw InputError({file, n, f.column}, "column '" + f.text + "' appears twice in the header");
        header.push_back(f.text);
      }
      auto require = [&](const std::string& c) {
        if (!index.count(c))
          throw InputError(header_loc, "missing column '" + c + "' in the header",
                           suggestion_hint(c, header) + " (columns: docs/guide/calibrate.md)");
      };
      for (const char* c : kRequired) require(c);
      require(time_column);
      // The streams apart, all three, unless only the total is given.
      bool any_stream = false;
      for (const char* c : kStreams) any_stream = any_stream || index.count(c);
      if (!index.count("bytes") || any_stream)
        for (const char* c : kStreams) require(c);
      if (index.count("groups"))  // a convolution's geometry, all of it (hw/kernel_library.hpp)
        for (const char* c : {"stride", "kernel_side"}) require(c);
      continue;
    }
    SourceLoc row_loc{file, n, 1};
    if (fields.size() != header.size())
      throw InputError(row_loc, "row has " + std::to_string(fields.size()) + " fields, the header " +
                                    std::to_string(header.size()) + " (got '" + line + "')");
    auto field = [&](const std::string& c) -> const Field& { return fields[index.at(c)]; };
    auto at = [&](const std::string& c) { return SourceLoc{file, n, field(c).column}; };
    auto number = [&](const std::string& c, bool positive) {
      double v = parse_number(field(c), at(c), c);
      if (positive ? !(v > 0) : v < 0)
        throw InputError(at(c), "column '" + c + "' must be " + (positive ? "greater than zero" : "non-negative") +
                                    " (got " + field(c).text + ")");
      return v;
    };
    MeasuredLayer m;
    m.loc = row_loc;
    m.model = checked_name(field("model"), at("model"), "model");
    m.layer = checked_name(field("layer"), at("layer"), "layer");
    if (m.model.empty()) throw InputError(at("model"), "column 'model' is empty");
    const std::string& cls = field("op_class").text;
    auto oc = parse_op_class(cls);
    if (!oc)
      throw InputError(at("op_class"), "unknown op class '" + cls + "'",
                       suggestion_hint(cls, op_class_name_list()) + "; op classes: " + op_class_names());
    m.work.op_class = *oc;
    const std::string& dt = field("dtype").text;
    auto dtype = parse_dtype(dt);
    if (!dtype) throw InputError(at("dtype"), "unknown dtype '" + dt + "'", "ridge dtypes: " + dtype_names());
    m.dtype = *dtype;
    m.work.flops = number("flops", false);
    if (index.count("input_bytes")) {
      m.work.input_bytes = number("input_bytes", false);
      m.work.output_bytes = number("output_bytes", false);
      m.work.weight_bytes = number("weight_bytes", false);
    } else {
      m.work.input_bytes = number("bytes", false);
    }
    m.seconds = number(time_column, true);
    auto whole = [&](const std::string& c, bool positive, double max) {
      double v = number(c, positive);
      if (v != std::floor(v) || v > max)
        throw InputError(at(c), "column '" + c + "' must be a whole number (got " + field(c).text + ")");
      return v;
    };
    if (index.count("batch")) m.batch = static_cast<int64_t>(whole("batch", true, 1e15));
    if (index.count("kernels")) m.work.kernels = static_cast<int>(whole("kernels", false, 1e6));
    // `positions` is per sample; a linear layer's GEMM has batch x positions rows (LayerCost::gemm_rows).
    if (index.count("positions"))
      m.work.gemm_positions =
          whole("positions", false, 1e15) * (m.work.op_class == OpClass::linear ? static_cast<double>(m.batch) : 1.0);
    if (index.count("reduction")) m.work.gemm_reduction = whole("reduction", false, 1e15);
    // What a descriptor's [library] rule reads (hw/kernel_library.hpp): the batch, the
    // input's elements, and a convolution's geometry where the CSV gives it.
    m.work.batch = static_cast<double>(m.batch);
    m.work.input_elements = m.work.input_bytes / dtype_bytes(m.dtype);
    const bool conv = m.work.op_class == OpClass::conv_kxk || m.work.op_class == OpClass::conv_1x1 ||
                      m.work.op_class == OpClass::depthwise;
    if (conv && index.count("groups")) {
      m.work.conv.groups = static_cast<int64_t>(whole("groups", true, 1e15));
      m.work.conv.stride = static_cast<int64_t>(whole("stride", true, 1e15));
      m.work.conv.kernel_side = static_cast<int64_t>(whole("kernel_side", true, 1e15));
      // What a GPU library's choice of algorithm reads (hw/conv_algorithms.hpp); a measured
      // convolution with geometry is 2-D.
      m.work.conv.spatial_dims = 2;
      for (const auto& [column, value] : {std::pair{"kernel_side_max", &m.work.conv.kernel_side_max},
                                          std::pair{"in_channels", &m.work.conv.in_channels},
                                          std::pair{"out_channels", &m.work.conv.out_channels}})
        if (index.count(column)) *value = static_cast<int64_t>(whole(column, true, 1e15));
      if (m.work.conv.kernel_side_max > 0 && m.work.conv.kernel_side_max < m.work.conv.kernel_side)
        throw InputError(at("kernel_side_max"), "column 'kernel_side_max' (" + field("kernel_side_max").text +
                                                    ") is below kernel_side (" + field("kernel_side").text + ")",
                         "kernel_side is the smallest kernel side, kernel_side_max the largest");
    }
    // An in-place layer (the output overwrites the input): one buffer against a cache's capacity.
    if (index.count("in_place")) {
      const std::string& v = field("in_place").text;
      if (v != "0" && v != "1")
        throw InputError(at("in_place"), "column 'in_place' must be 0 or 1 (got '" + v + "')",
                         "1: the layer's output overwrites its input (torch's inplace=True)");
      m.work.in_place = v == "1";
      if (m.work.in_place && !index.count("input_bytes"))
        throw InputError(at("in_place"), "column 'in_place' is 1, but the CSV gives one 'bytes' column, not the streams",
                         "give input_bytes, output_bytes and weight_bytes");
      if (m.work.in_place && m.work.input_bytes != m.work.output_bytes)
        throw InputError(at("in_place"), "column 'in_place' is 1, but input_bytes (" + field("input_bytes").text +
                                             ") and output_bytes (" + field("output_bytes").text + ") differ",
                         "a layer that overwrites its input writes as many bytes as it reads");
    }
    for (size_t i = 0; i < header.size(); ++i) m.extra[header[i]] = fields[i].text;
    rows.push_back(std::move(m));
  }
  if (header.empty()) throw InputError({file}, "no header line", "the first line that is not a # comment names the columns");
  if (rows.empty()) throw InputError(header_loc, "no measured rows after the header");
  return rows;
}

std::vector<MeasuredLayer> read_measured_layers(const std::string& path, const std::string& time_column) {
  std::optional<std::string> text = read_input_file(path);
  if (!text) throw InputError({path}, "cannot read measured layers '" + path + "'");
  return parse_measured_layers(*text, path, time_column);
}

}  // namespace ridge
