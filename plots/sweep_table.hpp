// The sweep CSV that `ridge sweep --format csv` writes, as `plot sweep` reads it: a
// header and rows of text (RFC 4180), rows that did not run dropped, `--where`
// selections, and readers of one cell as a number or a datasheet quantity.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ridge::plots {

// Where a cell starts in the file: line (preamble lines counted) and column, from 1.
struct CellPosition {
  int64_t line = 0, column = 0;
};

struct SweepRow {
  std::vector<std::string> cells;       // as many as the header's
  std::vector<CellPosition> positions;  // of each cell (none for a table not read from a file)
};

struct SweepTable {
  std::string file;
  std::vector<std::string> header;
  std::vector<SweepRow> rows;
  int column(const std::string& name) const;  // -1 when absent
};

// The table with each 'hardware' cell that names a descriptor file replaced by the name
// that descriptor declares (the CSV's 'device' column), as figures draw it: the path is
// relative to a sweep file the CSV does not record. --where still matches the path.
SweepTable with_device_names(SweepTable t);

// Keeps the rows whose cells `keep` accepts.
void keep_rows(SweepTable& t, const std::function<bool(const std::vector<std::string>&)>& keep);

// RFC 4180 CSV: quoted fields, doubled quotes, CRLF. A bad file is an InputError
// naming file:line.
SweepTable read_sweep_csv(const std::string& path);
SweepTable parse_sweep_csv(const std::string& text, const std::string& file);

// The rows where every COLUMN named in `where` ("COLUMN=VALUE") holds one of the values
// given for it: one column several times means any of those values. An unknown column,
// a value no row has, or a selection that leaves no row is an InputError with the
// known columns or values.
SweepTable select_rows(const SweepTable& table, const std::vector<std::string>& where);

// A varied field's value: a plain number or a datasheet quantity ("900 GB/s"), with the
// SI base unit of the quantity ("B/s"; empty for plain numbers).
struct Quantified {
  double value;
  std::string unit;
};
std::optional<Quantified> quantity_value(const std::string& text);

const std::string& cell(const SweepTable& t, size_t row, int col);
const std::string& name_of(const SweepTable& t, int col);
// A cell as a positive number up to 1e300 (batches, samples/s, times); else an InputError at its row.
double number_at(const SweepTable& t, size_t row, int col);
// A cell as a number or quantity (`quantity_value`); else an InputError at its row.
double quantity_at(const SweepTable& t, size_t row, int col);
// A column's distinct values in the order the rows first show them (the sweep's order);
// none for col < 0.
std::vector<std::string> distinct(const SweepTable& t, int col);
bool varies(const SweepTable& t, int col);
std::string joined(const std::vector<std::string>& parts, const std::string& sep);

}  // namespace ridge::plots
