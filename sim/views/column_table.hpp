// One tabular result, rendered four ways from the same cells so they cannot disagree:
// an aligned text table, Markdown and LaTeX use each cell's human text, CSV its raw value.
// The text table keeps to kTextWidth (120) columns: when cutting the columns marked
// `elide` with "…" (key columns in the middle, others at the end; 12 columns at least;
// a `wrap` column breaks onto more lines instead) makes it fit, that; else the columns
// past the key columns wrap into blocks printed one under the other, and a block still
// too wide is elided.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace ridge {

struct Cell {
  std::string text;  // for people: "105.4M", "618.3 KB"
  std::string raw;   // for machines: "105415200", "618348"
};

struct Column {
  std::string title;     // table and Markdown header
  std::string csv_name;  // CSV header (snake_case)
  bool numeric = true;   // right-aligned
  bool elide = false;    // text that may be cut with "…" to fit (names, descriptions, status)
  bool wrap = false;     // with elide, the last column of a block: a narrowed cell wraps onto more lines instead
};

struct ColumnTable {
  std::vector<std::string> preamble;  // header lines (conventions, settings)
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;
  std::vector<Cell> totals;           // optional last row
  std::vector<std::string> footer;    // lines under the totals (what they leave out)
  size_t key_columns = 1;             // repeated in front of each block of a wrapped table
};

Cell text_cell(const std::string& s);

// CSV is a plain header and rows by default, so csv.DictReader and pandas.read_csv read
// it as is; the preamble and footer lines ("# ...") and the totals row are opt-in.
struct CsvStyle {
  bool comments = false;  // --comments
  bool totals = false;    // --totals
};

void write_text_table(const ColumnTable& t, std::ostream& out);
void write_csv(const ColumnTable& t, std::ostream& out, const CsvStyle& style = {});
// The same in two parts, for a view that streams its rows instead of holding them: the
// preamble and header of `t` (its rows are not written), then one row at a time.
void write_csv_head(const ColumnTable& t, std::ostream& out, const CsvStyle& style = {});
void write_csv_row(const std::vector<Cell>& row, std::ostream& out);
void write_markdown(const ColumnTable& t, std::ostream& out);
// A booktabs tabular (\usepackage{booktabs}); the preamble becomes % comments, every
// text escaped for LaTeX.
void write_latex(const ColumnTable& t, std::ostream& out);
std::string latex_escape(const std::string& s);
std::string csv_quote(const std::string& s);

}  // namespace ridge
