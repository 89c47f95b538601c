// Text, CSV and Markdown rendering of a ColumnTable (see column_table.hpp).
#include "sim/views/column_table.hpp"

#include <algorithm>
#include <sstream>
#include <utility>

#include "sim/views/text_width.hpp"

namespace ridge {

Cell text_cell(const std::string& s) { return {s, s}; }

std::string csv_quote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {
std::string pad(const std::string& s, size_t width, bool right) {
  size_t w = display_width(s);
  std::string fill(width > w ? width - w : 0, ' ');
  return right ? fill + s : s + fill;
}

size_t line_width(const std::vector<size_t>& width, const std::vector<size_t>& columns) {
  size_t w = 0;
  for (size_t c : columns) w += width[c];
  return w + 2 * (columns.empty() ? 0 : columns.size() - 1);
}

std::vector<size_t> column_widths(const ColumnTable& t) {
  std::vector<size_t> width(t.columns.size());
  for (size_t c = 0; c < t.columns.size(); ++c) {
    width[c] = display_width(t.columns[c].title);
    for (const auto& row : t.rows) width[c] = std::max(width[c], display_width(row[c].text));
    if (!t.totals.empty()) width[c] = std::max(width[c], display_width(t.totals[c].text));
  }
  return width;
}

// Narrows the columns of `group` that may be elided (names, descriptions, status), the
// widest first, down to kMinTextColumn or their title, until the group fits kTextWidth.
void narrow_text_columns(const ColumnTable& t, const std::vector<size_t>& group, std::vector<size_t>& width) {
  constexpr size_t kMinTextColumn = 12;
  while (line_width(width, group) > kTextWidth) {
    size_t widest = width.size(), floor = 0;
    for (size_t c : group) {
      size_t least = std::max(kMinTextColumn, display_width(t.columns[c].title));
      if (t.columns[c].elide && width[c] > least && (widest == width.size() || width[c] > width[widest]))
        widest = c, floor = least;
    }
    if (widest == width.size()) return;
    size_t excess = line_width(width, group) - kTextWidth;
    width[widest] = width[widest] > floor + excess ? width[widest] - excess : floor;
  }
}

// Columns in groups that each fit kTextWidth with the key columns repeated in front: one
// group when the table fits, else a second (third...) block printed under the first.
std::vector<std::vector<size_t>> column_groups(const ColumnTable& t, const std::vector<size_t>& width) {
  size_t keys = std::min(t.key_columns, t.columns.size());
  std::vector<std::vector<size_t>> groups;
  std::vector<size_t> group;
  for (size_t c = 0; c < keys; ++c) group.push_back(c);
  for (size_t c = keys; c < t.columns.size(); ++c) {
    group.push_back(c);
    if (line_width(width, group) > kTextWidth && group.size() > keys + 1) {
      group.pop_back();
      groups.push_back(group);
      group.resize(keys);
      group.push_back(c);
    }
  }
  groups.push_back(group);
  return groups;
}

// `s` broken at spaces into lines of at most `width` code points (a longer word stays whole).
std::vector<std::string> wrap_words(const std::string& s, size_t width) {
  std::vector<std::string> lines;
  std::istringstream words(s);
  std::string word, line;
  while (words >> word) {
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) lines.push_back(std::exchange(line, {}));
    line += (line.empty() ? "" : " ") + word;
  }
  lines.push_back(line);
  return lines;
}

void write_group(const ColumnTable& t, const std::vector<size_t>& width, const std::vector<size_t>& group,
                 std::ostream& out) {
  auto line = [&](auto cell_text) {
    std::string s;
    for (size_t i = 0; i < group.size(); ++i) {
      size_t c = group[i];
      std::string text = cell_text(c);
      text = c < t.key_columns ? elide_middle(text, width[c]) : elide_end(text, width[c]);
      s += (i ? "  " : "") + pad(text, width[c], t.columns[c].numeric);
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << '\n';
  };
  std::string rule;
  for (size_t i = 0; i < group.size(); ++i) rule += (i ? "  " : "") + std::string(width[group[i]], '-');
  line([&](size_t c) { return t.columns[c].title; });
  out << rule << '\n';
  const size_t last = group.back();
  const size_t indent = line_width(width, group) - width[last];
  for (const auto& row : t.rows) {
    if (!t.columns[last].wrap || display_width(row[last].text) <= width[last]) {
      line([&](size_t c) { return row[c].text; });
      continue;
    }
    std::vector<std::string> parts = wrap_words(row[last].text, width[last]);
    line([&](size_t c) { return c == last ? parts[0] : row[c].text; });
    for (size_t i = 1; i < parts.size(); ++i) out << std::string(indent, ' ') << elide_end(parts[i], width[last]) << '\n';
  }
  if (!t.totals.empty()) {
    out << rule << '\n';
    line([&](size_t c) { return t.totals[c].text; });
  }
}
}  // namespace

void write_text_table(const ColumnTable& t, std::ostream& out) {
  for (const auto& line : t.preamble) out << wrap_lines("# " + line + '\n');
  // Eliding text is the lesser change when it makes the table fit; else the columns wrap
  // into blocks, and only a block still too wide is elided.
  std::vector<size_t> width = column_widths(t), narrowed = width;
  std::vector<size_t> all(t.columns.size());
  for (size_t c = 0; c < all.size(); ++c) all[c] = c;
  narrow_text_columns(t, all, narrowed);
  if (line_width(narrowed, all) <= kTextWidth) width = narrowed;
  std::vector<std::vector<size_t>> groups = column_groups(t, width);
  for (const auto& group : groups) narrow_text_columns(t, group, width);
  for (size_t g = 0; g < groups.size(); ++g) {
    if (g) out << '\n';
    write_group(t, width, groups[g], out);
  }
  for (const auto& note : t.footer) out << wrap_lines(note + '\n');
}

void write_csv_head(const ColumnTable& t, std::ostream& out, const CsvStyle& style) {
  if (style.comments)
    for (const auto& line : t.preamble) out << "# " << line << '\n';
  for (size_t c = 0; c < t.columns.size(); ++c) out << (c ? "," : "") << csv_quote(t.columns[c].csv_name);
  out << '\n';
}

void write_csv_row(const std::vector<Cell>& row, std::ostream& out) {
  for (size_t c = 0; c < row.size(); ++c) out << (c ? "," : "") << csv_quote(row[c].raw);
  out << '\n';
}

void write_csv(const ColumnTable& t, std::ostream& out, const CsvStyle& style) {
  write_csv_head(t, out, style);
  for (const auto& row : t.rows) write_csv_row(row, out);
  if (style.totals && !t.totals.empty()) write_csv_row(t.totals, out);
  if (style.comments)
    for (const auto& note : t.footer) out << "# " << note << '\n';
}

void write_markdown(const ColumnTable& t, std::ostream& out) {
  auto md = [](const std::string& s) {
    std::string o;
    for (char c : s) o += (c == '|') ? std::string("\\|") : std::string(1, c);
    return o;
  };
  for (const auto& line : t.preamble) out << "> " << md(line) << "  \n";
  if (!t.preamble.empty()) out << '\n';
  out << '|';
  for (const auto& col : t.columns) out << ' ' << md(col.title) << " |";
  out << "\n|";
  for (const auto& col : t.columns) out << (col.numeric ? " ---: |" : " :--- |");
  out << '\n';
  auto row_out = [&](const std::vector<Cell>& row, bool bold) {
    out << '|';
    for (const auto& cell : row) out << ' ' << (bold && !cell.text.empty() ? "**" + md(cell.text) + "**" : md(cell.text)) << " |";
    out << '\n';
  };
  for (const auto& row : t.rows) row_out(row, false);
  if (!t.totals.empty()) row_out(t.totals, true);
  for (const auto& note : t.footer) out << '\n' << md(note) << '\n';
}

std::string latex_escape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    switch (c) {
      case '\\': o += "\\textbackslash{}"; break;
      case '{': case '}': case '$': case '&': case '#': case '_': case '%': o += '\\'; o += static_cast<char>(c); break;
      case '~': o += "\\textasciitilde{}"; break;
      case '^': o += "\\textasciicircum{}"; break;
      default: o += c < 0x20 ? ' ' : static_cast<char>(c);
    }
  }
  return o;
}

void write_latex(const ColumnTable& t, std::ostream& out) {
  for (const auto& line : t.preamble) {
    std::string one = line;
    for (char& c : one)
      if (c == '\n' || c == '\r') c = ' ';
    out << "% " << one << '\n';
  }
  out << "\\begin{tabular}{";
  for (const auto& col : t.columns) out << (col.numeric ? 'r' : 'l');
  out << "}\n\\toprule\n";
  auto row_out = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size(); ++c) out << (c ? " & " : "") << latex_escape(cells[c]);
    out << " \\\\\n";
  };
  std::vector<std::string> head;
  for (const auto& col : t.columns) head.push_back(col.title);
  row_out(head);
  out << "\\midrule\n";
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (const auto& cell : row) cells.push_back(cell.text);
    row_out(cells);
  }
  if (!t.totals.empty()) {
    out << "\\midrule\n";
    std::vector<std::string> cells;
    for (const auto& cell : t.totals) cells.push_back(cell.text);
    row_out(cells);
  }
  out << "\\bottomrule\n\\end{tabular}\n";
  for (const auto& note : t.footer) out << "% " << note << '\n';
}

}  // namespace ridge
