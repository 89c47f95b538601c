// Multi-block gnuplot data files (see data_file.hpp).
#include "plots/data_file.hpp"

namespace ridge::plots {

int DataFile::begin_block(const std::string& what) {
  if (blocks_ > 0) out_ << "\n\n";  // two blank lines end a block
  out_ << "# [index " << blocks_ << "] " << what << '\n';
  return blocks_++;
}

void DataFile::comment(const std::string& line) {
  std::string text = line;
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  out_ << "# " << text << '\n';
}

}  // namespace ridge::plots
