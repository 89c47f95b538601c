// The sweep CSV reader (see sweep_table.hpp).
#include "plots/sweep_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "sim/base/close_names.hpp"
#include "sim/base/data_paths.hpp"
#include "sim/base/error.hpp"
#include "sim/base/input_file.hpp"
#include "sim/base/toml_fields.hpp"
#include "sim/base/units.hpp"

namespace ridge::plots {

int SweepTable::column(const std::string& name) const {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

SweepTable parse_sweep_csv(const std::string& text, const std::string& file) {
  SweepTable t;
  t.file = file;
  std::vector<std::string> row;
  std::vector<CellPosition> positions;
  std::string field;
  bool quoted = false, field_started = false;
  int64_t line = 1, row_line = 1, header_line = 1;
  size_t line_start = 0;         // index of the current line's first character
  CellPosition field_at{1, 1};   // where the field being read starts
  auto end_field = [&](size_t next) {  // `next`: index where the next field starts
    row.push_back(field);
    positions.push_back(field_at);
    field.clear();
    field_started = false;
    field_at = {line, static_cast<int64_t>(next - line_start) + 1};
  };
  auto end_row = [&](size_t next) {
    end_field(next);
    bool blank = row.size() == 1 && row[0].empty();
    if (!blank) {
      if (t.header.empty()) {
        t.header = row;
        header_line = row_line;
      } else if (row.size() != t.header.size()) {
        throw InputError({file, row_line, 0}, "a row of " + std::to_string(row.size()) + " fields under a header of " +
                                                  std::to_string(t.header.size()));
      } else {
        t.rows.push_back({row, positions});
      }
    }
    row.clear();
    positions.clear();
    row_line = line;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line, line_start = i + 1;
        field += c;
      }
      continue;
    }
    if (c == '#' && !field_started && row.empty()) {  // a preamble line (ridge sweep writes them)
      while (i < text.size() && text[i] != '\n') ++i;
      ++line;
      row_line = line;
      line_start = i + 1;
      field_at = {line, 1};
    } else if (c == '"' && !field_started) {
      quoted = field_started = true;
    } else if (c == ',') {
      end_field(i + 1);
    } else if (c == '\n') {
      ++line;
      line_start = i + 1;
      end_row(i + 1);
    } else if (c != '\r') {
      field += c;
      field_started = true;
    }
  }
  if (quoted) throw InputError({file, row_line, 0}, "a quoted field is never closed");
  if (!field.empty() || !row.empty()) end_row(text.size());
  if (t.header.empty()) throw InputError({file, 0, 0}, "the CSV is empty", "write one with: ridge sweep SWEEP.toml --format csv");
  for (const char* need : {"hardware", "batch", "samples_per_s"})
    if (t.column(need) < 0)
      throw InputError({file, header_line, 0}, std::string("the CSV has no '") + need + "' column",
                       "plot sweep reads the CSV of ridge sweep --format csv (columns hardware, batch, samples_per_s, ...)");
  // Points that could not run (unsupported dtype, does not fit) have no times to draw.
  if (int status = t.column("status"); status >= 0)
    keep_rows(t, [&](const auto& r) { return r[static_cast<size_t>(status)] == "ok"; });
  if (t.rows.empty()) throw InputError({file, 0, 0}, "the CSV has no rows that ran (status ok)");
  return t;
}

SweepTable with_device_names(SweepTable t) {
  if (int hw = t.column("hardware"), device = t.column("device"); hw >= 0 && device >= 0)
    for (SweepRow& r : t.rows)
      if (std::string& cell = r.cells[static_cast<size_t>(hw)]; names_a_file(cell)) cell = r.cells[static_cast<size_t>(device)];
  return t;
}

void keep_rows(SweepTable& t, const std::function<bool(const std::vector<std::string>&)>& keep) {
  std::erase_if(t.rows, [&](const SweepRow& r) { return !keep(r.cells); });
}

SweepTable read_sweep_csv(const std::string& path) {
  std::optional<std::string> text = read_input_file(path);
  if (!text) throw InputError({path, 0, 0}, "cannot read the sweep CSV", "check the path");
  return parse_sweep_csv(*text, path);
}

