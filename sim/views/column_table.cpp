// Text, CSV and Markdown rendering of a ColumnTable (see column_table.hpp).
#include "sim/views/column_table.hpp"

#include <algorithm>

namespace ridge {

Cell text_cell(const std::string& s) { return {s, s}; }

std::string csv_quote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {
// Width on screen of UTF-8 text (counts code points, enough for our symbols).
size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string pad(const std::string& s, size_t width, bool right) {
  size_t w = display_width(s);
  std::string fill(width > w ? width - w : 0, ' ');
  return right ? fill + s : s + fill;
}


// `line` as "# " comment lines no wider than kTextWidth, broken at spaces.
void write_comment(const std::string& line, std::ostream& out) {
  constexpr size_t kTextWidth = 120;
  std::string rest = line, prefix = "# ";
  while (display_width(prefix) + display_width(rest) > kTextWidth) {
    size_t cut = rest.rfind(' ', kTextWidth - prefix.size());
    if (cut == std::string::npos || cut == 0) break;
    out << prefix << rest.substr(0, cut) << '\n';
    rest = rest.substr(cut + 1);
    prefix = "#   ";
  }
  out << prefix << rest << '\n';
}
}  // namespace

void write_text_table(const ColumnTable& t, std::ostream& out) {
  for (const auto& line : t.preamble) write_comment(line, out);
  std::vector<size_t> width(t.columns.size());
  for (size_t c = 0; c < t.columns.size(); ++c) {
    width[c] = display_width(t.columns[c].title);
    for (const auto& row : t.rows) width[c] = std::max(width[c], display_width(row[c].text));
    if (!t.totals.empty()) width[c] = std::max(width[c], display_width(t.totals[c].text));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (size_t c = 0; c < cells.size(); ++c) s += (c ? "  " : "") + pad(cells[c], width[c], t.columns[c].numeric);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << '\n';
  };
  std::vector<std::string> head;
  for (const auto& col : t.columns) head.push_back(col.title);
  line(head);
  std::string rule;
  for (size_t c = 0; c < width.size(); ++c) rule += (c ? "  " : "") + std::string(width[c], '-');
  out << rule << '\n';
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (const auto& cell : row) cells.push_back(cell.text);
    line(cells);
  }
  if (!t.totals.empty()) {
    out << rule << '\n';
    std::vector<std::string> cells;
    for (const auto& cell : t.totals) cells.push_back(cell.text);
    line(cells);
  }
  for (const auto& note : t.footer) out << note << '\n';
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
