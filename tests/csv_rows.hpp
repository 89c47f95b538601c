// A CSV's rows as maps from header key to text: lines starting with '#' and blank lines
// skipped, the first other line the header, no quoted fields (ridge's CSV views and the
// measured-layer data sets write none).
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ridge_test {

inline std::vector<std::map<std::string, std::string>> csv_rows(const std::string& text) {
  std::vector<std::map<std::string, std::string>> rows;
  std::vector<std::string> header;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

}  // namespace ridge_test