SweepTable select_rows(const SweepTable& t, const std::vector<std::string>& where) {
  std::map<int, std::set<std::string>> wanted;
  for (const std::string& w : where) {
    size_t eq = w.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError({}, "--where: expected COLUMN=VALUE (got '" + w + "')", "e.g. --where model=resnet50");
    std::string column = w.substr(0, eq), value = w.substr(eq + 1);
    int col = t.column(column);
    if (col < 0)
      throw InputError({t.file, 0, 0}, "--where: the CSV has no column '" + column + "'", suggestion_hint(column, t.header));
    std::vector<std::string> values = distinct(t, col);
    if (std::find(values.begin(), values.end(), value) == values.end())
      throw InputError({t.file, 0, 0}, "--where: no row that ran has " + column + "=" + value,
                       column + ": " + suggestion_hint(value, values));
    wanted[col].insert(value);
  }
  SweepTable out = t;
  keep_rows(out, [&](const auto& r) {
    for (const auto& [col, values] : wanted)
      if (!values.count(r[static_cast<size_t>(col)])) return false;
    return true;
  });
  if (out.rows.empty())
    throw InputError({t.file, 0, 0}, "--where: no row has all of " + joined(where, ", "),
                     "each --where is on its own fine: some of the values never ran together");
  return out;
}

std::optional<Quantified> quantity_value(const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() && *end == '\0' && std::isfinite(v)) return Quantified{v, ""};
  static const std::pair<Quantity, const char*> kinds[] = {
      {Quantity::bandwidth, "B/s"}, {Quantity::flops, "FLOP/s"}, {Quantity::ops, "OP/s"},  {Quantity::size, "B"},
      {Quantity::time, "s"},        {Quantity::frequency, "Hz"}, {Quantity::transfer_rate, "T/s"}};
  for (const auto& [kind, unit] : kinds) {
    QuantityResult r = parse_quantity(text, kind, true);
    if (r.value) return Quantified{*r.value, unit};
  }
  return std::nullopt;
}

const std::string& cell(const SweepTable& t, size_t row, int col) { return t.rows[row].cells[static_cast<size_t>(col)]; }
const std::string& name_of(const SweepTable& t, int col) { return t.header[static_cast<size_t>(col)]; }

namespace {
constexpr double kMaxPlotted = 1e300;
// Where cell (row, col) is in the file (line and column 0 when the table was not read
// from one).
SourceLoc cell_location(const SweepTable& t, size_t row, int col) {
  const SweepRow& r = t.rows[row];
  if (static_cast<size_t>(col) >= r.positions.size()) return {t.file, 0, 0};
  const CellPosition& p = r.positions[static_cast<size_t>(col)];
  return {t.file, p.line, p.column};
}
}

double number_at(const SweepTable& t, size_t row, int col) {
  const std::string& s = cell(t, row, col);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v))
    throw InputError(cell_location(t, row, col),
                     "column '" + name_of(t, col) + "' is not a number (got '" + s + "')");
  if (std::string problem = finite_number_problem(v); !problem.empty())  // a subnormal (4.9e-324)
    throw InputError(cell_location(t, row, col), "column '" + name_of(t, col) + "' " + problem);
  // Batches, samples/s and step times are positive; beyond 1e300 axis arithmetic overflows.
  if (!(v > 0 && v <= kMaxPlotted))
    throw InputError(cell_location(t, row, col),
                     "column '" + name_of(t, col) + "' must be a positive number up to 1e300 (got '" + s + "')",
                     "plot sweep draws the CSV of ridge sweep; check the hand-edited rows");
  return v;
}

double quantity_at(const SweepTable& t, size_t row, int col) {
  auto v = quantity_value(cell(t, row, col));
  if (!v)
    throw InputError(cell_location(t, row, col),
                     "cannot read '" + cell(t, row, col) + "' in column '" + name_of(t, col) + "' as a number or quantity");
  if (std::string problem = finite_number_problem(v->value); !problem.empty())
    throw InputError(cell_location(t, row, col), "column '" + name_of(t, col) + "' " + problem);
  if (std::fabs(v->value) > kMaxPlotted)
    throw InputError(cell_location(t, row, col),
                     "column '" + name_of(t, col) + "' is beyond 1e300 in size (got '" + cell(t, row, col) + "')");
  return v->value;
}

std::vector<std::string> distinct(const SweepTable& t, int col) {
  std::vector<std::string> out;
  if (col < 0) return out;
  std::set<std::string> seen;
  for (size_t i = 0; i < t.rows.size(); ++i)
    if (seen.insert(cell(t, i, col)).second) out.push_back(cell(t, i, col));
  return out;
}

bool varies(const SweepTable& t, int col) { return distinct(t, col).size() > 1; }

std::string joined(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

}  // namespace ridge::plots
