// Multi-block gnuplot data files (see data_file.hpp).
#include "plots/data_file.hpp"

namespace ridge::plots {

namespace {
// gnuplot counts blocks by their separating blank lines and skips comments, so a block
// with no data row would merge into its neighbour's separator and shift every later
// `index`; an empty block gets one row of NaN, which plots nothing.
void close_block(std::ostringstream& out) {
  std::string text = out.str();
  size_t header = text.rfind("\n# [index ");
  header = header == std::string::npos ? text.find("# [index ") : header + 1;
  if (header == std::string::npos) return;
  std::istringstream lines(text.substr(header));
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line[0] != '#') return;
  out << "NaN NaN\n";
}
}  // namespace

int DataFile::begin_block(const std::string& what) {
  if (blocks_ > 0) {
    close_block(out_);
    out_ << "\n\n";  // two blank lines end a block
  }
  out_ << "# [index " << blocks_ << "] " << what << '\n';
  return blocks_++;
}

std::string DataFile::str() const {
  std::ostringstream copy(out_.str(), std::ios::ate);
  if (blocks_ > 0) close_block(copy);
  return copy.str();
}

void DataFile::comment(const std::string& line) {
  std::string text = line;
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  out_ << "# " << text << '\n';
}

}  // namespace ridge::plots
